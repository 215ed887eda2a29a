/**
 * Why readRegularFile did not read a file, as a code its callers compare
 * (a missing .terraformignore is no rule, a FIFO manifest is named as one,
 * an archive over the limit is refused from its size) rather than as text.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRegularFile } from '../../../src/manifest/regular-file.ts';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'converge-regular-'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

const limit = { maxBytes: 4, tooLarge: (size: number) => `it holds ${size} bytes, more than 4` };

describe('readRegularFile', () => {
  it('reads a regular file within the limit', async () => {
    await writeFile(join(base, 'a'), 'abc');
    expect(readRegularFile(join(base, 'a'), limit)).toEqual({ bytes: Buffer.from('abc') });
  });

  it('says why it did not read, with a code', async () => {
    await writeFile(join(base, 'big'), 'abcdef');
    await mkdir(join(base, 'dir'));
    await symlink(join(base, 'big'), join(base, 'link'));
    execFileSync('mkfifo', [join(base, 'fifo')]);
    expect(readRegularFile(join(base, 'none'), limit)).toEqual({ code: 'ENOENT', error: 'no such file or directory' });
    expect(readRegularFile(join(base, 'big'), limit)).toEqual({
      code: 'TOO_LARGE',
      error: 'it holds 6 bytes, more than 4',
      size: 6,
    });
    expect(readRegularFile(join(base, 'dir'), limit)).toEqual({ code: 'IS_DIRECTORY', error: 'is a directory' });
    expect(readRegularFile(join(base, 'fifo'), limit)).toEqual({
      code: 'NOT_REGULAR',
      error: 'is not a regular file (a device, FIFO or socket)',
    });
    expect(readRegularFile(join(base, 'link'), { ...limit, noFollow: true })).toEqual({
      code: 'SYMLINK',
      error: 'is a symbolic link',
    });
  }, 5_000);

  it('describes a file over the limit itself when the caller does not', async () => {
    await writeFile(join(base, 'big'), 'abcdef');
    expect(readRegularFile(join(base, 'big'), { maxBytes: 4 })).toMatchObject({ code: 'TOO_LARGE', size: 6 });
  });
});
