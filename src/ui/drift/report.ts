/**
 * The drift report: a plan read as "how live state differs from the
 * manifests". Every format (text, JSON, Markdown, JUnit) renders this one
 * model, and this is the only place that looks at a plan's field changes, so
 * the secret rule is enforced once: a change marked `secret` keeps its path
 * and note and loses any value it might carry. Pure.
 */

import type { PolicySummary } from '../../policy/report.ts';
import type { Action, Address, FieldChange, Json, Plan, PlannedAction, Position } from '../../reconcile/types.ts';
import type { Colors } from '../colors.ts';
import { afterText, changeMarks, formatValue } from '../format-value.ts';
import { changeTextLines } from '../line-diff.ts';

/** What a planned action means when nothing is going to be applied. */
export type DriftState = 'drifted' | 'missing' | 'to-delete' | 'in-sync';

const STATE_OF: Record<Action, DriftState> = {
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
  /** The manifests do not write the field: the value they declare is the kind's documented default. */
  default?: boolean;
  note?: string;
  /** Where the manifests set the declared value (src/reconcile/sources.ts); absent for a default. */
  source?: Position;
}

export interface DriftObject {
  key: string;
  kind: string;
  address: Address;
  action: Action;
  state: DriftState;
  reason?: string;
  changes: DriftChange[];
  notes: string[];
}

export interface DriftUnmanaged {
  key: string;
  kind: string;
  address: Address;
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
  /** The policies' results over the plan, when the manifests hold policies (docs/policies.md). */
  policies?: PolicySummary;
}

/** The servers compared against, each once: the APIs of the emulator (or of one gateway) share a URL. */
export function serverUrls(meta: Pick<DriftMeta, 'servers'>): string[] {
  return [...new Set(Object.values(meta.servers))];
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
  const unmanaged = plan.unmanaged.map((u) => ({ key: u.key, kind: u.kind, address: u.address, prunable: u.prunable }));
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
      c[COUNTED_AS[o.state]]++;
    }
  }
  for (const u of unmanaged) {
    total.unmanaged++;
    counter(u.kind).unmanaged++;
  }
  const inSync = differing(total) === 0 && !(meta.unmanagedIsDrift && total.unmanaged > 0);
  return { ...meta, inSync, counts: total, kinds: [...kinds.values()], objects, unmanaged };
}

/** The count each state adds to. */
const COUNTED_AS: Record<DriftState, Exclude<keyof DriftCounts, 'objects' | 'unmanaged'>> = {
  'in-sync': 'inSync',
  drifted: 'drifted',
  missing: 'missing',
  'to-delete': 'toDelete',
};

function emptyCounts(): DriftCounts {
  return { objects: 0, inSync: 0, drifted: 0, missing: 0, toDelete: 0, unmanaged: 0 };
}

function driftObject(action: PlannedAction): DriftObject {
  const object: DriftObject = {
    key: action.key,
    kind: action.kind,
    address: action.address,
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
  if (change.default) out.default = true;
  if (change.note) out.note = change.note;
  if (change.source) out.source = change.source;
  return out;
}

/** Declared objects that differ from the manifests (unmanaged ones not included). */
export function differing(counts: DriftCounts): number {
  return counts.drifted + counts.missing + counts.toDelete;
}

/** Objects that differ from the manifests (not in sync). */
export function driftedObjects(report: DriftReport): DriftObject[] {
  return report.objects.filter((o) => o.state !== 'in-sync');
}

/** Every object's notes (what was not compared), in plan order. */
export function reportNotes(report: DriftReport): Array<{ key: string; note: string }> {
  return report.objects.flatMap((o) => o.notes.map((note) => ({ key: o.key, note })));
}

/** One line for a terminal or a CI log. */
export function summarize(report: DriftReport): string {
  const c = report.counts;
  const unmanaged = c.unmanaged > 0 ? `; ${c.unmanaged} unmanaged` : '';
  const n = differing(c);
  if (report.inSync && n === 0) return `No drift: ${c.objects} object(s) match the manifests${unmanaged}.`;
  return (
    `Drift: ${n} of ${c.objects} object(s) differ from the manifests ` +
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

/** An object's state as the Markdown and JUnit reports name it: a replacement says so. */
export function stateLabel(object: DriftObject): string {
  return object.action === 'replace' ? 'drifted, replacement needed' : STATE_LABEL[object.state];
}

/** A server URL fit for a report: no user, password, query or fragment. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * A change as text lines (the text report, JUnit bodies): one line, or a
 * multi-line value's line diff (../line-diff.ts), control characters shown.
 */
export function changeLines(change: DriftChange, state: DriftState, max: number, colors: Colors): string[] {
  const line = (c: DriftChange) => describeChange(c, state, max);
  return changeTextLines(change, { created: state === 'missing', line, colors });
}

/** A one-line description of a change, with `(sensitive)` for secrets. */
function describeChange(change: DriftChange, state: DriftState, max: number): string {
  const replace = changeMarks(change);
  if (change.secret) return `${change.path}: (sensitive)${change.note ? ` ${change.note}` : ''}${replace}`;
  if (state === 'missing') return `${change.path}: ${formatValue(change.after, max)}`;
  return `${change.path}: ${formatValue(change.before, max)} -> ${afterText(change.after, change.note, max)}${replace}`;
}
