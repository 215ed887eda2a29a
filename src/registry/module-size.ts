/**
 * How large a module version may be, known before anything is read or sent
 * (docs/kinds.md, "RegistryModule"): the registry takes an archive of at most
 * MAX_MODULE_BYTES in one upload, and a version whose upload is refused is
 * left without content for good. So a module directory whose files, by their
 * sizes on disk, hold more is refused at validate, naming its largest file;
 * so is a ready archive larger than that. Packing reads no more than the
 * sizes listed (./tar-stream.ts), which also bounds the memory a plan needs.
 */
import { ConvergeError } from '../errors.ts';
import type { ModuleFile } from './list-module-files.ts';

/** The registry's upload limit for one archive (the emulator's too). */
export const MAX_MODULE_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;
const HINT = 'list what the module does not need in .terraformignore (or keep large files out of the module)';

/** Refuses a directory whose files hold more than one upload takes. */
export function checkModuleSize(dir: string, files: readonly ModuleFile[]): void {
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total <= MAX_MODULE_BYTES) return;
  const largest = files.reduce((a, b) => (b.size > a.size ? b : a));
  throw new ConvergeError(
    'INPUT_INVALID',
    `${dir}: its files hold ${mib(total)}, more than a module version may (${mib(MAX_MODULE_BYTES)}, what the registry takes in one upload); the largest is ${largest.path} (${mib(largest.size)})`,
    { hint: HINT },
  );
}

/** Refuses a ready archive, or a packed one, larger than one upload takes. */
export function checkArchiveSize(file: string, size: number): void {
  if (size <= MAX_MODULE_BYTES) return;
  throw new ConvergeError(
    'INPUT_INVALID',
    `${file}: the archive holds ${mib(size)}, more than a module version may (${mib(MAX_MODULE_BYTES)}, what the registry takes in one upload)`,
    { hint: HINT },
  );
}

function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}
