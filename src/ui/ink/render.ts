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
import { type ReadStoreOptions, ReadViewStore } from './read-store.ts';
import { LiveReadView, ReadView } from './read-view.ts';
import { ApplyViewStore, type StoreOptions } from './store.ts';

export interface InkReporterOptions {
  stream: NodeJS.WriteStream;
  output: Output;
  colors: Colors;
  store?: StoreOptions;
  read?: ReadStoreOptions;
}

type Instance = ReturnType<typeof render>;

/**
 * While live state is read, the read view shows it moving; when reading ends
 * it leaves one line, and what came meanwhile (retries) is printed then as
 * plain lines. Planning prints plain lines as usual (the plan and the prompt come
 * next and must not fight a live region); the apply view mounts on
 * apply-start and is unmounted by close() once its final frame is out.
 */
export function startInkReporter(options: InkReporterOptions): Reporter {
  const store = new ApplyViewStore(options.store);
  const beforeApply = plainReporter(options.output, options.colors);
  const colors = options.colors.isColorSupported;
  // interactive: converge chose this view because the terminal is one (src/ui/choose-reporter.ts);
  // left to Ink, a CI variable in the environment would make it draw only the last frame
  const mount = (view: React.ReactElement): Instance =>
    render(view, { stdout: options.stream, exitOnCtrlC: false, patchConsole: false, maxFps: 15, interactive: true });
  let reading: { store: ReadViewStore; instance: Instance; held: ReconcileEvent[] } | undefined;
  let instance: Instance | undefined;

  /**
   * The read view's last frame is one line saying what was read (or where a failed read stopped),
   * committed at once (rerender is synchronous) so that unmount draws it; the held lines follow.
   */
  const endReading = (): void => {
    if (!reading) return;
    const { store: readStore, instance: view, held } = reading;
    reading = undefined;
    readStore.end();
    view.rerender(React.createElement(ReadView, { view: readStore.getSnapshot(), colors }));
    view.unmount();
    for (const event of held) beforeApply(event);
  };

  const listener = (event: ReconcileEvent): void => {
    store.fold(event);
    if (instance) return;
    if (reading) {
      reading.store.fold(event);
      if (event.type === 'read-done') endReading();
      else if (event.type !== 'read-progress') reading.held.push(event);
      return;
    }
    if (event.type === 'read-start' && event.kinds.length > 0) {
      const readStore = new ReadViewStore(options.read);
      readStore.fold(event);
      reading = {
        store: readStore,
        instance: mount(React.createElement(LiveReadView, { store: readStore, colors })),
        held: [],
      };
      return;
    }
    if (event.type !== 'apply-start') {
      beforeApply(event);
      return;
    }
    instance = mount(React.createElement(LiveApplyView, { store, colors }));
  };

  const close = async (): Promise<void> => {
    // a read that failed: its view goes before the error is printed
    endReading();
    store.dispose();
    const app = instance;
    if (!app) return;
    await app.waitUntilRenderFlush();
    app.unmount();
    await app.waitUntilExit();
  };

  return { listener, close };
}
