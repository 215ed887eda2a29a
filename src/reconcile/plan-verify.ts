/**
 * Whether a saved plan still holds (docs/architecture.md, "Saved plans"):
 * made with this key against these servers, not edited since converge wrote
 * it, made with the same configuration, from the same values (secrets and
 * file content included) and the same live objects, and every action exactly
 * what planning gives now. A refusal says what differs: the object and the
 * field, and where a changed value came from (`${env:SMTP_PASSWORD}`, a file).
 */
import { ConvergeError } from '../errors.ts';
import { jsonEqual } from './equal.ts';
import { ENSURE, type PlanDigester, REF } from './plan-digests.ts';
import type { Digests, SavedPlan } from './plan-file.ts';
import type { FieldChange, Json, Plan, PlannedAction } from './types.ts';

const NOTHING_SENT = 'nothing was sent';

/**
 * Before anything is read: the servers the plan's APIs are configured with
 * now, and the key. With another key no digest of the file can be compared,
 * so nothing else is worth saying.
 */
export function checkKey(saved: SavedPlan, servers: Record<string, string | undefined>, digester: PlanDigester): void {
  const other = Object.entries(saved.servers)
    .filter(([api, url]) => servers[api] !== url)
    .map(([api, url]) => `${api}: planned against ${url}, now ${servers[api] ?? 'not configured'}`);
  if (other.length > 0) throw serversError(other);
  if (digester.matches(saved.key)) return;
  const from =
    saved.key.from === 'plan-key'
      ? 'with CONVERGE_PLAN_KEY, which is not set now or holds another value'
      : digester.record.from === 'plan-key'
        ? 'with the API tokens, and CONVERGE_PLAN_KEY is set now'
        : 'with other API tokens';
  throw new ConvergeError(
    'PLAN_INVALID',
    `the plan was made ${from}: none of its digests can be checked; ${NOTHING_SENT}`,
    {
      hint: 'apply with the credentials the plan was made with, or set CONVERGE_PLAN_KEY to the same secret when planning and applying (a plan job with a read-only token)',
    },
  );
}

export interface VerifyInput {
  plan: Plan;
  servers: Record<string, string>;
  /** The file's integrity digest is the one the key gives (the key itself matched). */
  intact: boolean;
  /** The configuration used now. */
  config: { file: string | undefined; digests: Digests };
  desired: Record<string, Digests>;
  live(key: string): Digests | null;
  /** Why a desired field's value changed, as shown: `its source changed since the plan (${env:X})`. */
  changed(key: string, field: string): string;
}

/** The plan made now, if the saved one holds; else one refusal listing every difference. */
export function verifySavedPlan(saved: SavedPlan, now: VerifyInput): Plan {
  const missing = Object.keys(now.servers).filter((api) => saved.servers[api] === undefined);
  if (missing.length > 0) throw serversError(missing.map((api) => `${api}: not in the plan`));
  const sections = [
    section('the plan file was changed after converge wrote it', now.intact ? [] : ['']),
    section(configTitle(saved, now), differentNames(saved.config.digests, now.config.digests)),
    section(
      'the manifests, or the files and variables they read, changed since the plan was made:',
      desiredDifferences(saved.desired, now),
    ),
    section('live state changed since the plan was made. Changed:', liveDifferences(saved.live, now)),
    section(
      'the actions differ from what planning gives now:',
      actionDifferences(saved.plan.actions, now.plan.actions),
    ),
  ].filter((s) => s !== undefined);
  if (sections.length === 0) return now.plan;
  const code = now.intact ? 'PLAN_STALE' : 'PLAN_INVALID';
  throw new ConvergeError(code, `the saved plan cannot be applied; ${NOTHING_SENT}:\n${sections.join('\n')}`, {
    hint: !now.intact
      ? 'make the plan again with `converge plan --out`; never edit a plan file'
      : 'make the plan again and review it',
  });
}

function serversError(lines: string[]): ConvergeError {
  return new ConvergeError(
    'PLAN_STALE',
    `the plan was made against other servers; ${NOTHING_SENT}:\n${lines.map((l) => `  ${l}`).join('\n')}`,
    { hint: 'make the plan against the servers you apply it to' },
  );
}

/** A titled group of lines, or undefined when it has none; a lone empty line is a title alone. */
function section(title: string, lines: string[]): string | undefined {
  if (lines.length === 0) return undefined;
  const body = lines.filter((l) => l !== '').map((l) => `    ${l}`);
  return [`  ${title}`, ...body].join('\n');
}

function configTitle(saved: SavedPlan, now: VerifyInput): string {
  const was = saved.config.file ?? 'no configuration file';
  const is = now.config.file ?? 'no configuration file';
  const files = was === is ? `(${is})` : `(planned with ${was}, now ${is})`;
  return `the configuration differs from the plan's ${files} in:`;
}

/** Names whose digest differs, or that one side lacks. */
function differentNames(saved: Digests, now: Digests): string[] {
  const names = new Set([...Object.keys(saved), ...Object.keys(now)]);
  return [...names].filter((name) => saved[name] !== now[name]).sort();
}

function desiredDifferences(saved: Record<string, Digests>, now: VerifyInput): string[] {
  const out: string[] = [];
  for (const [key, digests] of Object.entries(saved)) {
    const fresh = now.desired[key];
    if (!fresh) {
      out.push(`${key}: no longer declared (or selected)`);
      continue;
    }
    for (const field of differentNames(digests, fresh)) {
      if (field === ENSURE) out.push(`${key}: ensure changed in the manifests`);
      else if (fresh[field] === undefined) out.push(`${key}: ${field}: no longer set`);
      else if (digests[field] === undefined) out.push(`${key}: ${field}: set since the plan`);
      else out.push(`${key}: ${field}: ${now.changed(key, field)}`);
    }
  }
  for (const key of Object.keys(now.desired)) if (!saved[key]) out.push(`${key}: declared since the plan`);
  return out;
}

function liveDifferences(saved: Record<string, Digests | null>, now: VerifyInput): string[] {
  const out: string[] = [];
  for (const [key, digests] of Object.entries(saved)) {
    const fresh = now.live(key);
    if (digests === null && fresh === null) continue;
    if (digests === null) out.push(`${key}: created since`);
    else if (fresh === null) out.push(`${key}: deleted since`);
    else {
      const fields = differentNames(digests, fresh);
      if (fields.includes(REF)) out.push(`${key}: replaced since (another object of the same address)`);
      else if (fields.length > 0) out.push(`${key}: ${fields.join(', ')}`);
    }
  }
  return out;
}

/** Every key whose action in the file differs from the fresh one, either way, with the fields that differ. */
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
      const fields = changedPaths(action.changes, now.changes);
      const which = fields.length > 0 ? ` (${fields.join(', ')})` : '';
      out.push(`${key}: the file's ${action.action} differs from the ${now.action} planned now${which}`);
    }
  }
  for (const [key, action] of after) {
    if (!before.has(key)) out.push(`${key}: planning now says ${action.action}, the file does not`);
  }
  if (saved.length !== new Set(saved.map((a) => a.key)).size) out.push('the file names an object twice');
  return out;
}

/** Paths of the changes that are not the same in both lists. */
function changedPaths(saved: readonly FieldChange[], fresh: readonly FieldChange[]): string[] {
  const byPath = (changes: readonly FieldChange[]) => new Map(changes.map((c) => [String(c.path), toJson(c)]));
  const a = byPath(saved);
  const b = byPath(fresh);
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((path) => !jsonEqual(a.get(path) ?? null, b.get(path) ?? null)).sort();
}

/** The parts of an action that decide what is sent. */
function comparable(action: PlannedAction): Json {
  return toJson({
    action: action.action,
    changes: action.changes,
    dependsOn: [...action.dependsOn].sort(),
    ref: action.ref ?? null,
  });
}

function toJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}
