/**
 * The names of the drift report formats, apart from their renderers so that
 * the command line can offer them without loading any (src/cli/commands is
 * loaded by every run, `--version` included).
 */
export const DRIFT_FORMATS = ['text', 'json', 'markdown', 'junit'] as const;
export type DriftFormat = (typeof DRIFT_FORMATS)[number];
