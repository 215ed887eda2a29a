/**
 * The `(default)` label (src/ui/format-value.ts): a change of a field the manifest leaves at its
 * documented default says so in every text format, and each report says once what it means and
 * how to opt out; a report without one says nothing of it.
 */
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { FieldChange } from '../../../src/reconcile/types.ts';
import { formatDriftJson } from '../../../src/ui/drift/json.ts';
import { formatDriftMarkdown } from '../../../src/ui/drift/markdown.ts';
import { formatDriftText } from '../../../src/ui/drift/text.ts';
import { formatPlan } from '../../../src/ui/format-plan.ts';
import { DEFAULT_LEGEND } from '../../../src/ui/format-value.ts';
import { formatPlanMarkdown } from '../../../src/ui/plan/markdown.ts';
import { action, plan, report } from './drift/builders.ts';

const plain = pc.createColors(false);
const FORKS = 'allow-speculative-plans-on-pull-requests-from-forks';

const withChanges = (changes: FieldChange[]) => plan([action('GeneralSettings', '', 'update', changes)]);
const labelled = withChanges([
  { path: FORKS, before: true, after: false, default: true },
  { path: 'api-rate-limit', before: 30, after: 40 },
]);
const unlabelled = withChanges([{ path: 'api-rate-limit', before: 30, after: 40 }]);

describe('the (default) label', () => {
  it('follows the change in plan and drift text, with the legend once', () => {
    for (const text of [formatPlan(labelled, plain).join('\n'), formatDriftText(report(labelled), plain).join('\n')]) {
      expect(text).toContain(`${FORKS}: true -> false (default)\n`);
      expect(text).toContain('api-rate-limit: 30 -> 40\n');
      expect(text.split(DEFAULT_LEGEND)).toHaveLength(2);
    }
  });

  it('follows the field name in plan and drift Markdown, with the legend once', () => {
    for (const markdown of [formatPlanMarkdown(labelled), formatDriftMarkdown(report(labelled))]) {
      expect(markdown).toContain(`<code>${FORKS}</code> (default) |`);
      expect(markdown).toContain('list it under ignore to leave it to someone else');
    }
  });

  it('is a field of the change in drift JSON', () => {
    const json = JSON.parse(formatDriftJson(report(labelled)));
    expect(json.objects[0].changes[0]).toEqual({
      path: FORKS,
      secret: false,
      before: true,
      after: false,
      default: true,
    });
  });

  it('is not mentioned where no change is a default', () => {
    expect(formatPlan(unlabelled, plain).join('\n')).not.toContain('(default)');
    expect(formatDriftText(report(unlabelled), plain).join('\n')).not.toContain('(default)');
    expect(formatPlanMarkdown(unlabelled)).not.toContain('(default)');
    expect(formatDriftMarkdown(report(unlabelled))).not.toContain('(default)');
  });
});
