/**
 * The kinds without their field tables, for tests about how rules evaluate: they read fields of
 * their own (`object.spec.n`), which compilePolicies refuses for kinds whose fields it knows.
 */
import { providerMap } from '../../../src/providers/index.ts';
import type { Provider } from '../../../src/reconcile/provider.ts';

export const ANY_FIELDS: ReadonlyMap<string, Provider> = new Map(
  [...providerMap].map(([kind, provider]) => [kind, { ...provider, fieldPaths: undefined }]),
);
