/**
 * Which paths of a module directory are left out of its archive.
 *
 * Rules, in the order they apply:
 * - `.git` (directory, or the file a submodule or worktree has) is always
 *   skipped: history is not part of a module version, and it would make the
 *   bytes depend on the checkout.
 * - `.terraform/` directories are always skipped: they are Terraform's local
 *   working state (provider plugin caches, downloaded modules, state of
 *   `terraform init`), often hundreds of MB of platform-specific binaries.
 * - then `.terraformignore` at the module root, gitignore syntax, as Terraform
 *   reads it. The file itself is packed unless it ignores itself, as Terraform
 *   does. Only the root file is read; Terraform reads no nested ones either.
 *   Matching is case-sensitive everywhere (the `ignore` package defaults to
 *   case-insensitive), so macOS and Linux pack the same files.
 * A `.terraformignore` negation cannot bring back `.git` or `.terraform`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Ignore from 'ignore';
import { ConvergeError } from '../errors.ts';
import { readRegularFile } from '../manifest/regular-file.ts';

export const IGNORE_FILE = '.terraformignore';
/** Far above any real ignore file; a bound known before the file is read. */
const MAX_IGNORE_BYTES = 1024 * 1024;

export interface ModuleIgnore {
  /** `path` is module-relative with `/` separators, no leading `./`. */
  skips(path: string, isDirectory: boolean): boolean;
}

/**
 * The `ignore` package is loaded on the first module directory listed, not by every command that
 * loads the providers (the module kinds reach this file through ./module-source.ts).
 */
let ignore: typeof Ignore | undefined;

const ALWAYS_SKIPPED = new Set(['.git']);
const ALWAYS_SKIPPED_DIRECTORIES = new Set(['.terraform']);

/** `shown` is how messages name `dir`. */
export function loadModuleIgnore(dir: string, shown = dir): ModuleIgnore {
  ignore ??= createRequire(import.meta.url)('ignore') as typeof Ignore;
  const rules = ignore({ ignorecase: false });
  const text = readIgnoreFile(join(dir, IGNORE_FILE), join(shown, IGNORE_FILE));
  if (text !== undefined) rules.add(text);
  return {
    skips(path, isDirectory) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (ALWAYS_SKIPPED.has(name)) return true;
      if (isDirectory && ALWAYS_SKIPPED_DIRECTORIES.has(name)) return true;
      // a trailing slash is how gitignore patterns such as `build/` recognise a directory
      return rules.ignores(isDirectory ? `${path}/` : path);
    },
  };
}

/**
 * Only a regular file, not a link (converge packs no links): a FIFO would
 * hang the run and a link to /dev/zero would read without end.
 */
function readIgnoreFile(file: string, shown: string): string | undefined {
  const read = readRegularFile(file, {
    maxBytes: MAX_IGNORE_BYTES,
    tooLarge: (size) => `it holds ${size} bytes; converge reads at most ${MAX_IGNORE_BYTES}`,
    noFollow: true,
  });
  if ('bytes' in read) return read.bytes.toString('utf8');
  if (read.code === 'ENOENT') return undefined;
  throw new ConvergeError('INPUT_INVALID', `${shown}: ${read.error}`, {
    hint: `make ${IGNORE_FILE} a regular file, or remove it`,
  });
}
