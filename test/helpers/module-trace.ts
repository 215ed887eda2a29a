/**
 * Loaded with `node --import` (NODE_OPTIONS): the process writes the URL of every module it
 * loads, ESM and CommonJS, one a line, to the file $CONVERGE_MODULE_TRACE when it exits. The
 * start-up tests read it to see what a command loads (test/e2e/startup-modules.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  const file = process.env.CONVERGE_MODULE_TRACE;
  if (file) writeFileSync(file, `${loaded.join('\n')}\n`);
});
