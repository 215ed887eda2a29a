/**
 * Mounts the test-run view (./view.ts) with Ink. Reached only through the
 * dynamic import in ./reporter.ts, so plain and JSON runs never load Ink or
 * React (as src/ui/ink/render.ts does for apply).
 */
import { render } from 'ink';
import React from 'react';
import type { TestRunEvent, TestRunReporter } from './events.ts';
import { TestRunViewStore } from './store.ts';
import { LiveTestRunView } from './view.ts';

export function startInkTestRunReporter(options: { stream: NodeJS.WriteStream; colors: boolean }): TestRunReporter {
  const store = new TestRunViewStore();
  const instance = render(React.createElement(LiveTestRunView, { store, colors: options.colors }), {
    stdout: options.stream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 15,
  });
  const listener = (event: TestRunEvent): void => store.fold(event);
  const close = async (): Promise<void> => {
    store.dispose();
    await instance.waitUntilRenderFlush();
    instance.unmount();
    await instance.waitUntilExit();
  };
  return { listener, close };
}
