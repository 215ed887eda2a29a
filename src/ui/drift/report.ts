/**
 * The drift report: a plan read as "how live state differs from the
 * manifests". Every format (text, JSON, Markdown, JUnit) renders this one
 * model, and this is the only place that looks at a plan's field changes, so
 * the secret rule is enforced once: a change marked `secret` keeps its path
 * and note and loses any value it might carry. Pure.
 */
import { objectKey } from '../../reconcile/keys.ts';
import type { Action, FieldChange, Json, Plan, PlannedAction } from '../../reconcile/types.ts';

/** What a planned action means when nothing is going to be applied. */
export type DriftState = 'drifted' | 'missing' | 'to-delete' | 'in-sync';

export const STATE_OF: Record<Action, DriftState> = {
  create: 'missing',
  update: 'drifted',
  replace: 'drifted',
  delete: 'to-delete',
  noop: 'in-sync',
};

/** A field change without secret values: `before`/`after` exist only when `secret` is false. */
export interface DriftChange {
  path: string;
  secret: boolean;
  /** The live value; absent when the live object has no such field (or the value is secret). */
  before?: Json;
  /** The value the manifests declare; absent when secret. */
  after?: Json;
  /** The API cannot change it in place: the object would be replaced. */
  replace?: boolean;
  note?: string;
}

export interface DriftObject {
  key: string;
  kind: string;
  id: string;
  action: Action;
  state: DriftState;
  reason?: string;
  changes: DriftChange[];
  notes: string[];
}

export interface DriftUnmanaged {
  key: string;
  kind: string;
  id: string;
  /** Inside an ownership scope: `--prune` would delete it. */
  prunable: boolean;
}

export interface DriftCounts {
  /** Declared objects compared. */
  objects: number;
  inSync: number;
  drifted: number;
  missing: number;
  toDelete: number;
  unmanaged: number;
}

export interface KindCounts extends DriftCounts {
  kind: string;
}

export interface DriftMeta {
  /** ISO time of the comparison. */
  generatedAt: string;
  /** converge's version. */
  converge: string;
  /** Server URLs compared against (credentials, query and fragment removed), by API. */
  servers: Record<string, string>;
  /** Unmanaged objects count as drift (`--fail-on-unmanaged`). */
  unmanagedIsDrift?: boolean;
}

export interface DriftReport extends DriftMeta {
  inSync: boolean;
  counts: DriftCounts;
  /** Per kind, in plan order. */
  kinds: KindCounts[];
  /** Every declared object compared, in plan order; in-sync ones included. */
  objects: DriftObject[];
  unmanaged: DriftUnmanaged[];
}

export function buildDriftReport(plan: Plan, meta: DriftMeta): DriftReport {
  const objects = plan.actions.map(driftObject);
  const unmanaged = plan.unmanaged.map((u) => ({
    key: objectKey(u.kind, u.id),
    kind: u.kind,
    id: u.id,
    prunable: u.prunable,
  }));
  const kinds = new Map<string, KindCounts>();
  const counter = (kind: string): KindCounts => {
    let c = kinds.get(kind);
    if (!c) {
      c = { kind, ...emptyCounts() };
      kinds.set(kind, c);
    }
    return c;
  };
  const total = emptyCounts();
  for (const o of objects) {
    for (const c of [total, counter(o.kind)]) {
      c.objects++;
      if (o.state === 'in-sync') c.inSync++;
      else if (o.state === 'drifted') c.drifted++;
      else if (o.state === 'missing') c.missing++;
      else c.toDelete++;
    }
  }
  for (const u of unmanaged) {
    total.unmanaged++;
    counter(u.kind).unmanaged++;
  }
  const differing = total.drifted + total.missing + total.toDelete;
  const inSync = differing === 0 && !(meta.unmanagedIsDrift && total.unmanaged > 0);
  return { ...meta, inSync, counts: total, kinds: [...kinds.values()], objects, unmanaged };
}

function emptyCounts(): DriftCounts {
  return { objects: 0, inSync: 0, drifted: 0, missing: 0, toDelete: 0, unmanaged: 0 };
}

function driftObject(action: PlannedAction): DriftObject {
  const object: DriftObject = {
    key: action.key,
    kind: action.kind,
    id: action.id,
    action: action.action,
    state: STATE_OF[action.action],
    changes: action.changes.map(driftChange),
    notes: [...(action.notes ?? [])],
  };
  if (action.reason) object.reason = action.reason;
  return object;
}

/** The one place a change's values are copied: never for a secret. */
export function driftChange(change: FieldChange): DriftChange {
  const out: DriftChange = { path: change.path, secret: change.secret === true };
  if (!out.secret) {
    if (change.before !== undefined) out.before = change.before;
    if (change.after !== undefined) out.after = change.after;
  }
  if (change.replace) out.replace = true;
  if (change.note) out.note = change.note;
  return out;
}

/** Objects that differ from the manifests (not in sync). */
export function driftedObjects(report: DriftReport): DriftObject[] {
  return report.objects.filter((o) => o.state !== 'in-sync');
}

/** One line for a terminal or a CI log. */
export function summarize(report: DriftReport): string {
  const c = report.counts;
  const unmanaged = c.unmanaged > 0 ? `; ${c.unmanaged} unmanaged` : '';
  if (report.inSync && c.drifted + c.missing + c.toDelete === 0) {
    return `No drift: ${c.objects} object(s) match the manifests${unmanaged}.`;
  }
  const differing = c.drifted + c.missing + c.toDelete;
  return (
    `Drift: ${differing} of ${c.objects} object(s) differ from the manifests ` +
    `(${c.drifted} drifted, ${c.missing} missing, ${c.toDelete} to delete)${unmanaged}.`
  );
}

/** What a state is called in reports. */
export const STATE_LABEL: Record<DriftState, string> = {
  drifted: 'drifted',
  missing: 'missing',
  'to-delete': 'to delete',
  'in-sync': 'in sync',
};

/** A server URL fit for a report: no user, password, query or fragment. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

/** A value as one line of JSON, cut to `max` characters. */
export function shortValue(value: Json | undefined, max: number): string {
  if (value === undefined) return '(unset)';
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A one-line description of a change (JUnit bodies, text), with `(sensitive)` for secrets. */
export function describeChange(change: DriftChange, state: DriftState, max = 120): string {
  const replace = change.replace ? ' (forces replacement)' : '';
  if (change.secret) return `${change.path}: (sensitive)${change.note ? ` ${change.note}` : ''}${replace}`;
  if (state === 'missing') return `${change.path}: ${shortValue(change.after, max)}`;
  return `${change.path}: ${shortValue(change.before, max)} -> ${shortValue(change.after, max)}${replace}`;
}
