import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findManifestFiles } from '../../../src/manifest/files.ts';

let root: string;

async function touch(path: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), 'kind: GeneralSettings\n');
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'converge-files-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findManifestFiles', () => {
  it('walks directories recursively in sorted order for .yaml and .yml only', async () => {
    for (const f of ['m/b.yaml', 'm/a.yml', 'm/sub/c.yaml', 'm/sub/deeper/d.yaml', 'm/notes.md', 'm/data.json'])
      await touch(f);
    const { files, problems } = await findManifestFiles(['m'], root);
    expect(problems).toEqual([]);
    expect(files.map((f) => f.name)).toEqual(['m/a.yml', 'm/b.yaml', 'm/sub/c.yaml', 'm/sub/deeper/d.yaml']);
    expect(files[0]?.path).toBe(join(root, 'm/a.yml'));
  });

  it('skips hidden files and directories, node_modules and the configuration file', async () => {
    const skipped = ['m/.github/ci.yaml', 'm/.hidden.yaml', 'm/node_modules/x/y.yaml', 'm/converge.config.yaml'];
    for (const f of [...skipped, 'm/kept.yaml']) await touch(f);
    const { files } = await findManifestFiles(['m'], root);
    expect(files.map((f) => f.name)).toEqual(['m/kept.yaml']);
  });

  it('takes a file named explicitly whatever its name', async () => {
    await touch('.hidden.yaml');
    await touch('manifest.txt');
    const { files } = await findManifestFiles(['.hidden.yaml', 'manifest.txt'], root);
    expect(files.map((f) => f.name)).toEqual(['.hidden.yaml', 'manifest.txt']);
  });

  it('reports a path that does not exist and a directory without manifests', async () => {
    await mkdir(join(root, 'empty'));
    const { files, problems } = await findManifestFiles(['nope.yaml', 'empty'], root);
    expect(files).toEqual([]);
    expect(problems).toEqual([
      { file: 'nope.yaml', line: 1, col: 1, message: 'no such file or directory' },
      { file: 'empty', line: 1, col: 1, message: 'no .yaml or .yml files here' },
    ]);
  });

  it('records which path argument named each file: its layer', async () => {
    for (const f of ['base/a.yaml', 'base/sub/b.yaml', 'prod/a.yaml']) await touch(f);
    const { files } = await findManifestFiles(['base', 'prod', 'base/a.yaml'], root);
    expect(files.map((f) => `${f.name} ${f.layer}`)).toEqual(['base/a.yaml 0', 'base/sub/b.yaml 0', 'prod/a.yaml 1']);
  });

  it('lists a file once when paths overlap', async () => {
    await touch('m/a.yaml');
    const { files } = await findManifestFiles(['m/a.yaml', 'm', './m/a.yaml'], root);
    expect(files.map((f) => f.name)).toEqual(['m/a.yaml']);
  });

  it('names absolute paths relative to cwd when they are inside it', async () => {
    await touch('m/a.yaml');
    const { files } = await findManifestFiles([join(root, 'm')], root);
    expect(files.map((f) => f.name)).toEqual(['m/a.yaml']);
    const outside = await findManifestFiles([join(root, 'm')], join(root, 'elsewhere'));
    expect(outside.files.map((f) => f.name)).toEqual([join(root, 'm/a.yaml')]);
  });

  it('follows a symbolic link to a directory inside the tree once, and reports one that loops', async () => {
    await touch('m/a.yaml');
    await touch('m/shared/s.yaml');
    await symlink(join(root, 'm/shared'), join(root, 'm/also-shared'));
    await symlink('.', join(root, 'm/here'));
    await symlink(join(root, 'm'), join(root, 'm/shared/up'));
    const { files, problems } = await findManifestFiles(['m'], root);
    expect(files.map((f) => f.name)).toEqual(['m/a.yaml', 'm/also-shared/s.yaml']);
    const loops = 'a symbolic link that loops (to a directory holding it): fix or remove it';
    expect(problems).toEqual([
      { file: 'm/also-shared/up', line: 1, col: 1, message: loops },
      { file: 'm/here', line: 1, col: 1, message: loops },
    ]);
  });

  it('reports a symbolic link that leads out of the repository instead of following it', async () => {
    await touch('m/a.yaml');
    await touch('elsewhere/prod.yaml');
    await symlink(join(root, 'elsewhere'), join(root, 'm/linked'));
    await symlink(join(root, 'elsewhere/prod.yaml'), join(root, 'm/prod.yaml'));
    const { files, problems } = await findManifestFiles(['m'], root);
    expect(files.map((f) => f.name)).toEqual(['m/a.yaml']);
    expect(problems.map((p) => [p.file, p.message])).toEqual([
      [
        'm/linked',
        `a symbolic link out of the repository (to ${join(root, 'elsewhere')}): manifests are read only inside it`,
      ],
      [
        'm/prod.yaml',
        `a symbolic link out of the repository (to ${join(root, 'elsewhere/prod.yaml')}): manifests are read only inside it`,
      ],
    ]);
    // inside the roots given (the repository), the same links are followed
    const inRepository = await findManifestFiles(['m'], root, [root]);
    expect(inRepository.problems).toEqual([]);
    expect(inRepository.files.map((f) => f.name)).toEqual(['m/a.yaml', 'm/linked/prod.yaml', 'm/prod.yaml']);
  });

  it('reports a FIFO or a device that looks like a manifest instead of skipping it, given or found', async () => {
    await touch('m/a.yaml');
    execFileSync('mkfifo', [join(root, 'm/v402.yaml')]);
    execFileSync('mkfifo', [join(root, 'm/not-a-manifest.pipe')]);
    await symlink('/dev/null', join(root, 'm/null.yml'));
    const notFile = 'is not a regular file (a device, FIFO or socket): a manifest must be a file';
    const found = await findManifestFiles(['m'], root, ['/']);
    expect(found.files.map((f) => f.name)).toEqual(['m/a.yaml']);
    expect(found.problems).toEqual([
      { file: 'm/null.yml', line: 1, col: 1, message: notFile },
      { file: 'm/v402.yaml', line: 1, col: 1, message: notFile },
    ]);
    const given = await findManifestFiles(['m/v402.yaml'], root);
    expect(given).toEqual({ files: [], problems: [{ file: 'm/v402.yaml', line: 1, col: 1, message: notFile }] });
  });

  it('takes .YAML and .YML in any case, never skipping what looks like a manifest', async () => {
    for (const f of ['m/a.YAML', 'm/b.Yml', 'm/c.yaml']) await touch(f);
    const { files, problems } = await findManifestFiles(['m'], root);
    expect(problems).toEqual([]);
    expect(files.map((f) => f.name)).toEqual(['m/a.YAML', 'm/b.Yml', 'm/c.yaml']);
  });

  it('reports a dangling or looping symbolic link instead of skipping it', async () => {
    await touch('m/a.yaml');
    await symlink(join(root, 'gone.yaml'), join(root, 'm/dangling.yaml'));
    await symlink(join(root, 'm/self.yaml'), join(root, 'm/self.yaml'));
    const { files, problems } = await findManifestFiles(['m'], root);
    expect(files.map((f) => f.name)).toEqual(['m/a.yaml']);
    expect(problems).toEqual([
      {
        file: 'm/dangling.yaml',
        line: 1,
        col: 1,
        message: 'a symbolic link to nothing (no such file or directory): fix or remove it',
      },
      {
        file: 'm/self.yaml',
        line: 1,
        col: 1,
        message: 'a symbolic link that loops (too many levels of symbolic links): fix or remove it',
      },
    ]);
  });
});
