/** `converge policy test DIR` (docs/policies.md, "Testing policies"). Offline. */
import { runPolicyTests } from '../../policy/test-runner.ts';
import { colorsFor } from '../../ui/colors.ts';
import { processOutput } from '../../ui/output.ts';
import { EXIT_ERROR, EXIT_OK } from '../run-main.ts';

export async function runPolicyTest(dir: string, flags: { json: boolean; color: boolean }): Promise<number> {
  const output = processOutput();
  const report = await runPolicyTests(dir);
  const failed = report.results.filter((r) => !r.passed);
  if (flags.json) {
    output.out(JSON.stringify({ passed: failed.length === 0, ...report }, null, 2));
    return failed.length === 0 ? EXIT_OK : EXIT_ERROR;
  }
  const colors = colorsFor(process.stdout, flags.color);
  for (const r of report.results) {
    const head = `${r.file}:${r.line}: ${r.policy}: ${r.name}`;
    if (r.passed) output.out(`${colors.green('ok  ')} ${head} (${r.actual})`);
    else {
      const why = r.error ? `; the rule could not be evaluated: ${r.error}` : '';
      output.out(`${colors.red('FAIL')} ${head}: expected ${r.expected}, got ${r.actual}${why}`);
    }
  }
  for (const name of report.untested)
    output.out(colors.yellow(`note: policy ${name} has no tests (${name}.test.yaml)`));
  const total = report.results.length;
  const line = `${total - failed.length} of ${total} policy test case(s) passed${failed.length > 0 ? `, ${failed.length} failed` : ''}.`;
  output.out(failed.length > 0 ? colors.red(line) : colors.green(line));
  return failed.length === 0 ? EXIT_OK : EXIT_ERROR;
}
