/**
 * The plan as a versioned JSON document for machines (bots, policy checks,
 * jq), on stdout. Its own format name: the file `plan --out` saves is a
 * `converge-plan` (src/reconcile/plan-file.ts), which apply reads; this one
 * is only read by people's tools, and apply refuses it. The shape is a
 * contract (schemas/converge-plan-report.schema.json, docs/commands.md):
 * within a version, fields are only ever added. Pure.
 */
import { type PolicySummary, policyJson } from '../../policy/report.ts';
import { hasChanges } from '../../reconcile/plan.ts';
import type { Action, Plan } from '../../reconcile/types.ts';

export const PLAN_REPORT_FORMAT = 'converge-plan-report';
export const PLAN_REPORT_VERSION = 1;

export interface PlanReportMeta {
  generatedAt: string;
  converge: string;
}

const ACTIONS: readonly Action[] = ['create', 'update', 'replace', 'delete', 'noop'];

/** `policies` is there when the manifests hold a policy, before `plan`. */
export function formatPlanJson(plan: Plan, meta: PlanReportMeta, policies?: PolicySummary): string {
  const document = {
    format: PLAN_REPORT_FORMAT,
    version: PLAN_REPORT_VERSION,
    generatedAt: meta.generatedAt,
    converge: meta.converge,
    changes: hasChanges(plan),
    // what a CI job asks first, as in `validate --json`: false when a policy denies, and apply would refuse
    valid: (policies?.denied ?? 0) === 0,
    // every action counted, zeros included, so `.counts.delete` is a number
    counts: Object.fromEntries(ACTIONS.map((a) => [a, plan.counts[a] ?? 0])),
    ...(policies && { policies: policyJson(policies) }),
    plan,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
