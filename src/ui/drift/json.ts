/**
 * Drift as versioned JSON for machines (dashboards, bots, jq). The shape is a
 * contract: fields are only ever added within a version. Pure.
 */
import { policyJson } from '../../policy/report.ts';
import { type DriftReport, driftedObjects, reportNotes } from './report.ts';

const DRIFT_FORMAT = 'converge-drift';
/** 2: objects carry their `address` ({kind, scope, name}) instead of `id`. */
const DRIFT_VERSION = 2;

export function formatDriftJson(report: DriftReport): string {
  const document = {
    format: DRIFT_FORMAT,
    version: DRIFT_VERSION,
    generatedAt: report.generatedAt,
    converge: report.converge,
    servers: report.servers,
    inSync: report.inSync,
    counts: report.counts,
    kinds: report.kinds,
    // only the objects that differ; `counts.inSync` says how many matched
    objects: driftedObjects(report).map((o) => ({
      key: o.key,
      kind: o.kind,
      address: o.address,
      action: o.action,
      state: o.state,
      ...(o.reason && { reason: o.reason }),
      changes: o.changes,
    })),
    unmanaged: report.unmanaged,
    notes: reportNotes(report),
    ...(report.policies && { policies: policyJson(report.policies) }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
