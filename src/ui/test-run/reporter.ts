/**
 * Which progress view `converge test run` shows, by the rule of
 * src/ui/choose-reporter.ts: the Ink view on an interactive terminal, plain
 * lines in CI (`CI` set), on a pipe, with TERM=dumb or --no-progress. Progress
 * goes to stderr whatever the report format, so stdout stays the report's.
 */
import { reporterKind } from '../choose-reporter.ts';
import type { Colors } from '../colors.ts';
import type { Output } from '../output.ts';
import type { TestRunReporter } from './events.ts';
import { plainTestRunReporter } from './plain.ts';

export interface TestRunReporterOptions {
  progress: boolean;
  stream: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  output: Output;
  colors: Colors;
}

export async function chooseTestRunReporter(options: TestRunReporterOptions): Promise<TestRunReporter> {
  if (reporterKind({ json: false, progress: options.progress, stream: options.stream, env: options.env }) !== 'ink') {
    return { listener: plainTestRunReporter(options.output, options.colors), close: async () => {} };
  }
  // React's development build renders several times slower; a CLI uses the production one
  process.env.NODE_ENV ??= 'production';
  const { startInkTestRunReporter } = await import('./render.ts');
  return startInkTestRunReporter({ stream: options.stream, colors: options.colors.isColorSupported });
}
