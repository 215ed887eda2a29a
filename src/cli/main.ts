#!/usr/bin/env node
/**
 * Entry point: turns on Node's on-disk compile cache, then loads the program.
 * With the cache, later runs skip compiling (and, run from source, stripping
 * the types of) every module they load: `converge --version` from source
 * drops from ~150 ms to ~70 ms. tsc does the same. The program is imported
 * dynamically because static imports would load before the cache is on.
 */
import module from 'node:module';

// a read-only or full cache directory only costs the speed-up, never the run
module.enableCompileCache?.();

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // what commander prints for it (program.ts), without loading commander and every command's
  // flags: the whole answer is the version (docs/performance.md, "Start-up")
  const { VERSION } = await import('./version.ts');
  process.stdout.write(`${VERSION}\n`);
} else {
  await import('./program.ts');
}
