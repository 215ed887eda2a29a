/**
 * The plan formats, chosen in one place. Each is a pure function of the
 * plan, which holds no secret values (only markers). The Markdown renderer
 * (and the line-diff library it uses) is loaded only for a Markdown plan.
 */
import type { Plan } from '../../reconcile/types.ts';
import type { Colors } from '../colors.ts';
import { formatPlan } from '../format-plan.ts';
import type { PlanFormat } from './formats.ts';
import { formatPlanJson, type PlanReportMeta } from './json.ts';
import type { PlanMarkdownSection } from './markdown.ts';

export interface PlanRenderInput {
  plan: Plan;
  meta: PlanReportMeta;
  colors: Colors;
  /** Extra Markdown sections (policy results), after the changes. */
  sections?: readonly PlanMarkdownSection[];
}

const RENDERERS: Record<PlanFormat, (input: PlanRenderInput) => string | Promise<string>> = {
  text: ({ plan, colors }) => `${formatPlan(plan, colors).join('\n')}\n`,
  markdown: async ({ plan, sections }) => (await import('./markdown.ts')).formatPlanMarkdown(plan, { sections }),
  json: ({ plan, meta }) => formatPlanJson(plan, meta),
};

/** The whole plan as one string ending in a newline. */
export async function renderPlan(format: PlanFormat, input: PlanRenderInput): Promise<string> {
  return RENDERERS[format](input);
}

export { PLAN_FORMATS, type PlanFormat } from './formats.ts';
export { PLAN_REPORT_FORMAT, PLAN_REPORT_VERSION, type PlanReportMeta } from './json.ts';
export type { PlanMarkdownSection } from './markdown.ts';
