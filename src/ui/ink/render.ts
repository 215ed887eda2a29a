/**
 * The Ink facade: the only module that calls Ink's `render`. It is reached
 * only through a dynamic import in choose-reporter.ts, so runs that print
 * plain lines or JSON never load Ink or React.
 */
import { render } from 'ink';
import React from 'react';
import type { ReconcileEvent } from '../../reconcile/events.ts';
import type { Reporter } from '../choose-reporter.ts';
import type { Colors } from '../colors.ts';
import type { Output } from '../output.ts';
import { plainReporter } from '../plain-reporter.ts';
import { LiveApplyView } from './app.ts';
import { ApplyViewStore, type StoreOptions } from './store.ts';

export interface InkReporterOptions {
  stream: NodeJS.WriteStream;
  output: Output;
  colors: Colors;
  store?: StoreOptions;
}

/**
 * Reading and planning print plain lines as usual (the plan and the prompt
 * come next and must not fight a live region); the live view mounts on
 * apply-start and is unmounted by close() once its final frame is out.
 */
export function startInkReporter(options: InkReporterOptions): Reporter {
  const store = new ApplyViewStore(options.store);
  const beforeApply = plainReporter(options.output, options.colors);
  let instance: ReturnType<typeof render> | undefined;

  const listener = (event: ReconcileEvent): void => {
    store.fold(event);
    if (instance) return;
    if (event.type !== 'apply-start') {
      beforeApply(event);
      return;
    }
    instance = render(React.createElement(LiveApplyView, { store, colors: options.colors.isColorSupported }), {
      stdout: options.stream,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 15,
    });
  };

  const close = async (): Promise<void> => {
    store.dispose();
    const app = instance;
    if (!app) return;
    await app.waitUntilRenderFlush();
    app.unmount();
    await app.waitUntilExit();
  };

  return { listener, close };
}
