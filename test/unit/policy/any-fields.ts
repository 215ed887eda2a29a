/**
 * The kinds without their field tables, for tests about how rules evaluate: they read fields of
 * their own (`object.spec.n`), which compilePolicies refuses for kinds whose fields it knows.
 */
import { expect } from 'vitest';
import { compilePolicies, type Policy } from '../../../src/policy/policy.ts';
import { providerMap } from '../../../src/providers/index.ts';
import type { Provider } from '../../../src/reconcile/provider.ts';

export const ANY_FIELDS: ReadonlyMap<string, Provider> = new Map(
  [...providerMap].map(([kind, provider]) => [kind, { ...provider, fieldPaths: undefined }]),
);

/** A policy `p` (deny) of the rule over `kinds`, compiled against ANY_FIELDS. */
export function anyFieldsPolicy(rule: string, kinds: readonly string[] = ['*']): Policy {
  const { policies, problems } = compilePolicies(
    [
      {
        kind: 'Policy',
        name: 'p',
        data: {
          kind: 'Policy',
          metadata: { name: 'p' },
          spec: { match: { kinds }, rule, message: 'no', enforcement: 'deny' },
        },
        source: { file: 'p.yaml', line: 1, col: 1 },
        positions: {},
      },
    ],
    ANY_FIELDS,
  );
  expect(problems).toEqual([]);
  return policies[0] as Policy;
}
