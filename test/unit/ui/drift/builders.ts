/** Hand-built plans for the drift formats: plain data, no network. */
import { addressKey } from '../../../../src/reconcile/address.ts';
import { countActions } from '../../../../src/reconcile/plan.ts';
import type { Action, FieldChange, Plan, PlannedAction, UnmanagedObject } from '../../../../src/reconcile/types.ts';
import { buildDriftReport, type DriftMeta, type DriftReport } from '../../../../src/ui/drift/report.ts';

/** A value that must never appear in any report. */
export const CANARY = 'CANARY-hunter2-do-not-print';

export function action(
  kind: string,
  id: string,
  act: Action,
  changes: FieldChange[] = [],
  extra: Partial<PlannedAction> = {},
): PlannedAction {
  const address = { kind, name: id };
  return { key: addressKey(address), kind, address, action: act, changes, dependsOn: [], ...extra };
}

export function unmanaged(kind: string, name: string, prunable: boolean): UnmanagedObject {
  const address = { kind, name };
  return { key: addressKey(address), kind, address, prunable };
}

export function plan(actions: PlannedAction[], unmanaged: UnmanagedObject[] = []): Plan {
  return { actions, unmanaged, counts: countActions(actions) };
}

export const META: DriftMeta = {
  generatedAt: '2026-03-01T12:00:00.000Z',
  converge: '0.1.0',
  servers: { platform: 'https://tfe.example.com' },
};

export function report(p: Plan, meta: Partial<DriftMeta> = {}): DriftReport {
  return buildDriftReport(p, { ...META, ...meta });
}

/**
 * A plan with one of everything: a drifted settings singleton (one field, one
 * secret carrying the canary in before/after, as a buggy provider might), a
 * missing tool version, a replacement, a delete, an object in sync, unmanaged ones.
 */
export function mixedPlan(): Plan {
  return plan(
    [
      action('GeneralSettings', '', 'update', [
        { path: 'api-rate-limit', before: 250, after: 60 },
        { path: 'plan-timeout', before: 18000, after: 10800 },
      ]),
      action('SMTPSettings', '', 'update', [
        { path: 'host', before: 'old.example.com', after: 'smtp.example.com' },
        { path: 'password', secret: true, before: CANARY, after: CANARY, note: 'changed since last apply' },
      ]),
      action('SMSSettings', '', 'noop', [], {
        notes: ['auth-token is write-only and not compared: no fingerprint store'],
      }),
      action('ToolVersion', '1.10.0', 'create', [
        { path: 'sha', after: 'abc' },
        { path: 'url', after: 'https://releases.example.com/tool/1.10.0.zip' },
      ]),
      action('ToolVersion', '1.9.8', 'noop'),
      action('ToolVersion', '1.2.0', 'delete', [], { reason: 'ensure: absent' }),
      action('ToolVersion', '1.3.0', 'replace', [{ path: 'sha', before: 'aaa', after: 'bbb', replace: true }]),
    ],
    [unmanaged('ToolVersion', '0.9.0', true), unmanaged('PolicyVersion', '0.1.0', false)],
  );
}
