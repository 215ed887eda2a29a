/**
 * Field rules by value type, so that a kind's table reads like the spec's
 * attribute table: `'plan-timeout': stringDuration('2h')`.
 */
import { durationLimitProblem } from '../../manifest/duration.ts';
import type { Json } from '../../reconcile/types.ts';
import type { FieldCondition, FieldRule } from './fields.ts';
import * as normalize from './normalize.ts';

const withDefault = (rule: FieldRule, value: Json | undefined): FieldRule =>
  value === undefined ? rule : { ...rule, default: value };

export const flag = (value?: boolean): FieldRule => withDefault({ normalize: normalize.boolean }, value);

export const integer = (value?: number): FieldRule => withDefault({ normalize: normalize.integer }, value);

export const text = (value?: string): FieldRule => withDefault({}, value);

/** A string or null, where an empty string means null. */
export const optionalText = (value?: string | null): FieldRule =>
  withDefault({ normalize: normalize.nullIfEmpty }, value);

/** What every duration row shares: compared in seconds, refused past the longest converge keeps. */
const duration: FieldRule = { normalize: normalize.duration, check: durationLimitProblem };

/** A duration the API keeps as a string (`2h`): compared in seconds, sent as the user wrote it. */
export const stringDuration = (value?: string): FieldRule =>
  withDefault(
    {
      ...duration,
      wire: normalize.durationString,
      export: (seconds) => (typeof seconds === 'number' ? normalize.formatDuration(seconds) : seconds),
    },
    value,
  );

/**
 * A duration the API keeps as whole seconds (the secrets engines, SAML's session timeout): a
 * fraction (`1.5s`, `1500ms`) would be refused or cut, and then differ from the manifest in every
 * plan, so it is refused at the field. The message names no value: the field may hold a secret.
 */
const wholeSeconds: FieldRule = {
  ...duration,
  check: (value) => {
    const seconds = normalize.duration(value);
    if (typeof seconds === 'number' && !Number.isInteger(seconds)) {
      return 'must be a whole number of seconds: the API keeps whole seconds';
    }
    return durationLimitProblem(value);
  },
};

/** A duration the API keeps as an integer number of seconds. */
export const secondsDuration = (value?: number): FieldRule => withDefault(wholeSeconds, value);

/** PEM text, compared without its layout: a certificate whose shape the kind's schema checks (SAML's). */
export const pem = (): FieldRule => ({ normalize: normalize.pem });

/**
 * A CA certificate, a readable field: a private key pasted there would be sent, stored and read
 * back in clear (and shown in plans), so only CERTIFICATE blocks are taken. `keyField` is where a
 * client key goes instead.
 */
export const pemCertificate = (value?: string, keyField?: string): FieldRule =>
  withDefault({ normalize: normalize.pem, check: (text) => certificateProblem(text, keyField) }, value);

function certificateProblem(text: Json, keyField: string | undefined): string | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const blocks = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1] ?? '');
  if (blocks.some((label) => label.includes('PRIVATE KEY'))) {
    const elsewhere = keyField ? `; a client key goes in ${keyField}, from \${env:} or \${file:}` : '';
    return `holds a PRIVATE KEY block: it must be the CA certificate only (-----BEGIN CERTIFICATE-----)${elsewhere}`;
  }
  if (blocks.length === 0 || blocks.some((label) => label !== 'CERTIFICATE')) {
    return 'must be a PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)';
  }
  return undefined;
}

export const checksum = (): FieldRule => ({ normalize: normalize.lowerCase });

/**
 * A field that cannot be read back: compared through the fingerprint store only,
 * and a secret a manifest takes from `${env:}` or `${file:}`.
 * `configuration: false` for a trigger the API acts on and does not keep (SMTP's
 * test address): export leaves it out instead of writing a placeholder, and it is
 * no secret. `secret: false` for a value that is public though never read back
 * (a client certificate). `exportedWhen` for a secret only some objects have (see FieldRule);
 * `exported: false` for one export never writes (nobody can read it to supply it).
 */
export const writeOnly = (
  options: { configuration?: boolean; secret?: boolean; exportedWhen?: FieldCondition; exported?: false } = {},
): FieldRule => ({
  writeOnly: true,
  ...(options.configuration === false && { trigger: true }),
  ...(options.secret === false && { sensitive: false }),
  ...(options.exportedWhen && { exportedWhen: options.exportedWhen }),
  ...(options.exported === false && { exportedWhen: never }),
});

const never: FieldCondition = () => false;

/** The live object has the feature turned on: its credentials are configuration to export. */
export const whenEnabled: FieldCondition = (fields) => fields.enabled === true;

/** A set kept as a comma-separated string: compared as a sorted set, sent as one string. */
export const commaSet = (): FieldRule => ({ default: [], normalize: normalize.commaSet, wire: normalize.commaString });

/** A map of strings; none is the empty map. */
export const stringMap = (): FieldRule => ({ default: {}, normalize: normalize.stringMap });

/** A duration the API takes as seconds or a unit string and reads back as integer seconds; shown as `30m`. */
export const seconds = (value: number): FieldRule => ({
  ...wholeSeconds,
  default: value,
  export: (canonical) => (typeof canonical === 'number' ? normalize.formatDuration(canonical) : canonical),
});
