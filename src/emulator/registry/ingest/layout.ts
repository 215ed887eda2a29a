/**
 * Where things are in a module archive, by the registry's conventions: the
 * module's configuration at the archive's root, one submodule per directory
 * `modules/<name>/` holding configuration files directly, a README.md beside
 * each, and Terraform test files (`*.tftest.hcl`) anywhere. Nested
 * directories such as `examples/` or a stray `.terraform/` are not modules.
 */
import { compare } from './declarations.ts';
import { IngestError } from './errors.ts';

export interface ModuleDirectory {
  /** '' for the root, `modules/<name>` for a submodule. */
  path: string;
  configFiles: string[];
  /** The README's path, if the directory has one. */
  readme: string | undefined;
}

export interface ModuleLayout {
  root: ModuleDirectory;
  submodules: ModuleDirectory[];
  tests: string[];
}

export const isConfigFile = (path: string): boolean => path.endsWith('.tf') || path.endsWith('.tf.json');

const directoryOf = (path: string): string => path.split('/').slice(0, -1).join('/');
const baseName = (path: string): string => path.split('/').at(-1) ?? path;

/** `paths` are the archive's files; the root must hold configuration. */
export function moduleLayout(paths: string[]): ModuleLayout {
  const sorted = [...paths].sort(compare);
  const byDirectory = new Map<string, string[]>();
  for (const path of sorted) {
    const directory = directoryOf(path);
    byDirectory.set(directory, [...(byDirectory.get(directory) ?? []), path]);
  }
  const directory = (path: string): ModuleDirectory => {
    const files = byDirectory.get(path) ?? [];
    return { path, configFiles: files.filter(isConfigFile), readme: readmeOf(files) };
  };

  const root = directory('');
  if (root.configFiles.length === 0) throw notAtRoot(sorted);
  const submodules = [...byDirectory.keys()]
    .filter((path) => /^modules\/[^/]+$/.test(path))
    .map(directory)
    .filter((part) => part.configFiles.length > 0);
  return { root, submodules, tests: sorted.filter((path) => path.endsWith('.tftest.hcl')) };
}

/** README.md, or the same name in another case (readme.md) as some authors write it. */
function readmeOf(files: string[]): string | undefined {
  return (
    files.find((path) => baseName(path) === 'README.md') ??
    files.find((path) => baseName(path).toLowerCase() === 'readme.md')
  );
}

/** The usual mistake is packing the module's directory instead of its contents: say where the files are. */
function notAtRoot(paths: string[]): IngestError {
  const configured = paths.filter(isConfigFile);
  const where = [...new Set(configured.map((path) => `${path.split('/')[0]}/`))];
  const found =
    configured.length === 0
      ? 'the archive holds no .tf file'
      : `there is no .tf file at the root (found some under ${where.slice(0, 3).join(', ')})`;
  return new IngestError(`the module must be at the archive's root: ${found}`, 'layout');
}
