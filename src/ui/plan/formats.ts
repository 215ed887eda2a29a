/**
 * The names of the plan formats, apart from their renderers so that the
 * command line can offer them without loading any (src/cli/commands is loaded
 * by every run, `--version` included).
 */
export const PLAN_FORMATS = ['text', 'markdown', 'json'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];
