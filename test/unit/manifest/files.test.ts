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

  it('follows symlinked directories without looping', async () => {
    await touch('m/a.yaml');
    await symlink(join(root, 'm'), join(root, 'm/loop'));
    const { files } = await findManifestFiles(['m'], root);
    expect(files.map((f) => f.name)).toEqual(['m/a.yaml']);
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
