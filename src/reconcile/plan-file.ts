/**
 * Saved plans (`plan --out FILE`, `apply FILE`). A saved plan is a record of
 * what was reviewed, never a program: `apply FILE` plans again from the same
 * manifests against the live state, and runs only if every action it would
 * take is the one the file shows (docs/security.md, "Saved plans"). So an
 * edited file can never make converge delete, send or change anything the
 * manifests and ownership rules would not, and the counts shown are always
 * computed. A plan file holds no secret value: write-only fields are markers,
 * the manifests are re-read at apply time for their values, and what the plan
 * was made with (configuration, every field's value, live objects) is kept as
 * keyed digests (./plan-digests.ts), checked by ./plan-verify.ts.
 */
import { ConvergeError } from '../errors.ts';
import { isPlainObject } from './equal.ts';
import type { Json, Plan } from './types.ts';

export const PLAN_FORMAT = 'converge-plan';
/**
 * 3: the configuration's content, every field of the desired objects (secrets and file content
 * as keyed digests) and of the touched live objects, and an integrity digest over the whole file.
 * Older files are refused.
 */
export const PLAN_VERSION = 3;

export interface SavedPlanOptions {
  prune: boolean;
  targets: string[];
  selectors: Record<string, string>;
  resendSecrets: boolean;
}

/** How the plan's digests are keyed. The key is never in the file, nor is what it came from. */
export interface PlanKeyRecord {
  /** `plan-key`: CONVERGE_PLAN_KEY; `tokens`: the tokens of the APIs the plan reads. */
  from: 'plan-key' | 'tokens';
  salt: string;
  /** A keyed digest of a fixed text: tells a file made with another key from an edited one. */
  check: string;
}

/** Keyed digests by name: of a configuration's sections, or of an object's fields. */
export type Digests = Record<string, string>;

export interface SavedPlan {
  format: typeof PLAN_FORMAT;
  version: typeof PLAN_VERSION;
  createdAt: string;
  converge: string;
  /** Absolute paths of the manifests the plan was made from. */
  manifests: string[];
  /** The configuration used: its file, if any, and its effective content (tokens left out). */
  config: { file?: string; digests: Digests };
  options: SavedPlanOptions;
  /** The server of each API the plan reads, as origin and path (no credentials). */
  servers: Record<string, string>;
  key: PlanKeyRecord;
  /** Every field of every object planned, values read from files and variables included, by object key. */
  desired: Record<string, Digests>;
  /** The fields of each touched live object; null where it did not exist. */
  live: Record<string, Digests | null>;
  plan: Plan;
  /** A keyed digest of everything above: tells an edited file. */
  integrity: string;
}

/** A server URL as a plan records and compares it: no user, password, query or trailing slash. */
export function serverIdentity(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

/**
 * The text of a file given to `apply` as a saved plan: a plan, or a clear
 * refusal. Undefined when the file is a manifest (JSON with a `kind`).
 */
export function parseSavedPlan(
  file: string,
  text: string,
  options: { otherName?: boolean } = {},
): SavedPlan | undefined {
  const refuse = (why: string) =>
    new ConvergeError('PLAN_INVALID', `${file}: ${why}; nothing was sent`, {
      hint: 'make the plan again with `converge plan MANIFESTS --out FILE`, or pass the manifests to apply',
    });
  // a file not named .json is a saved plan only when its content says so: else it is a manifest
  if (options.otherName && !text.trimStart().startsWith('{')) return undefined;
  if (text.trim() === '') throw refuse('the file is empty, not a saved plan');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    if (options.otherName) return undefined;
    throw refuse(`not a saved plan: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed as Json)) throw refuse('not a saved plan (not a JSON object)');
  const record = parsed as Record<string, Json>;
  if (record.format !== PLAN_FORMAT) {
    if (typeof record.kind === 'string' || options.otherName) return undefined;
    throw refuse(`not a saved plan (no "format": "${PLAN_FORMAT}")`);
  }
  if (record.version !== PLAN_VERSION) {
    throw new ConvergeError('PLAN_INVALID', `${file}: plan format version ${String(record.version)} is not supported`, {
      hint: `this converge reads version ${PLAN_VERSION}; make the plan again`,
    });
  }
  const problems = shapeProblems(record);
  if (problems.length > 0) throw refuse(`not a well-formed saved plan (${problems.join('; ')})`);
  return parsed as SavedPlan;
}

function shapeProblems(record: Record<string, Json>): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const options = record.options;
  need(Array.isArray(record.manifests) && record.manifests.every((m) => typeof m === 'string'), 'manifests');
  const config = record.config;
  need(
    isPlainObject(config) &&
      (config.file === undefined || typeof config.file === 'string') &&
      isDigests(config.digests),
    'config',
  );
  need(
    isPlainObject(options) &&
      typeof options.prune === 'boolean' &&
      typeof options.resendSecrets === 'boolean' &&
      Array.isArray(options.targets) &&
      options.targets.every((t) => typeof t === 'string') &&
      isPlainObject(options.selectors) &&
      Object.values(options.selectors).every((v) => typeof v === 'string'),
    'options',
  );
  need(isPlainObject(record.servers) && Object.values(record.servers).every((v) => typeof v === 'string'), 'servers');
  const key = record.key;
  need(
    isPlainObject(key) &&
      (key.from === 'plan-key' || key.from === 'tokens') &&
      typeof key.salt === 'string' &&
      typeof key.check === 'string',
    'key',
  );
  need(isPlainObject(record.desired) && Object.values(record.desired).every(isDigests), 'desired');
  need(isPlainObject(record.live) && Object.values(record.live).every((d) => d === null || isDigests(d)), 'live');
  const plan = record.plan;
  need(isPlainObject(plan) && Array.isArray(plan.actions) && plan.actions.every(isActionShape), 'plan.actions');
  need(typeof record.integrity === 'string', 'integrity');
  return problems;
}

function isDigests(value: Json | undefined): boolean {
  return (
    isPlainObject(value ?? null) && Object.values(value as Record<string, Json>).every((d) => typeof d === 'string')
  );
}

function isActionShape(value: Json): boolean {
  return (
    isPlainObject(value) &&
    typeof value.key === 'string' &&
    typeof value.action === 'string' &&
    Array.isArray(value.changes) &&
    Array.isArray(value.dependsOn)
  );
}
