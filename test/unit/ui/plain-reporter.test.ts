/**
 * The plain lines of an apply (CI, pipes, --no-progress): a failure whose outcome is unknown (its
 * answer lost, the read-back failing too) is told as what it is, not as a write that failed.
 */
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { memoryOutput } from '../../../src/ui/output.ts';
import { plainReporter } from '../../../src/ui/plain-reporter.ts';
import { ev, planned, summary } from './events.ts';

describe('the plain reporter', () => {
  it('tells a failure of unknown outcome apart, in its line, the summary and the headline', () => {
    const output = memoryOutput();
    const report = plainReporter(output, pc.createColors(false));
    const settings = planned('GeneralSettings', 'update');
    const ann = planned('AdminUser/ann', 'create');
    const lost = {
      message: 'PATCH /admin/general-settings: connection closed; reading back failed too',
      outcome: 'unknown' as const,
    };
    const refused = { message: '422 invalid', status: 422 };
    report(ev({ type: 'apply-start', total: 2 }));
    report(ev({ type: 'action-failed', action: settings, error: lost }));
    report(ev({ type: 'action-failed', action: ann, error: refused }));
    const failed = [
      { key: settings.key, action: 'update' as const, error: lost },
      { key: ann.key, action: 'create' as const, error: refused },
    ];
    report(ev({ type: 'apply-done', summary: summary({ failed, elapsedMs: 50 }) }));
    expect(output.stdout).toContain(
      `[1/2] outcome unknown (may have been applied): update GeneralSettings: ${lost.message}`,
    );
    expect(output.stdout).toContain('[2/2] failed to create AdminUser/ann: 422 invalid');
    expect(output.stdout).toContain(
      'Apply finished with failures: nothing done; 1 failed; 1 outcome unknown; 0 skipped (0.1 s)',
    );
    expect(output.stdout).toContain(`  unknown GeneralSettings (update): ${lost.message}`);
    expect(output.stdout).toContain('  failed  AdminUser/ann (create): 422 invalid');
  });
});
