/**
 * What cannot be packed in bounded time and memory is refused, naming the
 * file, before anything is read: a FIFO or a link as `.terraformignore` (a
 * FIFO hung plan, apply and `test run`; a link to /dev/zero read 700 MB), a
 * FIFO or device among the files, a name that is not UTF-8, and more bytes
 * than one upload takes (a 100 MB file gave a 413 at upload and left the
 * version without content). The same checks run at validate
 * (contentProblem), with the module named as the manifest writes it, and
 * there a source or archive outside the repository is refused too.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConvergeError } from '../../../src/errors.ts';
import { MAX_MODULE_BYTES } from '../../../src/registry/module-size.ts';
import { contentProblem } from '../../../src/registry/module-source.ts';
import { packModule, readArchive } from '../../../src/registry/pack.ts';
import { makeModule, tempDir } from './module-fixture.ts';

async function packError(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ConvergeError.is(error)) throw new Error(`expected a ConvergeError, got ${String(error)}`);
  expect(error.code).toBe('INPUT_INVALID');
  return error.message;
}

const source = (path: string, shown = 'net') => ({ kind: 'source' as const, path, shown });

describe('special files in a module', () => {
  const fifo = (name: string) => async (dir: string) => execFileSync('mkfifo', [join(dir, name)]);
  it.each([
    [
      'a FIFO as .terraformignore',
      fifo('.terraformignore'),
      'net/.terraformignore: is not a regular file (a device, FIFO or socket)',
    ],
    [
      '.terraformignore as a link to /dev/zero',
      (dir: string) => symlink('/dev/zero', join(dir, '.terraformignore')),
      'net/.terraformignore: is a symbolic link',
    ],
    [
      'a FIFO among the files',
      fifo('pipe.tf'),
      'net/pipe.tf is not a regular file, directory or link (a FIFO, socket or device); converge packs only files',
    ],
    [
      'a link to a file outside',
      (dir: string) => symlink('/etc/passwd', join(dir, 'passwd')),
      'net/passwd is a symbolic link; converge does not pack links',
    ],
    [
      'a file name that is not UTF-8',
      (dir: string) => writeFile(Buffer.from(`${dir}/caf\xe9.tf`, 'latin1'), ''),
      'net/caf\\xe9.tf: the file name is not UTF-8',
    ],
  ])(
    'refuses %s at once, naming it, at validate and when packing',
    async (_, make, message) => {
      const dir = await makeModule({ 'main.tf': '' });
      await make(dir);
      expect(contentProblem(source(dir), undefined)).toBe(message);
      expect(await packError(packModule(dir))).toBe(message.replace(/^net/, dir));
    },
    5_000,
  );
});

describe('the size of one upload', () => {
  it('refuses a module whose files hold more, naming the largest, before reading any', async () => {
    const dir = await makeModule({ 'main.tf': '', 'data/small.bin': 'x' });
    // sparse: the size is known from the listing, and the test writes nothing
    await writeFile(join(dir, 'data/big.bin'), '');
    await truncate(join(dir, 'data/big.bin'), 100 * 1024 * 1024);
    const message =
      'net: its files hold 100.0 MiB, more than a module version may (64.0 MiB, what the registry takes in one upload); the largest is data/big.bin (100.0 MiB)';
    expect(contentProblem(source(dir), undefined)).toBe(message);
    expect(await packError(packModule(dir))).toBe(message.replace('net', dir));
  });

  it('packs a module just under the limit', async () => {
    const dir = await makeModule({ 'main.tf': '' });
    await writeFile(join(dir, 'zeros.bin'), '');
    await truncate(join(dir, 'zeros.bin'), MAX_MODULE_BYTES - 1);
    expect(contentProblem(source(dir), undefined)).toBeUndefined();
  });

  it('refuses a ready archive larger than one upload, before reading it', async () => {
    const file = join(await tempDir(), 'module.tar.gz');
    await writeFile(file, '');
    await truncate(file, MAX_MODULE_BYTES + 1);
    const message =
      'the archive holds 64.0 MiB, more than a module version may (64.0 MiB, what the registry takes in one upload)';
    expect(contentProblem({ kind: 'archive', path: file, shown: 'm.tar.gz' }, undefined)).toBe(`m.tar.gz: ${message}`);
    expect(await packError(readArchive(file))).toBe(`${file}: ${message}`);
  });

  it('refuses a FIFO as the archive', async () => {
    const file = join(await tempDir(), 'module.tar.gz');
    execFileSync('mkfifo', [file]);
    expect(contentProblem({ kind: 'archive', path: file, shown: 'm.tar.gz' }, undefined)).toBe(
      'm.tar.gz is not a file',
    );
    expect(await packError(readArchive(file))).toBe(
      `cannot read ${file}: is not a regular file (a device, FIFO or socket)`,
    );
  }, 5_000);
});

describe('where a module may be', () => {
  it('only inside the roots: as written, then through its links', async () => {
    const repository = await tempDir();
    const elsewhere = await makeModule({ 'main.tf': '', 'terraform.tfstate': '{"secret": 1}' });
    await mkdir(join(repository, 'modules/net'), { recursive: true });
    await writeFile(join(repository, 'modules/net/main.tf'), '');
    await symlink(elsewhere, join(repository, 'modules/linked'));
    const roots = [repository];

    expect(contentProblem(source(join(repository, 'modules/net')), roots)).toBeUndefined();
    expect(contentProblem(source(elsewhere, '../../elsewhere/infra-live'), roots)).toMatch(
      /^\.\.\/\.\.\/elsewhere\/infra-live is outside the repository: module sources are read only where \$\{file:\} may read/,
    );
    expect(contentProblem(source(join(repository, 'modules/linked'), 'modules/linked'), roots)).toBe(
      `modules/linked leads outside the repository through a symbolic link (to ${elsewhere}): module sources are read only where \${file:} may read (below the configuration's and the manifests' directories); interpolation.fileRoots of the configuration allows more`,
    );
    // outside as written: not even looked at, so a missing one says the same
    expect(contentProblem(source('/nowhere/at/all', '/nowhere/at/all'), roots)).toMatch(/is outside the repository/);
    expect(contentProblem({ kind: 'archive', path: '/etc/passwd', shown: '/etc/passwd' }, roots)).toMatch(
      /^\/etc\/passwd is outside the repository/,
    );
  });
});
