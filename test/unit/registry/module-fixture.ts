/**
 * Module directories for the packing tests, created under the OS temp dir and
 * removed when the test file ends (test/helpers/temp-dir.ts). A file is given as its content, or as content and
 * mode; the order of the record is the order files are created in, which the
 * order-independence tests vary.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempDir as tempDirNamed } from '../../helpers/temp-dir.ts';

export type FixtureFile = string | Buffer | { content: string | Buffer; mode: number };

/** A fresh empty directory `converge-pack-XXXXXX`. */
export const tempDir = (): Promise<string> => tempDirNamed('pack');

export async function writeModule(dir: string, files: Record<string, FixtureFile>): Promise<string> {
  for (const [path, file] of Object.entries(files)) {
    const absolute = join(dir, path);
    await mkdir(dirname(absolute), { recursive: true });
    const content = typeof file === 'string' || Buffer.isBuffer(file) ? file : file.content;
    await writeFile(absolute, content);
    // explicit chmod: writeFile's mode is filtered by the umask
    await chmod(absolute, typeof file === 'string' || Buffer.isBuffer(file) ? 0o644 : file.mode);
  }
  return dir;
}

export async function makeModule(files: Record<string, FixtureFile>): Promise<string> {
  return writeModule(await tempDir(), files);
}

export const NETWORK_MODULE: Record<string, FixtureFile> = {
  'main.tf': 'resource "null_resource" "network" {}\n',
  'variables.tf': 'variable "cidr" { type = string }\n',
  'outputs.tf': 'output "id" { value = null_resource.network.id }\n',
  'README.md': '# network\n',
  'modules/subnet/main.tf': 'variable "cidr" {}\n',
  'scripts/plan.sh': { content: '#!/bin/sh\nterraform plan\n', mode: 0o755 },
  'files/empty.txt': '',
};
