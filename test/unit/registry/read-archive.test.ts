/**
 * readArchive: a manifest's ready-made `archive:` is accepted only as a gzip
 * tar with the module's .tf files at its root, and its digest is of the bytes
 * as they are (converge does not repack it). Archives are made with GNU tar,
 * as a module author would.
 */
import { createHash } from 'node:crypto';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ConvergeError } from '../../../src/errors.ts';
import { packModule, readArchive } from '../../../src/registry/pack.ts';
import { makeModule, NETWORK_MODULE, tempDir } from './module-fixture.ts';
import { gnuTar } from './tar-inspect.ts';

async function gnuArchive(args: string[]): Promise<string> {
  const file = join(await tempDir(), 'network-1.1.0.tar.gz');
  const made = gnuTar(['-czf', file, ...args]);
  expect(made.status, made.stderr).toBe(0);
  return file;
}

async function archiveError(file: string): Promise<ConvergeError> {
  const error = await readArchive(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ConvergeError.is(error)) throw new Error(`expected a ConvergeError, got ${String(error)}`);
  expect(error.code).toBe('INPUT_INVALID');
  return error;
}

describe('readArchive accepts', () => {
  it('an archive converge packed, with the same digest and files', async () => {
    const packed = await packModule(await makeModule(NETWORK_MODULE));
    const file = join(await tempDir(), 'network.tar.gz');
    await writeFile(file, packed.bytes);
    const read = await readArchive(file);
    expect(read.bytes.equals(packed.bytes)).toBe(true);
    expect(read).toMatchObject({ sha256: packed.sha256, files: packed.files, size: packed.size });
  });

  it('a GNU tar of the module directory, ./ prefixes and directory entries included', async () => {
    const dir = await makeModule(NETWORK_MODULE);
    const file = await gnuArchive(['-C', dir, '.']);
    const read = await readArchive(file);
    expect(read.files).toEqual([...Object.keys(NETWORK_MODULE)].sort());
    // the digest is of the bytes as they are, not of a repacked archive
    expect(read.sha256).toBe(
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
    expect(read.size).toBe((await readFile(file)).length);
  });
});

describe('readArchive refuses', () => {
  it('a missing file', async () => {
    const missing = join(await tempDir(), 'missing.tar.gz');
    expect((await archiveError(missing)).message).toBe(`module archive ${missing} does not exist`);
  });

  it('a file that is not gzip: text, or an uncompressed tar', async () => {
    const text = join(await tempDir(), 'network.tar.gz');
    await writeFile(text, 'not an archive\n');
    expect((await archiveError(text)).message).toBe(`${text} is not a gzip file`);

    const dir = await makeModule(NETWORK_MODULE);
    const plain = join(await tempDir(), 'network.tar.gz');
    expect(gnuTar(['-cf', plain, '-C', dir, '.']).status).toBe(0);
    expect((await archiveError(plain)).message).toBe(`${plain} is not a gzip file`);
  });

  it('gzip that is truncated, or that holds something other than a tar', async () => {
    const packed = await packModule(await makeModule(NETWORK_MODULE));
    const truncated = join(await tempDir(), 'truncated.tar.gz');
    await writeFile(truncated, packed.bytes.subarray(0, packed.bytes.length - 20));
    expect((await archiveError(truncated)).message).toContain('is not valid gzip');

    const notTar = join(await tempDir(), 'text.tar.gz');
    await writeFile(notTar, gzipSync('just some text, long enough to fill part of a block\n'.repeat(20)));
    expect((await archiveError(notTar)).message).toContain('is not a valid tar archive');
  });

  it('an empty tarball', async () => {
    const file = await gnuArchive(['-T', '/dev/null']);
    expect((await archiveError(file)).message).toBe(`${file} is an empty archive`);
    const emptyGzip = join(await tempDir(), 'empty.tar.gz');
    await writeFile(emptyGzip, gzipSync(Buffer.alloc(0)));
    expect((await archiveError(emptyGzip)).message).toBe(`${emptyGzip} is an empty archive`);
  });

  it('a module in a subdirectory instead of at the root', async () => {
    const parent = await makeModule(
      Object.fromEntries(Object.entries(NETWORK_MODULE).map(([p, f]) => [`network/${p}`, f])),
    );
    const file = await gnuArchive(['-C', parent, 'network']);
    const error = await archiveError(file);
    expect(error.message).toBe(
      `${file}: the module must be at the archive's root, not in a subdirectory (its .tf files are under network/)`,
    );
    expect(error.hint).toContain('-C network .');
  });

  it('an archive with no .tf file at all', async () => {
    const dir = await makeModule({ 'README.md': '# nothing\n' });
    const file = await gnuArchive(['-C', dir, '.']);
    expect((await archiveError(file)).message).toBe(`${file} is not a module: no .tf file at the archive's root`);
  });

  it('entries that escape the extraction directory', async () => {
    const parent = await makeModule({ 'module/main.tf': '', 'outside.txt': '' });
    const file = await gnuArchive(['-C', join(parent, 'module'), '-P', 'main.tf', '../outside.txt']);
    expect((await archiveError(file)).message).toContain('entry ../outside.txt points outside the archive');
  });

  it('a symbolic link, as packing does', async () => {
    const dir = await makeModule({ 'main.tf': '' });
    await symlink('main.tf', join(dir, 'alias.tf'));
    const file = await gnuArchive(['-C', dir, 'main.tf', 'alias.tf']);
    expect((await archiveError(file)).message).toContain('entry alias.tf is a SymbolicLink');
  });
});
