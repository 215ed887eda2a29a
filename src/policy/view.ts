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
  // metadata holds strings only (names, scopes, labels): nothing to convert, and rules never change it
  const view = { kind: desired.kind, metadata: desired.metadata as Record<string, unknown> } as CelObject;
  return withLazySpec(view, () => (desired.ensure === 'present' ? canonical(desired.spec, provider) : desired.spec));
}

function withLazySpec(view: CelObject, spec: () => Fields): CelObject {
  Object.defineProperty(view, 'spec', {
    enumerable: true,
    configurable: true,
    get() {
      const value = celValue(spec());
      Object.defineProperty(view, 'spec', { value, enumerable: true });
      return value;
    },
  });
  return view;
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

/** JSON data as CEL values: whole numbers as `int` (bigint), others unchanged. A copy: the input is never changed. */
export function celValue(value: Json | undefined): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = celValue(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  // defineProperty: a `__proto__` key stays a key
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: celValue(value[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
