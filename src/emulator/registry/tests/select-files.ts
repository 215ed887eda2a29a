/**
 * Which uploaded files are test files, and which of them the filters select.
 * As `terraform test` does, test files are the `*.tftest.hcl` files directly in
 * the module's root directory and directly in the test directory (not in its
 * subdirectories). They run in path order. A filter names a file by its path
 * (`tests/network.tftest.hcl`); with no filters every test file runs.
 */

export const DEFAULT_TEST_DIRECTORY = 'tests';

/** Paths compared in one spelling: forward slashes, no leading `./`, no trailing `/`. */
export function normalizePath(path: string): string {
  return path
    .replaceAll('\\', '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
}

export function isTestFile(path: string, testDirectory: string): boolean {
  const normalized = normalizePath(path);
  if (!normalized.endsWith('.tftest.hcl')) return false;
  const slash = normalized.lastIndexOf('/');
  const directory = slash === -1 ? '' : normalized.slice(0, slash);
  return directory === '' || directory === normalizePath(testDirectory || DEFAULT_TEST_DIRECTORY);
}

export function isSelected(path: string, filters: readonly string[]): boolean {
  return filters.length === 0 || filters.some((filter) => normalizePath(filter) === normalizePath(path));
}
