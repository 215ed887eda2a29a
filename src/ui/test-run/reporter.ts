/**
 * Which progress view `converge test run` shows, by the rule of
 * src/ui/choose-reporter.ts: the Ink view on an interactive terminal, plain
 * lines in CI (`CI` set), on a pipe, with TERM=dumb or --no-progress. Progress
 * goes to stderr whatever the report format, so stdout stays the report's.
 */
import { reporterKind } from '../choose-reporter.ts';
import type { Colors } from '../colors.ts';
import type { Output } from '../output.ts';
import { terminalLine } from '../terminal-text.ts';
import type { TestRunEvent, TestRunReporter, TestRunState } from './events.ts';
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
    const listener = plainTestRunReporter(options.output, options.colors);
    return { listener: (event) => listener(terminalEvent(event)), close: async () => {} };
  }
  // React's development build renders several times slower; a CLI uses the production one
  process.env.NODE_ENV ??= 'production';
  const { startInkTestRunReporter } = await import('./render.ts');
  const ink = startInkTestRunReporter({ stream: options.stream, colors: options.colors.isColorSupported });
  return { listener: (event) => ink.listener(terminalEvent(event)), close: ink.close };
}

/**
 * An event as both progress views may show it: the server's ids and the module's file names with
 * their control characters made visible (../terminal-text.ts).
 */
export function terminalEvent(event: TestRunEvent): TestRunEvent {
  switch (event.type) {
    case 'packed':
      return { ...event, module: terminalLine(event.module), testFiles: event.testFiles.map(terminalLine) };
    case 'uploaded':
      return { ...event, configurationVersion: terminalLine(event.configurationVersion) };
    case 'run':
    case 'status':
    case 'done':
      return { ...event, run: terminalRun(event.run) };
    case 'retry':
      return { ...event, path: terminalLine(event.path), reason: terminalLine(event.reason) };
    case 'cancel':
      return event;
  }
}

export function terminalRun(run: TestRunState): TestRunState {
  return {
    ...run,
    id: terminalLine(run.id),
    status: terminalLine(run.status) as TestRunState['status'],
    source: terminalLine(run.source),
  };
}
