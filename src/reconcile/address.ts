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
 * `[...]`, matched as POSIX globs: src/reconcile/name-glob.ts), so `SSHRole/*\/web` is the
 * role `web` in every mount.
 */
export interface AddressPattern {
  kind: string;
  scope?: string;
  name?: string;
}

/**
 * `known` are the scopes a kind is known to have (the declared ones): a
 * scope written with its `/` unencoded (`SSHRole/teams/ssh-prod/web`) is
 * read as the longest known scope the text starts with, unless its first
 * segment is a known scope itself.
 */
export function parseAddressPattern(
  text: string,
  scoped: (kind: string) => boolean | undefined,
  known: (kind: string) => ReadonlySet<string> = () => new Set(),
): AddressPattern {
  const slash = text.indexOf('/');
  const kind = slash < 0 ? text : text.slice(0, slash);
  if (slash < 0) return { kind };
  const rest = text.slice(slash + 1);
  if (!scoped(kind)) return { kind, name: rest };
  const segments = rest.split('/');
  const scopes = known(kind);
  let cut = 1;
  if (!scopes.has(decodeScope(segments[0] ?? ''))) {
    for (let i = segments.length; i > 1; i--) {
      if (scopes.has(decodeScope(segments.slice(0, i).join('/')))) {
        cut = i;
        break;
      }
    }
  }
  const scope = decodeScope(segments.slice(0, cut).join('/'));
  return cut === segments.length ? { kind, scope } : { kind, scope, name: segments.slice(cut).join('/') };
}

/** A pattern's string form: as `--target` takes it, its scope percent-encoded. */
export function formatAddressPattern(pattern: AddressPattern): string {
  return [
    pattern.kind,
    ...(pattern.scope === undefined ? [] : [encodeScope(pattern.scope)]),
    ...(pattern.name === undefined ? [] : [pattern.name]),
  ].join('/');
}

/**
 * Whether a pattern's name can name an object of a kind with this identity:
 * not when it has more segments than the kind's names (a role name holds no
 * `/`), which is what a scope written with its `/` unencoded looks like.
 * Then the pattern that moves the extra segments into the scope (written
 * percent-encoded: `SSHRole/teams%2Fssh-prod/web`) is the one meant.
 */
export function scopeInName(identity: Identity, pattern: AddressPattern): AddressPattern | undefined {
  if (pattern.scope === undefined || pattern.name === undefined || identity.slashInName) return undefined;
  const segments = pattern.name.split('/');
  const longest = Math.max(...identity.name.map((shape) => shape.length));
  if (segments.length <= longest) return undefined;
  const cut = segments.length - longest;
  const scope = [pattern.scope, ...segments.slice(0, cut)].join('/');
  return longest === 0
    ? { kind: pattern.kind, scope }
    : { kind: pattern.kind, scope, name: segments.slice(cut).join('/') };
}

/**
 * The parts of a kind's identity (docs/architecture.md, "Identity parts"):
 * the metadata field that names its scope, and the parts its name is made
 * of, in the order the string form writes them, joined by `/`. A kind whose
 * names come in several shapes (a private module `name/provider`, a public
 * record `registry/namespace/name/provider`, written `public/...`) lists
 * each; a name is read by the shape with as many segments. Only the last
 * part may hold `/`, and only where `slashInName` says so (an LDAP role's
 * hierarchical name): then the last shape takes every segment left.
 */
export interface Identity {
  readonly scope?: string;
  readonly name: readonly (readonly string[])[];
  readonly slashInName?: boolean;
}

/** Identity parts by name: `{organization: 'acme', name: 'network', provider: 'aws'}`. */
export type IdentityParts = Readonly<Record<string, string>>;

/**
 * The identity of a kind whose objects are made under a parent (a module's
 * version, a module's test variable): the parent's parts and one key more.
 */
export function childIdentity(parent: Identity, key: string): Identity {
  return { ...(parent.scope !== undefined && { scope: parent.scope }), name: parent.name.map((s) => [...s, key]) };
}

/** The address made of identity parts: the first shape (longest first) whose parts are all given. */
export function formatIdentity(kind: string, identity: Identity, parts: IdentityParts): Address {
  const shapes = [...identity.name].sort((a, b) => b.length - a.length);
  const shape = shapes.find((s) => s.every((part) => parts[part] !== undefined)) ?? [];
  const scope = identity.scope === undefined ? undefined : parts[identity.scope];
  return { kind, ...(scope !== undefined && { scope }), name: shape.map((part) => parts[part]).join('/') };
}

/** The identity parts of an address: its scope and the segments of its name, by the shape with as many. */
export function parseIdentity(identity: Identity, address: Address): IdentityParts {
  const segments = address.name === '' ? [] : address.name.split('/');
  const shape =
    identity.name.find((s) => s.length === segments.length) ??
    (identity.slashInName ? identity.name.at(-1) : undefined) ??
    [];
  const parts: Record<string, string> = {};
  if (identity.scope !== undefined) parts[identity.scope] = address.scope ?? '';
  shape.forEach((part, i) => {
    parts[part] = i === shape.length - 1 ? segments.slice(i).join('/') : (segments[i] ?? '');
  });
  return parts;
}

/**
 * A child's address, built from its parent's (a module's version, a
 * module's test variable): in the parent's scope, named by the parent's
 * name and the key. The key never holds `/`, so `parentOf` finds the parent
 * again.
 */
export function childAddress(parent: Address, kind: string, key: string): Address {
  const name = parent.name === '' ? key : `${parent.name}/${key}`;
  return { kind, ...(parent.scope !== undefined && { scope: parent.scope }), name };
}

/** The parent (of kind `kind`) a child address was built from: `childAddress`'s inverse. */
export function parentOf(child: Address, kind: string): Address {
  const slash = child.name.lastIndexOf('/');
  return {
    kind,
    ...(child.scope !== undefined && { scope: child.scope }),
    name: child.name.slice(0, Math.max(slash, 0)),
  };
}

/** The key a child address was built with. */
export function keyOf(child: Address): string {
  return child.name.slice(child.name.lastIndexOf('/') + 1);
}

/**
 * What one list call covers: a scope (every object of the kind in it), or
 * the children of one parent (a module's test variables, listed per module).
 * A typed prefix of the addresses it lists; `unitKey` tells units apart.
 */
export type ListUnit = { scope?: string; parent?: undefined } | { scope?: string; parent: Address };

export function scopeUnit(scope: string | undefined): ListUnit {
  return scope === undefined ? {} : { scope };
}

export function unitKey(unit: ListUnit): string {
  return unit.parent ? addressKey(unit.parent) : encodeScope(unit.scope ?? '');
}

/** The kind of an address key: a fingerprint store entry's, to know its API. */
export function kindOfKey(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? key : key.slice(0, slash);
}
