/**
 * What packModule puts in the archive and what it refuses: .terraformignore,
 * the always-skipped .git and .terraform, executable bits, symbolic links,
 * directories that are not modules. GNU tar reads the result back, so the
 * archive is checked as an operator would see it.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConvergeError } from '../../../src/errors.ts';
import { packModule } from '../../../src/registry/pack.ts';
import { makeModule, NETWORK_MODULE, tempDir } from './module-fixture.ts';
import { gnuTar, parseEntries, rawTypeflags } from './tar-inspect.ts';

async function packError(dir: string): Promise<ConvergeError> {
  const error = await packModule(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ConvergeError.is(error)) throw new Error(`expected a ConvergeError, got ${String(error)}`);
  expect(error.code).toBe('INPUT_INVALID');
  return error;
}

async function archiveFile(dir: string): Promise<string> {
  const file = join(await tempDir(), 'module.tar.gz');
  await writeFile(file, (await packModule(dir)).bytes);
  return file;
}

describe('.terraformignore', () => {
  it('applies globs, anchors, directory patterns and negation, gitignore style', async () => {
    const dir = await makeModule({
      ...NETWORK_MODULE,
      '.terraformignore': ['*.bak', '**/*.log', '/notes.txt', 'tmp/', 'build/*', '!build/keep.txt', ''].join('\n'),
      'main.tf.bak': 'old',
      'deep/er/trace.log': 'log',
      'notes.txt': 'root notes are ignored',
      'docs/notes.txt': 'notes elsewhere are not',
      'tmp/scratch.tf': 'ignored directory',
      'modules/x/tmp/cache': 'ignored directory at any depth',
      'build/out.zip': 'ignored',
      'build/keep.txt': 'brought back by the negation',
    });
    const { files } = await packModule(dir);
    expect(files).toEqual(
      [...Object.keys(NETWORK_MODULE), '.terraformignore', 'docs/notes.txt', 'build/keep.txt'].sort(),
    );
  });

  it('cannot bring back a file whose directory is ignored (as in git)', async () => {
    const dir = await makeModule({ 'main.tf': '', '.terraformignore': 'docs/\n!docs/keep.md\n', 'docs/keep.md': '' });
    expect((await packModule(dir)).files).toEqual(['.terraformignore', 'main.tf']);
  });

  it('is packed itself unless it ignores itself, as Terraform does', async () => {
    const packs = await makeModule({ 'main.tf': '', '.terraformignore': '*.bak\n' });
    expect((await packModule(packs)).files).toEqual(['.terraformignore', 'main.tf']);
    const hides = await makeModule({ 'main.tf': '', '.terraformignore': '.terraformignore\n' });
    expect((await packModule(hides)).files).toEqual(['main.tf']);
  });

  it('matches case-sensitively, so every operating system packs the same files', async () => {
    const dir = await makeModule({ 'main.tf': '', 'README.md': '', 'readme.txt': '', '.terraformignore': 'readme*\n' });
    expect((await packModule(dir)).files).toEqual(['.terraformignore', 'README.md', 'main.tf']);
  });

  it('always skips .git and .terraform, at any depth, even when negated', async () => {
    const dir = await makeModule({
      'main.tf': '',
      '.terraformignore': '!.git\n!.terraform/\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.terraform/providers/registry/null/provider': 'binary',
      'modules/sub/.git': 'gitdir: ../../.git/modules/sub\n',
      'modules/sub/.terraform/modules/modules.json': '{}',
      'modules/sub/main.tf': '',
    });
    expect((await packModule(dir)).files).toEqual(['.terraformignore', 'main.tf', 'modules/sub/main.tf']);
  });

  it('reports a .terraformignore that cannot be read', async () => {
    const dir = await makeModule({ 'main.tf': '' });
    await mkdir(join(dir, '.terraformignore'));
    expect((await packError(dir)).message).toContain('.terraformignore');
  });
});

describe('entries', () => {
  it('keeps executables at 0755 and normalises every other file to 0644', async () => {
    const dir = await makeModule({
      'main.tf': { content: '', mode: 0o600 },
      'group.tf': { content: '', mode: 0o664 },
      'run.sh': { content: '#!/bin/sh\n', mode: 0o700 },
      'tool.sh': { content: '#!/bin/sh\n', mode: 0o775 },
      'other.sh': { content: '#!/bin/sh\n', mode: 0o741 },
    });
    const modes = Object.fromEntries(
      (await parseEntries((await packModule(dir)).bytes)).map((e) => [e.path, e.mode?.toString(8)]),
    );
    expect(modes).toEqual({
      'main.tf': '644',
      'group.tf': '644',
      'run.sh': '755',
      'tool.sh': '755',
      'other.sh': '755',
    });
  });

  it('holds files only: no directory entries, and a pax header only for a path ustar cannot hold', async () => {
    const long = `modules/${'d'.repeat(80)}/${'e'.repeat(80)}/${'f'.repeat(110)}.tf`;
    const dir = await makeModule({ 'main.tf': '', 'modules/a/main.tf': '', [long]: '', 'modules/ünï.tf': '' });
    const packed = await packModule(dir);
    // ustar: '0' a file, 'x' a pax header (the long name; the non-ASCII one)
    expect(rawTypeflags(packed.bytes)).toEqual(['0', '0', 'x', '0', 'x', '0']);
    expect((await parseEntries(packed.bytes)).map((e) => e.path)).toEqual(packed.files);
  });

  it('lists with GNU tar as files of 0/0 dated 1980-01-01', async () => {
    const listing = gnuTar(['-tzvf', await archiveFile(await makeModule(NETWORK_MODULE))]);
    expect(listing.stderr).toBe('');
    expect(listing.status).toBe(0);
    const lines = listing.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/).at(-1))).toEqual([...Object.keys(NETWORK_MODULE)].sort());
    for (const line of lines) {
      expect(line).toMatch(/^-rw(-|x)r-(-|x)r-(-|x) 0\/0 +\d+ 1980-01-01 00:00 /);
    }
    expect(lines.find((l) => l.endsWith('scripts/plan.sh'))).toMatch(/^-rwxr-xr-x /);
    expect(lines.find((l) => l.endsWith('README.md'))).toMatch(/^-rw-r--r-- /);
  });

  it('extracts with GNU tar to the same content', async () => {
    const long = `modules/${'d'.repeat(80)}/${'e'.repeat(80)}/${'f'.repeat(110)}.tf`;
    const files = { ...NETWORK_MODULE, [long]: 'long\n', 'modules/ünï.tf': 'unicode\n' };
    const source = await makeModule(files);
    const target = await tempDir();
    const extracted = gnuTar(['-xzf', await archiveFile(source), '-C', target]);
    expect(extracted.stderr).toBe('');
    expect(extracted.status).toBe(0);
    // diff -r exits non-zero (and throws) on any difference, including an extra or missing file
    expect(() => execFileSync('diff', ['-r', source, target])).not.toThrow();
    expect(await readFile(join(target, long), 'utf8')).toBe('long\n');
  });
});

describe('symbolic links and files outside the module', () => {
  it('refuses a link to a file inside the module, naming it', async () => {
    const dir = await makeModule({ 'main.tf': '' });
    await symlink('main.tf', join(dir, 'alias.tf'));
    const error = await packError(dir);
    expect(error.message).toContain(join(dir, 'alias.tf'));
    expect(error.message).toContain('symbolic link');
  });

  it('refuses a link to a file or directory outside the module', async () => {
    const outside = await makeModule({ 'secret.txt': 'do not ship' });
    const dir = await makeModule({ 'main.tf': '', 'modules/a/main.tf': '' });
    await symlink(join(outside, 'secret.txt'), join(dir, 'modules/a/secret.txt'));
    expect((await packError(dir)).message).toContain(join(dir, 'modules/a/secret.txt'));

    const other = await makeModule({ 'main.tf': '' });
    await symlink(outside, join(other, 'vendored'));
    expect((await packError(other)).message).toContain(join(other, 'vendored'));
  });

  it('does not look at a link that .terraformignore excludes', async () => {
    const dir = await makeModule({ 'main.tf': '', '.terraformignore': 'current\n' });
    await symlink('/', join(dir, 'current'));
    expect((await packModule(dir)).files).toEqual(['.terraformignore', 'main.tf']);
  });
});

describe('not a module', () => {
  it('refuses a missing directory', async () => {
    const missing = join(await tempDir(), 'nope');
    expect((await packError(missing)).message).toBe(`module directory ${missing} does not exist`);
  });

  it('refuses a file given as the module directory', async () => {
    const dir = await makeModule({ 'main.tf': '' });
    expect((await packError(join(dir, 'main.tf'))).message).toContain('is not a directory');
  });

  it('refuses a directory without a .tf file at its root', async () => {
    const dir = await makeModule({ 'README.md': '', 'network/main.tf': '' });
    expect((await packError(dir)).message).toBe(`${dir} is not a module: no .tf file at its root`);
  });

  it('refuses a module whose only root .tf file is ignored', async () => {
    const dir = await makeModule({ 'main.tf': '', '.terraformignore': '*.tf\n' });
    expect((await packError(dir)).message).toContain('no .tf file at its root');
  });
});
