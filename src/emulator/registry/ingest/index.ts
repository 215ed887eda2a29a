/**
 * What the emulated registry learns from a private module version's archive
 * when it is uploaded (../uploads.ts): the archive is read in memory (archive.ts), its layout
 * found (layout.ts), each module directory's configuration parsed with
 * hcl2json (parse-config.ts) and described (module-part.ts). Anything wrong
 * with the upload raises IngestError, whose message becomes the version's
 * `reg_ingress_failed` reason (../ingest-version.ts).
 */
import { readArchive } from './archive.ts';
import type { ConfigFile } from './declarations.ts';
import { IngestError } from './errors.ts';
import { type ModuleDirectory, moduleLayout } from './layout.ts';
import { describeModulePart } from './module-part.ts';
import type { IngestedModule, ModulePart } from './module-shape.ts';
import { parseConfigFile } from './parse-config.ts';

export { IngestError, type IngestStage } from './errors.ts';
export type { IngestedModule, ModuleCall, ModuleOutput, ModulePart, ModuleVariable } from './module-shape.ts';

export async function ingestModule(archive: Buffer): Promise<IngestedModule> {
  const files = await readArchive(archive);
  const layout = moduleLayout([...files.keys()]);
  const describe = (directory: ModuleDirectory) => describeDirectory(directory, files);
  const root = await describe(layout.root);
  const submodules: ModulePart[] = [];
  for (const directory of layout.submodules) submodules.push(await describe(directory));
  const providers = new Set([root, ...submodules].flatMap((part) => part.providers.map((provider) => provider.name)));
  return {
    root,
    submodules,
    providers: [...providers].sort(),
    files: [...files.keys()].sort(),
    tests: layout.tests.map((path) => ({ path, text: lenientText(files.get(path)!) })),
  };
}

async function describeDirectory(directory: ModuleDirectory, files: Map<string, Buffer>): Promise<ModulePart> {
  // One at a time: hcl2json's WASM runs on this thread anyway, so nothing is gained in parallel.
  const configs: ConfigFile[] = [];
  for (const path of directory.configFiles) {
    configs.push({ path, body: await parseConfigFile(path, configText(path, files.get(path)!)) });
  }
  const readme = directory.readme === undefined ? '' : lenientText(files.get(directory.readme)!);
  return describeModulePart(directory.path, configs, readme);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** Terraform refuses configuration that is not UTF-8; say so instead of parsing mojibake. */
function configText(path: string, bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new IngestError(`${path}: the file is not UTF-8 text`, 'config');
  }
}

/** READMEs and tests are shown or handed on, not interpreted here: a bad byte becomes U+FFFD. */
const lenientText = (bytes: Buffer): string => lenientUtf8.decode(bytes);
