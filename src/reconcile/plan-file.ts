/**
 * Saved plans (`plan --out FILE`, `apply FILE`). A saved plan is a record of
 * what was reviewed, never a program: `apply FILE` plans again from the same
 * manifests against the live state, and runs only if every action it would
 * take is the one the file shows (docs/security.md, "Saved plans"). So an
 * edited file can never make converge delete, send or change anything the
 * manifests and ownership rules would not, and the counts shown are always
 * computed. A plan file holds no secret value: write-only fields are markers,
 * and the manifests are re-read at apply time for their values.
 */
import { ConvergeError } from '../errors.ts';
import { isPlainObject, jsonEqual } from './equal.ts';
import type { Provider } from './provider.ts';
import { sha256, stableStringify } from './stable-json.ts';
import type { DesiredObject, Fields, Json, LiveObject, Plan, PlannedAction } from './types.ts';

export const PLAN_FORMAT = 'converge-plan';
/** 2: structured addresses, the servers the plan was made against. Version 1 files are refused. */
export const PLAN_VERSION = 2;

export interface SavedPlanOptions {
  prune: boolean;
  targets: string[];
  selectors: Record<string, string>;
  resendSecrets: boolean;
}

export interface SavedPlan {
  format: typeof PLAN_FORMAT;
  version: typeof PLAN_VERSION;
  createdAt: string;
  converge: string;
  /** Absolute paths of the manifests the plan was made from. */
  manifests: string[];
  /** The configuration file used, if any. */
  config?: string;
  options: SavedPlanOptions;
  /** The server of each API the plan reads, as origin and path (no credentials). */
  servers: Record<string, string>;
  /** sha256 over the non-secret canonical desired state. */
  desiredDigest: string;
  /** sha256 of each touched live object's canonical fields; null where it did not exist. */
  live: Record<string, string | null>;
  plan: Plan;
}

export function desiredDigest(desired: Iterable<[string, DesiredObject]>, providers: ReadonlyMap<string, Provider>) {
  const entries = [...desired]
    .map(([key, d]) => {
      const provider = providers.get(d.kind);
      const hidden = new Set([...d.secretFields, ...(provider?.writeOnly(d.spec) ?? [])]);
      const fields = provider ? provider.canonicalDesired(d.spec) : d.spec;
      const visible = Object.fromEntries(Object.entries(fields).filter(([k]) => !hidden.has(k)));
      return [key, d.ensure, visible] as const;
    })
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(stableStringify(entries));
}

export function liveFingerprint(live: LiveObject | undefined, provider: Provider | undefined): string | null {
  if (!live) return null;
  const fields: Fields = live.fields && provider ? provider.canonicalLive(live.fields) : (live.fields ?? {});
  return sha256(stableStringify({ ref: live.ref, fields }));
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
export function parseSavedPlan(file: string, text: string): SavedPlan | undefined {
  const refuse = (why: string) =>
    new ConvergeError('PLAN_INVALID', `${file}: ${why}; nothing was sent`, {
      hint: 'make the plan again with `converge plan MANIFESTS --out FILE`, or pass the manifests to apply',
    });
  if (text.trim() === '') throw refuse('the file is empty, not a saved plan');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw refuse(`not a saved plan: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed as Json)) throw refuse('not a saved plan (not a JSON object)');
  const record = parsed as Record<string, Json>;
  if (record.format !== PLAN_FORMAT) {
    if (typeof record.kind === 'string') return undefined;
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
  need(record.config === undefined || typeof record.config === 'string', 'config');
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
  need(typeof record.desiredDigest === 'string', 'desiredDigest');
  need(isPlainObject(record.live), 'live');
  const plan = record.plan;
  need(isPlainObject(plan) && Array.isArray(plan.actions) && plan.actions.every(isActionShape), 'plan.actions');
  return problems;
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

/**
 * Checks a saved plan against the plan made now from the same manifests and
 * live state; returns the fresh plan to run. Refuses when the manifests or
 * the live objects changed, when the servers differ, or when any action of
 * the file is not exactly what planning gives now (an edited file).
 */
export function verifySavedPlan(saved: SavedPlan, now: VerifyInput): Plan {
  const otherServers = Object.entries(now.servers)
    .filter(([api, url]) => saved.servers[api] !== undefined && saved.servers[api] !== url)
    .map(([api, url]) => `${api}: planned against ${saved.servers[api]}, now ${url}`);
  const missingServers = Object.keys(now.servers).filter((api) => saved.servers[api] === undefined);
  if (otherServers.length > 0 || missingServers.length > 0) {
    throw new ConvergeError(
      'PLAN_STALE',
      `the plan was made against other servers; nothing was sent:\n${[
        ...otherServers,
        ...missingServers.map((api) => `${api}: not in the plan`),
      ]
        .map((l) => `  ${l}`)
        .join('\n')}`,
      { hint: 'make the plan against the servers you apply it to' },
    );
  }
  if (now.desiredDigest !== saved.desiredDigest) {
    throw new ConvergeError('PLAN_STALE', 'the manifests changed since the plan was made; nothing was sent', {
      hint: 'make the plan again',
    });
  }
  const stale = Object.entries(saved.live)
    .filter(([key, fingerprint]) => now.liveFingerprint(key) !== fingerprint)
    .map(([key]) => key);
  if (stale.length > 0) {
    throw new ConvergeError(
      'PLAN_STALE',
      `live state changed since the plan was made; nothing was sent. Changed:\n${stale.map((k) => `  ${k}`).join('\n')}`,
      { hint: 'make the plan again and review it' },
    );
  }
  const differences = actionDifferences(saved.plan.actions, now.plan.actions);
  if (differences.length > 0) {
    throw new ConvergeError(
      'PLAN_INVALID',
      `the saved plan is not what planning gives now (the file was edited?); nothing was sent:\n${differences
        .map((d) => `  ${d}`)
        .join('\n')}`,
      { hint: 'make the plan again with `converge plan --out`; never edit a plan file' },
    );
  }
  return now.plan;
}

export interface VerifyInput {
  plan: Plan;
  servers: Record<string, string>;
  desiredDigest: string;
  liveFingerprint(key: string): string | null;
}

/** Every key whose action in the file differs from the fresh one, either way. */
function actionDifferences(saved: readonly PlannedAction[], fresh: readonly PlannedAction[]): string[] {
  const effective = (actions: readonly PlannedAction[]) =>
    new Map(actions.filter((a) => a.action !== 'noop').map((a) => [a.key, a]));
  const before = effective(saved);
  const after = effective(fresh);
  const out: string[] = [];
  for (const [key, action] of before) {
    const now = after.get(key);
    if (!now) out.push(`${key}: the file says ${action.action}, planning now says nothing to do`);
    else if (!jsonEqual(comparable(action), comparable(now))) {
      out.push(`${key}: the file's ${action.action} differs from the ${now.action} planned now`);
    }
  }
  for (const [key, action] of after) {
    if (!before.has(key)) out.push(`${key}: planning now says ${action.action}, the file does not`);
  }
  if (saved.length !== new Set(saved.map((a) => a.key)).size) out.push('the file names an object twice');
  return out;
}

/** The parts of an action that decide what is sent. */
function comparable(action: PlannedAction): Json {
  return JSON.parse(
    JSON.stringify({
      action: action.action,
      changes: action.changes,
      dependsOn: [...action.dependsOn].sort(),
      ref: action.ref ?? null,
    }),
  ) as Json;
}
