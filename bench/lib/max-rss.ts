/**
 * Preloaded (`node --import`) into a process whose peak memory is measured,
 * where /usr/bin/time is not available: writes `process.resourceUsage().maxRSS`
 * (KiB) to the file named by BENCH_MAX_RSS_FILE when the process exits.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) {
  process.on('exit', () => {
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
