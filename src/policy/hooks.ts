/**
 * Where policies join the load (docs/policies.md, "When rules run"): they are
 * compiled while the manifests load (their problems are the load's); they are
 * checked later by `checkDeclared` and `checkPlan` (src/policy/evaluate.ts).
 * The CEL library is loaded only when the manifests hold a policy.
 */
import type { InputProblem } from '../errors.ts';
import type { ManifestOnlyDocument } from '../manifest/manifest-only.ts';
import type { Provider } from '../reconcile/provider.ts';
import type { Policy } from './policy.ts';

/**
 * A `checkDocuments` hook for the loader that keeps the compiled policies in `into`; `providers`
 * are the kinds a policy may name, with their fields (src/providers/index.ts, `providerMap`).
 */
export function policyCompiler(
  into: Policy[],
  providers: ReadonlyMap<string, Provider>,
): (documents: readonly ManifestOnlyDocument[]) => Promise<InputProblem[]> {
  return async (documents) => {
    if (!documents.some((d) => d.kind === 'Policy')) return [];
    const { compilePolicies } = await import('./policy.ts');
    const { policies, problems } = compilePolicies(documents, providers);
    into.push(...policies);
    return problems;
  };
}
