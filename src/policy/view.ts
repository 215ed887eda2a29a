/**
 * What a rule sees (docs/policies.md, "What a rule sees"): an object as
 * `{kind, metadata, spec}` with the spec in the kind's canonical form (the
 * API's defaults filled in, durations in seconds, comma lists as lists), the
 * form the plan compares, so `object` and `live` compare field by field.
 * Whole numbers become CEL `int`, others `double`.
 */
import type { Provider } from '../reconcile/provider.ts';
import type { Address, DesiredObject, Fields, Json, LiveObject } from '../reconcile/types.ts';

export type CelObject = { kind: string; metadata: Record<string, unknown>; spec: Record<string, unknown> };

/**
 * A desired object, its spec canonical; as written where the provider cannot normalise it. The
 * spec is worked out when a rule first reads it: a rule over names and labels never pays for it.
 */
export function objectView(desired: DesiredObject, provider: Provider | undefined): CelObject {
  const viewer = objectViewer();
  viewer.show(desired, provider);
  return viewer.view;
}

/**
 * One view shown each of many objects in turn (`show`), for a check that runs rules over one
 * object at a time. The view is a plain object whose `spec` is an accessor of the literal: CEL
 * reads it as a map, and every view keeps one shape, which keeps the evaluator's property reads
 * fast (docs/policies.md, "Cost").
 */
export function objectViewer(): {
  view: CelObject;
  show(desired: DesiredObject, provider: Provider | undefined): void;
} {
  let desired: DesiredObject | undefined;
  let provider: Provider | undefined;
  let spec: Record<string, unknown> | undefined;
  const view: CelObject = {
    kind: '',
    metadata: {},
    get spec() {
      spec ??= specOf(desired as DesiredObject, provider);
      return spec;
    },
  };
  return {
    view,
    show(next, nextProvider) {
      desired = next;
      provider = nextProvider;
      spec = undefined;
      view.kind = next.kind;
      // metadata holds strings only (names, scopes, labels): nothing to convert, and rules never change it
      view.metadata = next.metadata as Record<string, unknown>;
    },
  };
}

function specOf(desired: DesiredObject, provider: Provider | undefined): Record<string, unknown> {
  return celValue(desired.ensure === 'present' ? canonical(desired.spec, provider) : desired.spec) as Record<
    string,
    unknown
  >;
}

/** An object written as in a manifest (a policy test's example), seen as a declared one. */
export function manifestView(
  kind: string,
  metadata: Record<string, unknown> | undefined,
  spec: Record<string, unknown> | undefined,
  provider: Provider | undefined,
): CelObject {
  const fields = canonical((spec ?? {}) as Fields, provider);
  return {
    kind,
    metadata: celValue((metadata ?? {}) as Json) as Record<string, unknown>,
    spec: celValue(fields) as Record<string, unknown>,
  };
}

function canonical(spec: Fields, provider: Provider | undefined): Fields {
  if (!provider) return spec;
  try {
    return provider.canonicalDesired(spec);
  } catch {
    // a spec the provider cannot normalise is the plan's to report; the rule sees it as written
    return spec;
  }
}

/** A live object, or null when there is none (a create). */
export function liveView(live: LiveObject | undefined, provider: Provider | undefined): CelObject | null {
  if (!live) return null;
  let fields: Fields = live.fields ?? {};
  try {
    if (provider && live.fields) fields = provider.canonicalLive(live.fields);
  } catch {
    // as read
  }
  return {
    kind: live.kind,
    metadata: addressMetadata(live.address),
    spec: celValue(fields) as Record<string, unknown>,
  };
}

/** The metadata of an object known only by its address (a prune): its name and scope. */
export function addressMetadata(address: Address): Record<string, unknown> {
  return { name: address.name, ...(address.scope !== undefined && { scope: address.scope }) };
}

/**
 * JSON data as CEL values: whole numbers as `int` (bigint), the rest as it is. Only what holds a
 * whole number is copied (the input is never changed): a string, a list of strings, a map without
 * numbers is the same value in CEL, and most of a spec is such values (docs/policies.md, "Cost").
 */
export function celValue(value: Json | undefined): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const converted = celValue(item);
      if (converted !== item) out ??= value.slice(0, i);
      if (out) out[i] = converted;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = value[key];
    const converted = celValue(item);
    if (converted !== item && !out) {
      out = {};
      for (let j = 0; j < i; j++) setKey(out, keys[j] as string, value[keys[j] as string]);
    }
    if (out) setKey(out, key, converted);
  }
  return out ?? value;
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty for `__proto__` only: assigned, it would set the prototype rather than a key
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
