/**
 * The canonical forms of a kind, from a table of the fields it manages. Every
 * provider of this family is configured by such a table, so defaults,
 * normalization, write-only handling, wire forms and export are written once.
 *
 * The rule that makes `apply` then `plan` a no-op: the desired side and the
 * live side go through the same normalizer per field and the same cross-field
 * rule, and export emits values that the desired side reads back equal.
 */
import type { Fields, Json } from '../../reconcile/types.ts';
import type { Normalizer } from './normalize.ts';

export interface FieldRule {
  /** The documented default, applied when the spec leaves the field out. Only where the spec gives one. */
  default?: Json;
  normalize?: Normalizer;
  /** The form sent to the API, when it differs from the canonical one; `written` is the spec's own value. */
  wire?: (canonical: Json, written: Json | undefined) => Json;
  /** The form written into an exported manifest, when friendlier than the canonical one. */
  export?: (canonical: Json) => Json;
  /** A deprecated alias of another field: exported only when the two differ. */
  aliasOf?: string;
  /** The API never returns it: kept on the desired side (the engine decides when to send it), never on the live side. */
  writeOnly?: boolean;
  /** A write-only trigger, not configuration: nothing to export. */
  trigger?: boolean;
}

export interface FieldsConfig {
  /** Every field the kind manages, write-only ones included. Read-only attributes are left out. */
  fields: Readonly<Record<string, FieldRule>>;
  /** A rule across fields (deprecated-reason is null unless deprecated), applied to both sides. */
  finish?: (fields: Fields) => Fields;
}

export interface CanonicalForms {
  readonly writeOnly: readonly string[];
  /** The write-only fields that are configuration: export writes them as placeholders. */
  readonly exportedWriteOnly: readonly string[];
  /** Defaults overlaid with the spec, every value normalized. */
  desired(spec: Fields): Fields;
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
}

export function canonicalForms(config: FieldsConfig): CanonicalForms {
  const rules = Object.entries(config.fields);
  const writeOnly = rules.filter(([, rule]) => rule.writeOnly).map(([key]) => key);
  const exportedWriteOnly = rules.filter(([, rule]) => rule.writeOnly && !rule.trigger).map(([key]) => key);
  const hidden = new Set(writeOnly);
  const finish = config.finish ?? ((fields: Fields) => fields);

  const normalized = (source: Fields, keys: readonly string[]): Fields => {
    const out: Fields = {};
    for (const key of keys) {
      const value = source[key];
      if (value === undefined) continue;
      const normalize = config.fields[key]?.normalize;
      out[key] = normalize ? normalize(value) : value;
    }
    return out;
  };
  const managed = rules.map(([key]) => key);
  const readableKeys = managed.filter((key) => !hidden.has(key));

  const live = (attributes: Fields) => finish(normalized(attributes, readableKeys));
  const present = (field: string, value: Json): Json => {
    const format = config.fields[field]?.export;
    return format ? format(value) : value;
  };

  return {
    writeOnly,
    exportedWriteOnly,
    desired(spec) {
      const withDefaults: Fields = {};
      for (const [key, rule] of rules) {
        if (rule.default === undefined) continue;
        // a deprecated alias written instead of its successor sets the successor: the default would contradict it
        const aliased = rules.some(([alias, other]) => other.aliasOf === key && spec[alias] !== undefined);
        if (!aliased) withDefaults[key] = rule.default;
      }
      return finish(normalized({ ...withDefaults, ...spec }, managed));
    },
    live,
    wire(fields, written) {
      const out: Fields = {};
      for (const [key, value] of Object.entries(fields)) {
        const toWire = config.fields[key]?.wire;
        out[key] = toWire ? toWire(value, written[key]) : value;
      }
      return out;
    },
    exportSpec(attributes) {
      const canonical = live(attributes);
      const out: Fields = {};
      for (const [key, value] of Object.entries(canonical)) {
        const rule = config.fields[key];
        if (rule?.aliasOf !== undefined && value === canonical[rule.aliasOf]) continue;
        // null without a documented default is "not set": left out, it is not managed, where
        // writing it would fail the kind's schema (`host: null` of an unconfigured SMTP)
        if (value === null && rule?.default === undefined) continue;
        out[key] = present(key, value);
      }
      return out;
    },
    present,
    readable(attributes) {
      const out: Fields = {};
      for (const [key, value] of Object.entries(attributes)) if (!hidden.has(key)) out[key] = value;
      return out;
    },
  };
}
