/**
 * Attribute checks shared by the API modules. Each returns the Rails-style
 * message (completed with the humanized attribute name by `invalid`), or
 * undefined when the value is fine; `attributeProblems` runs them over a
 * request's attributes against a table of what each attribute accepts.
 */
import type { Attributes, Json, Problem } from './jsonapi.ts';

export type Check = (value: Json) => string | undefined;

export type ValueKind = 'boolean' | 'integer' | 'string';

/** What one attribute of a request document accepts. */
export interface AttributeSpec {
  kind: ValueKind;
  /** Whether null is accepted (it clears the attribute). */
  nullable?: boolean;
  /** Returned, never accepted: sending it is a 422. */
  readOnly?: boolean;
  checks?: readonly Check[];
}

/** Unknown, read-only and mistyped attributes, and failed checks: every one reported. */
export function attributeProblems(changes: Attributes, specs: Readonly<Record<string, AttributeSpec>>): Problem[] {
  const problems: Problem[] = [];
  for (const [attribute, value] of Object.entries(changes)) {
    // own keys only: an attribute named `constructor` is unknown, not Object's
    const spec = Object.hasOwn(specs, attribute) ? specs[attribute] : undefined;
    for (const message of messages(spec, value)) problems.push({ attribute, message });
  }
  return problems;
}

/** What is wrong with one attribute: it is unknown or read-only, has the wrong type, or fails checks. */
function messages(spec: AttributeSpec | undefined, value: Json): string[] {
  if (!spec) return ['is not a known attribute'];
  if (spec.readOnly) return ['is read-only'];
  const typeProblem = typeMessage(spec.kind, value, spec.nullable === true);
  if (typeProblem) return [typeProblem];
  return (spec.checks ?? []).map((check) => check(value)).filter((message) => message !== undefined);
}

/** The JSON type check; a string where a boolean is wanted is wrong, as the platform's typed params are. */
function typeMessage(kind: ValueKind, value: Json, nullable: boolean): string | undefined {
  if (value === null) return nullable ? undefined : "can't be null";
  if (kind === 'boolean') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (kind === 'integer') return Number.isInteger(value) ? undefined : 'must be an integer';
  return typeof value === 'string' ? undefined : 'must be a string';
}

export const atLeast =
  (minimum: number): Check =>
  (value) =>
    typeof value === 'number' && value < minimum ? `must be greater than or equal to ${minimum}` : undefined;

export const between =
  (minimum: number, maximum: number): Check =>
  (value) =>
    typeof value === 'number' && (value < minimum || value > maximum)
      ? `must be between ${minimum} and ${maximum}`
      : undefined;

export const oneOf =
  (...allowed: string[]): Check =>
  (value) =>
    typeof value === 'string' && !allowed.includes(value)
      ? `is not included in the list (${allowed.join(', ')})`
      : undefined;

/** A decimal number plus a unit suffix (the site-admin API, general settings): `2h`, `90m`, `1.5h`, `45s`. */
export const duration: Check = (value) => {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)$/.exec(value);
  if (!match) return 'must be a decimal number with a unit suffix (ms, s, m, h), for example 2h';
  return Number(match[1]) > 0 ? undefined : 'must be longer than zero';
};

export const httpsUrl: Check = (value) => {
  if (typeof value !== 'string' || value === '') return undefined;
  return parsedUrl(value)?.protocol === 'https:' ? undefined : 'must be a valid HTTPS URL';
};

export const httpUrl: Check = (value) => {
  if (typeof value !== 'string') return undefined;
  const protocol = parsedUrl(value)?.protocol;
  return protocol === 'https:' || protocol === 'http:' ? undefined : 'must be a valid HTTP or HTTPS URL';
};

/** One PEM `CERTIFICATE` block with base64 content (the DER inside is not parsed). */
export const pemCertificate: Check = (value) => {
  if (typeof value !== 'string' || value === '') return undefined;
  const match = /^-----BEGIN CERTIFICATE-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END CERTIFICATE-----$/.exec(value.trim());
  const body = match?.[1]?.replace(/\s+/g, '') ?? '';
  const base64 = body.length > 0 && body.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(body);
  return base64 ? undefined : 'must be a PEM-encoded X.509 certificate';
};

/** The content of a service-account JSON key: a JSON object. */
export const jsonObject: Check = (value) => {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return undefined;
  } catch {
    // reported below
  }
  return 'must be the content of a JSON key file';
};

export const emailAddress: Check = (value) =>
  typeof value === 'string' && value !== '' && !/^[^\s@]+@[^\s@]+$/.test(value) ? 'is not an email address' : undefined;

export const sha256: Check = (value) =>
  typeof value === 'string' && !/^[0-9a-fA-F]{64}$/.test(value)
    ? 'must be a SHA-256 checksum (64 hexadecimal digits)'
    : undefined;

/** `N.N.N` or `N.N.N-bundleName` (the site-admin API, tool versions). */
export const semver: Check = (value) =>
  typeof value === 'string' && !/^\d+\.\d+\.\d+(-[0-9A-Za-z][0-9A-Za-z.-]*)?$/.test(value)
    ? 'must be a semantic version (N.N.N or N.N.N-name)'
    : undefined;

/** Empty strings and null both mean "not set". */
export function present(value: Json | undefined): boolean {
  return value !== undefined && value !== null && value !== '';
}

function parsedUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.hostname === '' ? undefined : url;
  } catch {
    return undefined;
  }
}
