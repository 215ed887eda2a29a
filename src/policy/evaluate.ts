/**
 * Policies over objects: in `validate` the rules that read `object` only,
 * over the declared objects; at plan time every rule, over the planned
 * actions, with `live` and `change`. Each rule was compiled once; it runs per
 * object it matches. A rule that fails to evaluate (a field of the wrong type)
 * counts as a violation: a guardrail fails closed.
 */
import { addressKey } from '../reconcile/address.ts';
import { expandChildren } from '../reconcile/children.ts';
import type { Provider } from '../reconcile/provider.ts';
import type { Action, DesiredObject, LiveObject, Plan, Position } from '../reconcile/types.ts';
import { evaluationError } from './evaluation-error.ts';
import { policyMatches } from './match.ts';
import type { Enforcement, Policy } from './policy.ts';
import { type PolicySummary, summarizePolicies } from './report.ts';
import { type Judge, type Judged, reusingJudge } from './result-cache.ts';
import { addressMetadata, type CelObject, liveView, objectView } from './view.ts';

export type Outcome = 'allow' | Enforcement;

export interface PolicyResult {
  policy: string;
  enforcement: Enforcement;
  outcome: Outcome;
  /** The policy's message; for a rule that could not be evaluated, also why. */
  message: string;
  /** The object's address (src/reconcile/address.ts). */
  object: string;
  kind: string;
  /** The object's manifest document (absent for a live object no manifest declares). */
  source?: Position;
}

/** `change.action` as a rule sees it: `none` for an object already as declared. */
export type ChangeAction = Exclude<Action, 'noop'> | 'none';

export interface RuleInput {
  object: CelObject;
  live?: CelObject | null;
  change?: { action: ChangeAction; paths: string[] };
}

/** What a run of policies found: how many policy-and-object pairs ran, and the results kept. */
export interface Evaluation {
  evaluated: number;
  /** The violations; the passes too when asked for (a JUnit report has a case per pair). */
  results: PolicyResult[];
}

export interface EvaluateOptions {
  /** Keep a result for every pair, passes included; default: violations only (10,000 objects x 20 policies). */
  passes?: boolean;
}

const NO_CHANGE = Object.freeze({ action: 'none', paths: Object.freeze([]) });

/** One policy over one object's variables; `live` and `change` default to null and `none`. */
export function judge(policy: Policy, input: RuleInput): { outcome: Outcome; error?: string } {
  return judgeVariables(policy, { live: null, change: NO_CHANGE, ...input });
}

function judgeVariables(policy: Policy, variables: Record<string, unknown>): Judged {
  let value: unknown;
  try {
    value = policy.rule.run(variables);
  } catch (error) {
    return { outcome: policy.enforcement, error: evaluationError(error, policy.ruleText) };
  }
  if (value === true) return ALLOW;
  if (value === false) return { outcome: policy.enforcement };
  return { outcome: policy.enforcement, error: `the rule returned ${typeof value}, not a bool` };
}

const ALLOW = Object.freeze({ outcome: 'allow' as const });

/** The policies of each kind (and those of every kind), so an object meets only its own. */
function byKind(policies: readonly Policy[]): (kind: string) => readonly Policy[] {
  const cache = new Map<string, Policy[]>();
  return (kind) => {
    let found = cache.get(kind);
    if (!found) {
      found = policies.filter((p) => p.match.kinds.includes('*') || p.match.kinds.includes(kind));
      cache.set(kind, found);
    }
    return found;
  };
}

/** Each policy's judge for one run: results reused where the rule reads only shared fields. */
function judges(): (policy: Policy) => Judge {
  const made = new Map<Policy, Judge>();
  return (policy) => {
    let judge = made.get(policy);
    if (!judge) {
      judge = reusingJudge(policy, (variables) => judgeVariables(policy, variables));
      made.set(policy, judge);
    }
    return judge;
  };
}

/**
 * `validate`: the rules over `object` alone, for every declared object (children included) they
 * match, offline. Without a validate-phase policy the children are not even expanded.
 */
export function checkDeclared(
  policies: readonly Policy[],
  desired: readonly DesiredObject[],
  providers: ReadonlyMap<string, Provider>,
): PolicySummary {
  const evaluation: Evaluation = { evaluated: 0, results: [] };
  const offline = policies.filter((p) => p.phase === 'validate');
  if (offline.length === 0) return summarizePolicies(evaluation);
  const forKind = byKind(offline);
  const judgeOf = judges();
  for (const d of expandChildren(desired, providers)) {
    if (d.ensure !== 'present') continue;
    let variables: Record<string, unknown> | undefined;
    for (const policy of forKind(d.kind)) {
      if (!policyMatches(policy, { kind: d.kind, scope: d.address.scope, labels: d.metadata.labels })) continue;
      variables ??= { object: objectView(d, providers.get(d.kind)), live: null, change: NO_CHANGE };
      const judged = judgeOf(policy)(variables);
      evaluation.evaluated++;
      if (judged.outcome !== 'allow') {
        evaluation.results.push(result(policy, judged, addressKey(d.address), d.kind, d.source));
      }
    }
  }
  return summarizePolicies(evaluation);
}

export interface PlanState {
  desiredByKey: ReadonlyMap<string, DesiredObject>;
  liveByKey: ReadonlyMap<string, LiveObject>;
}

/** `plan`, `apply`, `drift`: every rule, over every planned action it matches, with `live` and `change`, before anything is sent. */
export function checkPlan(
  policies: readonly Policy[],
  plan: Plan,
  state: PlanState,
  providers: ReadonlyMap<string, Provider>,
  options: EvaluateOptions = {},
): PolicySummary {
  const evaluation: Evaluation = { evaluated: 0, results: [] };
  if (policies.length === 0) return summarizePolicies(evaluation);
  const forKind = byKind(policies);
  const judgeOf = judges();
  for (const action of plan.actions) {
    const desired = state.desiredByKey.get(action.key);
    const target = { kind: action.kind, scope: action.address.scope, labels: desired?.metadata.labels };
    const matching = forKind(action.kind).filter((p) => policyMatches(p, target));
    if (matching.length === 0) continue;
    const provider = providers.get(action.kind);
    const live = liveView(state.liveByKey.get(action.key), provider);
    // a live object no manifest declares (a prune) is seen as it is
    const object: CelObject = desired
      ? objectView(desired, provider)
      : { kind: action.kind, metadata: addressMetadata(action.address), spec: live?.spec ?? {} };
    const change = {
      action: action.action === 'noop' ? 'none' : action.action,
      paths: action.changes.map((c) => c.path),
    };
    const variables = { object, live, change };
    for (const policy of matching) {
      const judged = judgeOf(policy)(variables);
      evaluation.evaluated++;
      if (judged.outcome !== 'allow' || options.passes) {
        evaluation.results.push(result(policy, judged, action.key, action.kind, desired?.source ?? action.source));
      }
    }
  }
  return summarizePolicies(evaluation);
}

function result(
  policy: Policy,
  judged: { outcome: Outcome; error?: string },
  object: string,
  kind: string,
  source: Position | undefined,
): PolicyResult {
  const message = judged.error
    ? `${policy.message} (the rule could not be evaluated: ${judged.error})`
    : policy.message;
  return {
    policy: policy.name,
    enforcement: policy.enforcement,
    outcome: judged.outcome,
    message,
    object,
    kind,
    ...(source && { source }),
  };
}
