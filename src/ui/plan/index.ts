/**
 * The plan formats, chosen in one place. Each is a pure function of the
 * plan, which holds no secret values (only markers). The Markdown renderer
 * is loaded only for a Markdown plan.
 */
import { type PolicySummary, policyMarkdown, policyTextLines } from '../../policy/report.ts';
import type { Plan } from '../../reconcile/types.ts';
import type { Colors } from '../colors.ts';
import { formatPlan } from '../format-plan.ts';
import type { PlanFormat } from './formats.ts';
import { formatPlanJson, type PlanReportMeta } from './json.ts';

export interface PlanRenderInput {
  plan: Plan;
  meta: PlanReportMeta;
  colors: Colors;
  /** The policies' results over this plan, when the manifests hold a policy. */
  policies?: PolicySummary;
}

const RENDERERS: Record<PlanFormat, (input: PlanRenderInput) => string | Promise<string>> = {
  text: ({ plan, colors, policies }) => {
    const policyLines = policies ? policyTextLines(policies).map((line) => colors.yellow(line)) : [];
    return `${[...formatPlan(plan, colors), ...policyLines].join('\n')}\n`;
  },
  markdown: async ({ plan, policies }) => {
    const { formatPlanMarkdown } = await import('./markdown.ts');
    // as many of the violations as the plan's detail leaves room for
    const section = (rows: number) => (policies ? policyMarkdown(policies, { rows }) : []);
    return formatPlanMarkdown(plan, { sections: policies && policies.evaluated > 0 ? [section] : [] });
  },
  json: ({ plan, meta, policies }) => formatPlanJson(plan, meta, policies),
};

/** The whole plan as one string ending in a newline. */
export async function renderPlan(format: PlanFormat, input: PlanRenderInput): Promise<string> {
  return RENDERERS[format](input);
}

export { PLAN_FORMATS, type PlanFormat } from './formats.ts';
export { PLAN_REPORT_FORMAT, PLAN_REPORT_VERSION, type PlanReportMeta } from './json.ts';
