/**
 * writeExport's streamed files (src/export/write.ts): an archive written by
 * its fill, as a download streams it into the file's sink; a fill that fails
 * leaves no partial file, and nothing after it is written.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeExport } from '../../../src/export/write.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-export-write-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const options = { force: false, shown: (p: string) => p };

describe('streamed export files', () => {
  it('writes what the fill streams, starting over on each attempt', async () => {
    const path = join(dir, 'modules', 'acme', 'network-aws', '1.0.0.tar.gz');
    await writeExport(
      dir,
      [
        {
          path,
          fill: async (sink) => {
            // a first attempt cut short, then the whole body
            await sink.begin();
            await sink.write(Buffer.from('partial-and-longer-than-the-rest'));
            await sink.begin();
            await sink.write(Buffer.from('whole '));
            await sink.write(Buffer.from('archive'));
          },
        },
      ],
      options,
    );
    expect(await readFile(path, 'utf8')).toBe('whole archive');
  });

  it('leaves no partial file when a fill fails, and writes nothing after it', async () => {
    const archive = join(dir, 'modules', 'a.tar.gz');
    const manifest = join(dir, 'registry-module.yaml');
    const failed = writeExport(
      dir,
      [
        {
          path: archive,
          fill: async (sink) => {
            await sink.begin();
            await sink.write(Buffer.from('half an archive'));
            throw new Error('connection reset');
          },
        },
        { path: manifest, content: 'kind: RegistryModule\n' },
      ],
      options,
    );
    await expect(failed).rejects.toThrow('connection reset');
    expect(await readdir(join(dir, 'modules'))).toEqual([]);
    expect(await readdir(dir)).toEqual(['modules']);
  });
});
