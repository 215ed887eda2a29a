/**
 * The one place that decides how apply progress is shown: JSON lines for
 * machines, the Ink live view on an interactive terminal, plain lines
 * everywhere else (CI, pipes, TERM=dumb, --no-progress). Ink and React are
 * imported only on the Ink path.
 */
import type { ReconcileEvent } from '../reconcile/events.ts';
import type { Colors } from './colors.ts';
import type { Output } from './output.ts';
import { plainReporter } from './plain-reporter.ts';

export interface Reporter {
  listener: (event: ReconcileEvent) => void;
  /** Resolves once everything is on screen (the Ink view: final frame written, app unmounted). */
  close(): Promise<void>;
}

export interface ReporterOptions {
  json: boolean;
  /** False for --no-progress. */
  progress: boolean;
  stream: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  output: Output;
  colors: Colors;
  /** converge's version, named by the JSON stream's header. */
  converge: string;
}

export type ReporterKind = 'json' | 'ink' | 'plain';

/** Any non-empty CI value other than "false"/"0" means CI (CI=true, CI=1, CI=woodpecker). */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

export function reporterKind(options: Omit<ReporterOptions, 'output' | 'colors' | 'converge'>): ReporterKind {
  if (options.json) return 'json';
  const live = options.progress && options.stream.isTTY === true && !isCi(options.env) && options.env.TERM !== 'dumb';
  return live ? 'ink' : 'plain';
}

export async function chooseReporter(options: ReporterOptions): Promise<Reporter> {
  const done = async () => {};
  switch (reporterKind(options)) {
    case 'json':
      return { listener: jsonReporter(options.output, options.converge), close: done };
    case 'plain':
      return { listener: plainReporter(options.output, options.colors), close: done };
    case 'ink': {
      // React's development build renders several times slower; a CLI uses the production one
      process.env.NODE_ENV ??= 'production';
      const { startInkReporter } = await import('./ink/render.ts');
      return startInkReporter({ stream: options.stream, output: options.output, colors: options.colors });
    }
  }
}

export const APPLY_EVENTS_FORMAT = 'converge-apply-events';
export const APPLY_EVENTS_VERSION = 1;

/**
 * One JSON object per line for machines: a header naming the format and its version
 * (schemas/documents/converge-apply-events.schema.json, docs/commands.md), then the same events
 * the other views render.
 */
export function jsonReporter(output: Output, converge: string): (event: ReconcileEvent) => void {
  const header = {
    type: 'header',
    format: APPLY_EVENTS_FORMAT,
    version: APPLY_EVENTS_VERSION,
    converge,
    generatedAt: new Date().toISOString(),
  };
  output.out(JSON.stringify(header));
  return (event) => output.out(JSON.stringify(event));
}
