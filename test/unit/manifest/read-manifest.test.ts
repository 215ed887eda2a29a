/**
 * A manifest is read only as a regular file, judged on the open descriptor:
 * a FIFO swapped in after the directory was listed is refused at once, never
 * waited on (docs/security.md, "Reading input").
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/manifest/read-manifest.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'converge-read-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('readManifest', () => {
  it('refuses a FIFO without waiting for a writer', () => {
    const path = join(root, 'v402.yaml');
    execFileSync('mkfifo', [path]);
    const parsed = readManifest({ path, name: 'v402.yaml' });
    expect(parsed.problems).toEqual([
      {
        file: 'v402.yaml',
        line: 1,
        col: 1,
        message: 'is not a regular file (a device, FIFO or socket): a manifest must be a file',
      },
    ]);
  }, 5_000);

  it('refuses a device', () => {
    const parsed = readManifest({ path: '/dev/zero', name: 'zero.yaml' });
    expect(parsed.problems.map((p) => p.message)).toEqual([
      'is not a regular file (a device, FIFO or socket): a manifest must be a file',
    ]);
  });

  it('reads a regular file', async () => {
    const path = join(root, 'a.yaml');
    await writeFile(path, 'kind: GeneralSettings\nspec: {}\n');
    const parsed = readManifest({ path, name: 'a.yaml' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.text).toBe('kind: GeneralSettings\nspec: {}\n');
  });
});
