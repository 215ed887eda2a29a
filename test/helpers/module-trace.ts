/**
 * Loaded with `node --import` (NODE_OPTIONS): the process writes the URL of every module it
 * loads, ESM and CommonJS, one a line, to the file $CONVERGE_MODULE_TRACE when it exits, then
 * `builtin:<name>` for each of Node's public modules it loaded, however it loaded them (an import,
 * a require or `process.getBuiltinModule`). The start-up tests read it to see what a command
 * loads (test/e2e/startup-modules.test.ts).
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
  // Node's own list of what it loaded (not typed: it is not documented, but has been there since Node 0.x)
  const builtins = (process as unknown as { moduleLoadList: string[] }).moduleLoadList
    .filter((entry) => entry.startsWith('NativeModule ') && !entry.startsWith('NativeModule internal/'))
    .map((entry) => `builtin:${entry.slice('NativeModule '.length)}`);
  if (file) writeFileSync(file, `${[...loaded, ...builtins].join('\n')}\n`);
});
