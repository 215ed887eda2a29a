/** The plan as a versioned JSON document (src/ui/plan/json.ts): `valid`, what a CI job asks first. */
import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../../../src/policy/evaluate.ts';
import { summarizePolicies } from '../../../../src/policy/report.ts';
import { formatPlanJson } from '../../../../src/ui/plan/json.ts';
import { documentValidator } from '../../../helpers/document-schema.ts';
import { action, plan } from '../drift/builders.ts';

const meta = { generatedAt: '2026-03-01T12:00:00.000Z', converge: '0.1.0' };
const changes = plan([action('ToolVersion', '1.0.1', 'create', [{ path: 'url', after: 'https://x/t.zip' }])]);
const result = (outcome: 'deny' | 'warn'): PolicyResult => ({
  policy: 'release-host',
  enforcement: outcome,
  outcome,
  message: 'no',
  object: 'ToolVersion/1.0.1',
  kind: 'ToolVersion',
});
const documentOf = (results: PolicyResult[] | undefined) =>
  JSON.parse(formatPlanJson(changes, meta, results && summarizePolicies({ evaluated: 1, results })));

describe('plan --json: valid', () => {
  it('is false when a policy denies, true on a warning, a pass or without policies; the schema accepts each', async () => {
    const validate = await documentValidator('converge-plan-report');
    const cases: [PolicyResult[] | undefined, boolean][] = [
      [[result('deny')], false],
      [[result('warn')], true],
      [[], true],
      [undefined, true],
    ];
    for (const [results, valid] of cases) {
      const document = documentOf(results);
      expect(document.valid, JSON.stringify(results)).toBe(valid);
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    }
    expect(validate({ ...documentOf(undefined), valid: 'yes' })).toBe(false);
  });
});
