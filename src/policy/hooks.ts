/**
 * The points where policies join a run (docs/policies.md, "When rules run"):
 * compiled while the manifests load (their problems are the load's), checked
 * over the declared objects by `validate` and over the plan by `plan`,
 * `apply` (a saved plan included: it is planned again) and `drift`. The CEL
 * library is loaded only when the manifests hold a policy.
 */
import type { InputProblem } from '../errors.ts';
import type { ManifestOnlyDocument } from '../manifest/manifest-only.ts';
import { expandChildren } from '../reconcile/children.ts';
import type { Provider } from '../reconcile/provider.ts';
import type { DesiredObject, Plan } from '../reconcile/types.ts';
import { type EvaluateOptions, evaluateDeclared, evaluatePlan, type PlanState } from './evaluate.ts';
import type { Policy } from './policy.ts';
import { type PolicySummary, summarizePolicies } from './report.ts';

/** A `checkDocuments` hook for the loader that keeps the compiled policies in `into`. */
export function policyCompiler(
  into: Policy[],
): (documents: readonly ManifestOnlyDocument[]) => Promise<InputProblem[]> {
  return async (documents) => {
    if (!documents.some((d) => d.kind === 'Policy')) return [];
    const { compilePolicies } = await import('./policy.ts');
    const { policies, problems } = compilePolicies(documents);
    into.push(...policies);
    return problems;
  };
}

/** `validate`: the rules over `object` alone, offline. */
export function checkDeclared(
  policies: readonly Policy[],
  desired: readonly DesiredObject[],
  providers: ReadonlyMap<string, Provider>,
): PolicySummary {
  return summarizePolicies(evaluateDeclared(policies, expandChildren(desired, providers), providers));
}

/** `plan`, `apply`, `drift`: every rule over the plan, before anything is sent. */
export function checkPlan(
  policies: readonly Policy[],
  plan: Plan,
  state: PlanState,
  providers: ReadonlyMap<string, Provider>,
  options: EvaluateOptions = {},
): PolicySummary {
  return summarizePolicies(evaluatePlan(policies, plan, state, providers, options));
}
