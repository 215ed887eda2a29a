/**
 * Object addresses: the identity of every object converge handles, as a value
 * with parts (kind, scope, name), and the one string form of it that keys,
 * plans, reports, `--target` and the fingerprint store use.
 *
 * The string form (docs/architecture.md, "Addresses"):
 * - `Kind` for a kind with one object (site settings);
 * - `Kind/name` for a global kind (`ToolVersion/1.6.0`);
 * - `Kind/scope` for a kind with one object per scope (`SSHCertificateAuthority/ssh`);
 * - `Kind/scope/name` for a scoped kind (`SSHRole/ssh/web`,
 *   `LDAPStaticRole/ldap/apps/app1`).
 * The name is everything after the scope, so it may contain `/`; a scope
 * holding `/` or `%` is written percent-encoded (`ldap%2Fprod`), so the
 * first `/` after the kind always ends the scope. Whether a kind has a scope
 * is the kind's to say, so parsing needs it; formatting does not.
 */

export interface Address {
  kind: string;
  /** The organization, mount... of a scoped kind; absent for a global kind. */
  scope?: string;
  /** The name inside the scope; '' for a kind with one object (per scope). */
  name: string;
}

export function addressKey(address: Address): string {
  let key = address.kind;
  if (address.scope !== undefined) key += `/${encodeScope(address.scope)}`;
  if (address.name !== '') key += `/${address.name}`;
  return key;
}

/** The address as a person reads it in a sentence: `SSHRole "web" in ssh`. */
export function describeAddress(address: Address): string {
  const name = address.name === '' ? '' : ` "${address.name}"`;
  const scope = address.scope === undefined ? '' : ` in ${address.scope}`;
  return `${address.kind}${name}${scope}`;
}

export function sameAddress(a: Address, b: Address): boolean {
  return a.kind === b.kind && a.scope === b.scope && a.name === b.name;
}

export function compareAddresses(a: Address, b: Address): number {
  return compare(a.kind, b.kind) || compare(a.scope ?? '', b.scope ?? '') || compare(a.name, b.name);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function encodeScope(scope: string): string {
  return scope.replace(/[%/]/g, (c) => (c === '%' ? '%25' : '%2F'));
}

function decodeScope(text: string): string {
  return text.replace(/%2F/gi, '/').replace(/%25/g, '%');
}

/**
 * A pattern over addresses, as `--target` takes it: `Kind` (every object of
 * the kind), `Kind/scope` (every object in one scope of a scoped kind),
 * `Kind/scope/name` or `Kind/name`. Scope and name may be globs (`*`, `?`,
 * `[...]`, matched by node:path's matchesGlob), so `SSHRole/*\/web` is the
 * role `web` in every mount.
 */
export interface AddressPattern {
  kind: string;
  scope?: string;
  name?: string;
}

export function parseAddressPattern(text: string, scoped: (kind: string) => boolean | undefined): AddressPattern {
  const slash = text.indexOf('/');
  const kind = slash < 0 ? text : text.slice(0, slash);
  if (slash < 0) return { kind };
  const rest = text.slice(slash + 1);
  if (!scoped(kind)) return { kind, name: rest };
  const next = rest.indexOf('/');
  if (next < 0) return { kind, scope: decodeScope(rest) };
  return { kind, scope: decodeScope(rest.slice(0, next)), name: rest.slice(next + 1) };
}
