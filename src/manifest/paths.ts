/**
 * Dotted paths name values inside a document: `spec.api-rate-limit`,
 * `metadata.name`, `spec.versions.0.version`; the root is ''.
 */

export function joinPath(parent: string, key: string | number): string {
  return parent === '' ? String(key) : `${parent}.${key}`;
}

export function parentPath(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? '' : path.slice(0, dot);
}

/** ajv's JSON pointer (`/spec/a~1b`) as a dotted path (`spec.a/b`). */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

/** The top-level spec key a path lies under (`spec.versions.0` -> `versions`), if any. */
export function specKey(path: string): string | undefined {
  if (!path.startsWith('spec.')) return undefined;
  const rest = path.slice('spec.'.length);
  const dot = rest.indexOf('.');
  return dot === -1 ? rest : rest.slice(0, dot);
}
