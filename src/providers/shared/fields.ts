/**
 * The canonical forms of a kind, from a table of the fields it manages. Every
 * provider is configured by such a table, so defaults, normalization,
 * applicability, write-only handling, wire forms and export are written once.
 *
 * The rule that makes `apply` then `plan` a no-op: the desired side and the
 * live side go through the same normalizer per field, the same applicability
 * and the same cross-field rule, and export emits values that the desired
 * side reads back equal.
 *
 * Keys may be dotted paths (`test-config.tests-enabled`) for APIs that nest
 * attributes: each path is defaulted, normalized and compared on its own.
 */
import type { SpecProblem } from '../../manifest/catalog.ts';
import { deletePath, getPath, isWithin, setPath, withoutPaths } from '../../reconcile/field-paths.ts';
import type { DesiredObject, Fields, Json } from '../../reconcile/types.ts';
import type { Normalizer } from './normalize.ts';

/** A condition over an object's other fields (canonical, defaults applied). */
export type FieldCondition = (fields: Fields) => boolean;

export interface FieldRule {
  /**
   * The documented default, applied when the spec leaves the field out; only
   * where the spec gives one. A function for a default that depends on
   * another field (an SSH role's by `key_type`): undefined for "none".
   */
  default?: Json | ((fields: Fields) => Json | undefined);
  normalize?: Normalizer;
  /**
   * When the field means anything (an SSH role's CA fields for `key_type: ca`):
   * otherwise it is never compared nor sent, and a manifest that sets it gets
   * a plan note saying so, because the API would not keep it.
   */
  appliesWhen?: FieldCondition;
  /** The form sent to the API, when it differs from the canonical one; `written` is the spec's own value. */
  wire?: (canonical: Json, written: Json | undefined) => Json;
  /** The form written into an exported manifest, when friendlier than the canonical one. */
  export?: (canonical: Json) => Json;
  /** A deprecated alias of another field: exported only when the two differ. */
  aliasOf?: string;
  /**
   * The API never returns it: kept on the desired side (the engine decides
   * when to send it), never on the live side. A condition for a field that is
   * secret only for some objects (a test variable's value when `sensitive`).
   */
  writeOnly?: boolean | FieldCondition;
  /** A write-only trigger, not configuration: nothing to export. */
  trigger?: boolean;
  /**
   * The value is a secret, so a manifest takes it from `${env:}` or `${file:}`, never as a literal
   * (refused at the value, before anything is sent). Every write-only field but a trigger is one
   * unless it says `false` (a public certificate); a string names the secret in the refusal
   * (`a private key`).
   */
  sensitive?: boolean | string;
  /**
   * When export writes this write-only field as a `${env:NAME}` placeholder, given the live
   * fields: when the live object has it (a feature's credentials while it is enabled) or the
   * kind requires it. Default: always. A placeholder for a secret the object does not have
   * makes the round trip ask for a value nobody holds.
   */
  exportedWhen?: FieldCondition;
  /**
   * A problem with the value a spec gives, refused at that value before anything is sent: the
   * message follows the field's name (`certificate holds a PRIVATE KEY block: ...`).
   */
  check?: (value: Json) => string | undefined;
  /** The API cannot change it in place: a change replaces the object. */
  immutable?: boolean;
  /** Sent on create only, never compared nor sent again (an import switch). */
  createOnly?: boolean;
  /**
   * The service sets it on create when the manifest leaves it out (a generated CA's public key):
   * converge remembers the value it saw, and a different one later is drift (src/reconcile/remembered.ts).
   */
  remembered?: boolean;
  /**
   * Never written in a manifest (the schema has no such key): its default is what converge always
   * wants, not one a manifest left out, so a change is not labelled `(default)`, whose legend tells
   * the user to write the field or ignore it.
   */
  implied?: boolean;
}

export interface FieldsConfig {
  /** Every field the kind manages, write-only ones included. Read-only attributes are left out. */
  fields: Readonly<Record<string, FieldRule>>;
  /** A rule across fields (deprecated-reason is null unless deprecated), applied to both sides. */
  finish?: (fields: Fields) => Fields;
  /**
   * `finish` decides which fields it returns by which fields it is given, never by their values,
   * and never throws: the table's canonical keys may then still follow its keys (`keysFollowSpecKeys`).
   */
  finishByKeys?: boolean;
}

export interface CanonicalForms {
  /** Every row of the table, by dotted path. */
  readonly paths: readonly string[];
  /** The write-only fields of an object, given its spec or live fields. */
  writeOnly(fields: Fields): readonly string[];
  /** The write-only fields that are configuration: export writes them as placeholders. */
  exportedWriteOnly(fields: Fields): readonly string[];
  /** The write-only fields that are configuration (not triggers): what a deleted object cannot get back. */
  configurationWriteOnly(fields: Fields): readonly string[];
  readonly immutable: readonly string[];
  readonly createOnly: readonly string[];
  readonly remembered: readonly string[];
  /** The rows with a documented default (or one computed from other fields): what a spec may leave out. */
  readonly defaulted: readonly string[];
  /** Defaults overlaid with the spec, every value normalized, inapplicable fields left out. */
  desired(spec: Fields): Fields;
  /**
   * Whether `desired` gives any two specs with the same keys the same keys, whatever their values,
   * and never throws: a flat table whose defaults are values, with no field that applies only
   * sometimes, and no `finish` or one that decides by keys (`finishByKeys`). Its normalizers map
   * values to values and never throw (src/providers/shared/normalize.ts).
   */
  readonly keysFollowSpecKeys: boolean;
  /** The managed, readable live attributes, normalized the same way. */
  live(attributes: Fields): Fields;
  /** Canonical fields as the API wants them sent; `written` is the spec as the user wrote it. */
  wire(fields: Fields, written: Fields): Fields;
  /** A manifest spec whose desired form equals the live form (write-only fields left out). */
  exportSpec(attributes: Fields): Fields;
  /** Live attributes without write-only ones, in case a server echoes them: they must not travel further. */
  readable(attributes: Fields): Fields;
  /** A canonical value as people read it in plans and reports: the export form (`3h`, not 10800). */
  present(field: string, value: Json): Json;
  /** Plan notes for fields the spec sets that do not apply to this object. */
  notes(spec: Fields): string[];
  /**
   * The table's rules over a declared object, each problem at its value: a sensitive value written
   * as a literal instead of `${env:}` or `${file:}`, a secret whose placeholder resolved to empty,
   * a value its rule's check refuses.
   */
  tableProblems(object: DesiredObject): SpecProblem[];
}

export function canonicalForms(config: FieldsConfig): CanonicalForms {
  const rules = Object.entries(config.fields);
  const finish = config.finish ?? ((fields: Fields) => fields);
  const isWriteOnly = (rule: FieldRule, fields: Fields) =>
    typeof rule.writeOnly === 'function' ? rule.writeOnly(fields) : rule.writeOnly === true;
  // most tables say write-only with true or nothing: what depends on it is then worked out once,
  // not for every object (the planner asks for each of thousands of objects, several times)
  const conditional = rules.some(([, rule]) => typeof rule.writeOnly === 'function');
  const alwaysWriteOnly = rules.filter(([, rule]) => rule.writeOnly === true).map(([key]) => key);
  const writeOnly = (fields: Fields): readonly string[] =>
    conditional ? rules.filter(([, rule]) => isWriteOnly(rule, fields)).map(([key]) => key) : alwaysWriteOnly;
  /** The write-only fields of an object whose rule passes `keep`. */
  const writeOnlyWhere =
    (keep: (rule: FieldRule, fields: Fields) => boolean) =>
    (fields: Fields): readonly string[] =>
      writeOnly(fields).filter((key) => keep(config.fields[key] as FieldRule, fields));
  const flagged = (flag: 'immutable' | 'createOnly' | 'remembered') =>
    rules.filter(([, rule]) => rule[flag]).map(([key]) => key);

  const managed = rules.map(([key]) => key);
  // a flat table (no dotted keys) reads and writes plain properties; its values are replaced,
  // never changed inside, so a shallow copy is a safe copy
  const nested = managed.some((key) => key.includes('.'));
  const normalized = (source: Fields, keys: readonly string[]): Fields => {
    const out: Fields = {};
    for (const key of keys) {
      const value = nested ? getPath(source, key) : source[key];
      if (value === undefined) continue;
      const normalize = config.fields[key]?.normalize;
      const canonical = normalize ? normalize(value) : value;
      if (nested) setPath(out, key, canonical);
      else out[key] = canonical;
    }
    return out;
  };
  const conditionalRows = rules.filter(([, rule]) => rule.appliesWhen);
  const inapplicable = (fields: Fields): string[] =>
    conditionalRows.filter(([, rule]) => !rule.appliesWhen?.(fields)).map(([key]) => key);
  /** The deprecated aliases of each field that has any. */
  const aliases = new Map<string, string[]>();
  for (const [alias, rule] of rules) {
    if (rule.aliasOf !== undefined) aliases.set(rule.aliasOf, [...(aliases.get(rule.aliasOf) ?? []), alias]);
  }
  const copy = (fields: Fields): Fields => (nested ? structuredClone(fields) : { ...fields });
  /** Leaves out the fields that do not apply; `fields` is the caller's own copy, which may be changed. */
  const applicable = (fields: Fields): Fields => {
    const drop = inapplicable(fields);
    if (drop.length === 0) return fields;
    if (nested) {
      for (const key of drop) deletePath(fields, key);
      return fields;
    }
    // a copy without them, not `delete`: V8 turns an object that loses properties into a slow dictionary
    const out: Fields = {};
    for (const key in fields) if (!drop.includes(key)) out[key] = fields[key] as Json;
    return out;
  };

  const withDefaults = (spec: Fields): Fields => {
    const out = copy(spec);
    const computed: Array<[string, (fields: Fields) => Json | undefined]> = [];
    for (const [key, rule] of rules) {
      if (rule.default === undefined || getPath(spec, key) !== undefined) continue;
      // a deprecated alias written instead of its successor sets the successor: the default would contradict it
      if (aliases.get(key)?.some((alias) => spec[alias] !== undefined)) continue;
      if (typeof rule.default === 'function') computed.push([key, rule.default]);
      else setPath(out, key, rule.default);
    }
    if (computed.length === 0) return out;
    // defaults that depend on other fields see those fields normalized, their own defaults applied
    const basis = normalized(out, managed);
    for (const [key, compute] of computed) {
      const value = compute(basis);
      if (value !== undefined) setPath(out, key, value);
    }
    return out;
  };

  // a flat table whose defaults are values (most kinds) in one pass, what withDefaults then
  // normalized give without their copies: each row's value, or its default, normalized, in the
  // table's order. `validate` works out every spec a policy reads (docs/policies.md, "Cost").
  const onePass = !nested && rules.every(([, rule]) => typeof rule.default !== 'function');
  const flatCanonical = (spec: Fields): Fields => {
    const out: Fields = {};
    for (const [key, rule] of rules) {
      let value = spec[key];
      if (value === undefined) {
        if (rule.default === undefined || aliases.get(key)?.some((alias) => spec[alias] !== undefined)) continue;
        value = rule.default as Json;
      }
      out[key] = rule.normalize ? rule.normalize(value) : value;
    }
    return out;
  };

  // the planner asks for the desired form and then the notes of the same spec: the defaults are
  // worked out once. Only the last spec is kept: a map of every spec would hold 10,000 canonical
  // forms for the whole run, which the garbage collector then walks (docs/policies.md, "Cost").
  let lastSpec: Fields | undefined;
  let lastCanonical: Fields = {};
  const withDefaultsNormalized = (spec: Fields): Fields => {
    if (spec !== lastSpec) {
      lastCanonical = onePass ? flatCanonical(spec) : normalized(withDefaults(spec), managed);
      lastSpec = spec;
    }
    return lastCanonical;
  };

  const liveKeys = (attributes: Fields) =>
    managed.filter((key) => {
      const rule = config.fields[key]!;
      return !rule.createOnly && !isWriteOnly(rule, attributes);
    });
  const staticLiveKeys = conditional ? undefined : liveKeys({});
  const live = (attributes: Fields) =>
    finish(applicable(normalized(attributes, staticLiveKeys ?? liveKeys(attributes))));
  const present = (field: string, value: Json): Json => {
    const format = config.fields[field]?.export;
    return format ? format(value) : value;
  };

  return {
    paths: managed,
    writeOnly,
    exportedWriteOnly: writeOnlyWhere((rule, fields) => !rule.trigger && (rule.exportedWhen?.(fields) ?? true)),
    configurationWriteOnly: writeOnlyWhere((rule) => !rule.trigger),
    immutable: flagged('immutable'),
    createOnly: flagged('createOnly'),
    remembered: flagged('remembered'),
    defaulted: rules.filter(([, rule]) => rule.default !== undefined && !rule.implied).map(([key]) => key),
    desired: (spec) => finish(applicable(copy(withDefaultsNormalized(spec)))),
    // flatCanonical keeps a row when the spec sets it, or when it has a default and no alias of it
    // is set: both by key; normalizers map values to values (src/providers/shared/normalize.ts)
    keysFollowSpecKeys: onePass && conditionalRows.length === 0 && (!config.finish || config.finishByKeys === true),
    live,
    wire(fields, written) {
      const out = structuredClone(fields);
      for (const [key, rule] of rules) {
        const value = getPath(fields, key);
        if (rule.wire && value !== undefined) setPath(out, key, rule.wire(value, getPath(written, key)));
      }
      return out;
    },
    exportSpec(attributes) {
      const canonical = live(attributes);
      const out: Fields = {};
      for (const [key, rule] of rules) {
        const value = getPath(canonical, key);
        if (value === undefined) continue;
        if (rule.aliasOf !== undefined && value === getPath(canonical, rule.aliasOf)) continue;
        // null without a documented default is "not set": left out, it is not managed, where
        // writing it would fail the kind's schema (`host: null` of an unconfigured SMTP)
        if (value === null && rule.default === undefined) continue;
        setPath(out, key, present(key, value));
      }
      return out;
    },
    present,
    readable(attributes) {
      const hiding = writeOnly(attributes);
      if (hiding.length === 0) return { ...attributes };
      if (nested) return withoutPaths(attributes, hiding);
      const hidden = new Set(hiding);
      const out: Fields = {};
      for (const [key, value] of Object.entries(attributes)) if (!hidden.has(key)) out[key] = value;
      return out;
    },
    tableProblems(object) {
      const secret = writeOnly(object.spec);
      // an empty value from a placeholder is refused: an unset line of `.env.example` sourced as
      // `NAME=` would blank the live secret
      const mustNotBeEmpty = object.ensure === 'absent' ? [] : secret;
      return rules.flatMap(([path, rule]): SpecProblem[] => {
        const value = getPath(object.spec, path);
        if (value === undefined) return [];
        const plain = plainVariableOf(object, path);
        const isSecret = secret.includes(path) && !rule.trigger;
        const secretProblem = plain
          ? plainVariable(rule, isSecret, plain)
          : fromPlaceholder(object, path)
            ? value === '' && mustNotBeEmpty.includes(path) && emptySecret(object, path)
            : literalSecret(rule, isSecret);
        const valueProblem = rule.check?.(value);
        return [secretProblem, valueProblem && `${path} ${valueProblem}`]
          .filter((message) => typeof message === 'string')
          .map((message) => ({ path: `spec.${path}`, message }));
      });
    },
    notes(spec) {
      const canonical = withDefaultsNormalized(spec);
      return inapplicable(canonical)
        .filter((key) => getPath(spec, key) !== undefined)
        .map((key) => `${key} does not apply to this object and is not compared (the API does not keep it)`);
    },
  };
}

/** A sensitive value written into the manifest itself: where it must not be. */
function literalSecret(rule: FieldRule, secret: boolean): string | undefined {
  const sensitive = rule.sensitive ?? secret;
  if (sensitive === false) return undefined;
  const what = typeof sensitive === 'string' ? sensitive : 'a secret';
  return `${what} must not be written into a manifest: use \${env:NAME}, \${file:path} or a sensitive \${var:name}`;
}

/** A sensitive value from a variable that is not declared sensitive: every plan would show it. */
function plainVariable(rule: FieldRule, secret: boolean, name: string): string | undefined {
  const sensitive = rule.sensitive ?? secret;
  if (sensitive === false) return undefined;
  const what = typeof sensitive === 'string' ? sensitive : 'a secret';
  return `${what} must not come from variable "${name}", which is not sensitive (plans show its value): declare it with sensitive: true`;
}

/** The first variable that is not sensitive among those that made the value at a spec path. */
function plainVariableOf(object: DesiredObject, path: string): string | undefined {
  for (const [at, names] of Object.entries(object.plainVariables ?? {})) if (isWithin(path, at)) return names[0];
  return undefined;
}

/**
 * A write-only field whose placeholder resolved to the empty string: sending it would blank the
 * live secret (a `.env.example` sourced with its lines unset), so it is refused at validate.
 */
function emptySecret(object: DesiredObject, path: string): string {
  const from = object.placeholders?.[path]?.join(', ') ?? 'its placeholder';
  return `${from} is empty: an empty secret would blank the live one; set the variable, or leave ${path} out to leave it unmanaged`;
}

/** Whether the value at a spec path came from a placeholder (`${env:}`, `${file:}`, `${var:}`). */
export function fromPlaceholder(object: DesiredObject, path: string): boolean {
  const paths = object.interpolatedPaths ?? object.secretPaths;
  if (paths) return paths.some((made) => isWithin(path, made));
  // an object built without its placeholder paths (by a test) knows its interpolated top-level fields
  return object.secretFields.includes(path.split('.')[0] ?? path);
}
