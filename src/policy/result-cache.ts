/**
 * A rule's results reused across objects and policies (docs/policies.md, "Cost"). CEL is pure:
 * a rule gives the same result for the same values of what it reads. So a rule written the same
 * in several policies runs once per object, whatever the number of policies (the verdict is
 * the rule's; each policy then applies its own enforcement). And a rule that reads only fixed
 * fields of `object` (src/policy/variables.ts, `selections`) runs once per distinct value
 * there: a rule over `object.kind` once per kind, one over labels once per set of labels, one
 * over `object.spec.max_ttl` once per TTL, one over `object.metadata.name` once per name (a name
 * is unique only within its kind and scope: the same role name in every mount, the same version
 * of a tool and of a policy engine). A spec's values are the canonical ones the rule sees. A rule
 * that reads a map only by its keys (`object.spec.all(k, ...)`) runs once per list of keys; for
 * the whole spec of a kind whose canonical keys follow its declared keys, once per kind and list of
 * declared keys, no canonical spec made. A rule that reads a whole spec any other way
 * (`object.spec == {...}`) runs for every object: a key made of a whole spec costs about what the
 * run it would save does (measured in the policies bench).
 */
import type { CompiledRule } from './cel.ts';
import type { CelObject } from './view.ts';

/** What a rule gave for one object: true or false, or why it could not be evaluated. */
export type Verdict = boolean | string;

/** The variables a rule sees for one object, made only when a rule must run. */
export interface VariablesSource {
  variables(): Record<string, unknown>;
  /**
   * A map whose keys stand for those of the spec the rule sees, cheaper to get than that spec:
   * the declared spec (JSON: no key whose value is undefined), when the kind's canonical spec has
   * keys that follow from its keys alone (Provider.canonicalKeysFollowSpec). Absent or undefined:
   * only the spec the rule sees will do.
   */
  specForKeys?(): object | undefined;
}

/** The object a result may be reused by: its kind and metadata, as the rule sees them. */
export interface ObjectKey {
  kind: string;
  metadata: object;
}

/** One rule over many objects: `verdict` runs it, or gives the result it gave for the same values. */
export interface RuleRun {
  verdict(object: ObjectKey, source: VariablesSource): Verdict;
}

/** A run of `rule` (`run` evaluates it) that reuses its results where what it reads is shared. */
export function ruleRun(rule: CompiledRule, run: (variables: Record<string, unknown>) => Verdict): RuleRun {
  // a rule over live or change sees what differs per object
  const paths = rule.uses.has('live') || rule.uses.has('change') ? undefined : rule.objectPaths;
  const keysOnly = new Set(rule.objectKeysOnly);
  if (!paths?.every((path) => reusable(path, keysOnly.has(path)))) {
    return { verdict: (_object, source) => run(source.variables()) };
  }
  const reads = paths.map((path): Read => {
    const steps = path.split('.');
    return { steps, inSpec: steps[0] === 'spec', keysOnly: keysOnly.has(path), keys: new KeysKey() };
  });
  // the key: one path's string value (the usual case: `kind`) as itself, no string made; else the
  // values as one string. Absent, a string and a map are told apart: they are keys of different maps.
  const byValue = new Map<string | undefined, Verdict>();
  const byText = new Map<string, Verdict>();
  const [only] = reads;
  const single = reads.length === 1 && only && !only.inSpec ? only : undefined;
  // objects come in runs that read alike (a kind's objects, most without labels): the last key
  // and its verdict are checked before the maps, which cost a lookup per object (docs/policies.md, "Cost")
  let lastKey: string | undefined | typeof NONE = NONE;
  let lastDirect = false;
  let lastVerdict: Verdict = false;
  return {
    verdict(object, source) {
      const value = single ? valueAt(object, single.steps) : undefined;
      const direct = single !== undefined && (typeof value === 'string' || value === undefined);
      const key = direct
        ? (value as string | undefined)
        : single
          ? readKey(single, value)
          : joinedKey(object, source, reads);
      if (key === lastKey && direct === lastDirect) return lastVerdict;
      const results = direct ? byValue : byText;
      let found = results.get(key as string);
      if (found === undefined) {
        found = run(source.variables());
        results.set(key as string, found);
      }
      // a value and a key made of one may read alike: each is only ever compared with its own kind
      lastKey = key;
      lastDirect = direct;
      lastVerdict = found;
      return found;
    },
  };
}

const NONE = Symbol('none');

interface Read {
  steps: string[];
  /** Read from the spec the rule sees (canonical), not from the object as declared. */
  inSpec: boolean;
  /** Read only as a map's keys (src/policy/variables.ts, `selections`): a map is keyed by its keys alone. */
  keysOnly: boolean;
  /** The key of the last map read by its keys, made again only when the keys differ. */
  keys: KeysKey;
}

/**
 * Whether objects may share what the rule reads at a path: a field of the spec or the metadata,
 * the kind, or the keys of the whole spec or metadata (the keys are short; a whole spec as a key
 * costs about the run it would save).
 */
function reusable(path: string, keysOnly: boolean): boolean {
  if (path === 'kind') return true;
  const [top, field] = path.split('.');
  return (field !== undefined || keysOnly) && (top === 'spec' || top === 'metadata');
}

function valueAt(object: unknown, steps: readonly string[]): unknown {
  let value: unknown = object;
  for (const step of steps) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  }
  return value;
}

/**
 * The values at the paths, as one string: each value's key in turn (one path's key as it is). The
 * keys of the whole spec come from the declared spec where its keys stand for the canonical one's
 * (VariablesSource.specForKeys): no canonical spec is made to learn them. The mapping is the kind's
 * own, so that key names the kind.
 */
function joinedKey(object: ObjectKey, source: VariablesSource, reads: readonly Read[]): string {
  if (reads.length === 1) return readOne(object, source, reads[0] as Read);
  let key = '';
  for (const read of reads) key += `${readOne(object, source, read)};`;
  return key;
}

function readOne(object: ObjectKey, source: VariablesSource, read: Read): string {
  if (!read.inSpec) return readKey(read, valueAt(object, read.steps));
  if (read.keysOnly && read.steps.length === 1) {
    const declared = source.specForKeys?.();
    if (declared) return read.keys.of(declared, object.kind);
  }
  return readKey(read, valueAt(source.variables().object as CelObject, read.steps));
}

/** What a rule sees of the value it reads: a map read only by its keys, the keys in order; else all of it. */
function readKey(read: Read, value: unknown): string {
  if (!read.keysOnly || value === null || typeof value !== 'object' || Array.isArray(value)) return valueKey(value);
  return read.keys.of(value);
}

/**
 * A map's keys in order as a key (`K["a","b"]`; a kind's declared keys `"ToolVersion"K["a"]`, the
 * kind quoted so no kind's name can make it read like another key), the string made again only when
 * they, or the kind, differ from the last map's.
 */
class KeysKey {
  #kind: string | undefined;
  #keys: string[] = [];
  #key = 'K[]';

  of(map: object, kind?: string): string {
    if (kind === this.#kind && sameKeys(map, this.#keys)) return this.#key;
    this.#kind = kind;
    this.#keys = Object.keys(map);
    this.#key = `${kind === undefined ? '' : JSON.stringify(kind)}K${JSON.stringify(this.#keys)}`;
    return this.#key;
  }
}

/** Whether the map's own keys are `keys`, in order (for...in: no array made per map). */
function sameKeys(map: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in map) if (key !== keys[i++] || !Object.hasOwn(map, key)) return false;
  return i === keys.length;
}

/**
 * A value as a string that no other value gives: strings quoted, CEL ints (bigint) marked `n`
 * (a double is never whole: src/policy/view.ts), lists and maps in order, absent as `-`.
 */
function valueKey(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return '-';
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `${value}n`;
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map(valueKey).join(',')}]`;
      const map = value as Record<string, unknown>;
      return `{${Object.keys(map)
        .map((k) => `${JSON.stringify(k)}:${valueKey(map[k])}`)
        .join(',')}}`;
    }
    default:
      return String(value);
  }
}
