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
import type { CompiledRule } from './cel.ts';
import { evaluationError } from './evaluation-error.ts';
import { matchesKind, policyMatches, selectsWithinKind } from './match.ts';
import type { Enforcement, Policy } from './policy.ts';
import { type PolicySummary, summarizePolicies } from './report.ts';
import { type RuleRun, ruleRun, type VariablesSource, type Verdict } from './result-cache.ts';
import { addressMetadata, type CelObject, liveView, objectView, objectViewer } from './view.ts';

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
  return judged(policy, verdictOf(policy.rule, policy.ruleText, { live: null, change: NO_CHANGE, ...input }));
}

/** A rule over one object's variables: what it returned, or why it could not be evaluated. */
function verdictOf(rule: CompiledRule, ruleText: string, variables: Record<string, unknown>): Verdict {
  let value: unknown;
  try {
    value = rule.run(variables);
  } catch (error) {
    return evaluationError(error, ruleText);
  }
  if (typeof value === 'boolean') return value;
  return `the rule returned ${typeof value}, not a bool`;
}

/** A rule's verdict as the policy decides it: its own enforcement when the rule is false or fails. */
function judged(policy: Policy, verdict: Verdict): { outcome: Outcome; error?: string } {
  if (verdict === true) return ALLOW;
  if (verdict === false) return { outcome: policy.enforcement };
  return { outcome: policy.enforcement, error: verdict };
}

const ALLOW = Object.freeze({ outcome: 'allow' as const });

/** Each rule's run for one check: one per rule, however many policies share its text (policy.ts). */
function ruleRuns(): (policy: Policy) => RuleRun {
  const made = new Map<CompiledRule, RuleRun>();
  return ({ rule, ruleText }) => {
    let run = made.get(rule);
    if (!run) {
      run = ruleRun(rule, (variables) => verdictOf(rule, ruleText, variables));
      made.set(rule, run);
    }
    return run;
  };
}

/**
 * What `validate` does for the objects of one kind, worked out once per kind: the policies of
 * that kind (or of every kind), each with the slot of its rule, so a rule several policies share
 * runs once per object; and whether a policy must still be matched per object (by scope, labels).
 */
interface KindChecks {
  kind: string;
  entries: { policy: Policy; slot: number; perObject: boolean }[];
  runs: RuleRun[];
  /** Per slot: whether a policy of the kind applies its rule to every object, so it runs for each. */
  everyObject: boolean[];
  /** Whether every entry holds for every object: none is matched by scope or labels. */
  unselective: boolean;
  /** The current object's verdict per slot (UNSET until its rule runs): reused, not made per object. */
  verdicts: (Verdict | typeof UNSET)[];
}

const UNSET = Symbol('unset');

function kindChecks(policies: readonly Policy[], kind: string, runOf: (policy: Policy) => RuleRun): KindChecks {
  const checks: KindChecks = { kind, entries: [], runs: [], everyObject: [], unselective: true, verdicts: [] };
  const slots = new Map<RuleRun, number>();
  for (const policy of policies) {
    if (!matchesKind(policy, kind)) continue;
    const run = runOf(policy);
    let slot = slots.get(run);
    if (slot === undefined) {
      slot = checks.runs.push(run) - 1;
      slots.set(run, slot);
    }
    const perObject = selectsWithinKind(policy);
    checks.entries.push({ policy, slot, perObject });
    checks.everyObject[slot] ||= !perObject;
    checks.unselective &&= !perObject;
  }
  checks.verdicts = checks.runs.map(() => UNSET);
  return checks;
}

/**
 * The variables of the object being checked: one view, pointed at each object in turn, its spec
 * worked out when a rule first reads it. A rule keeps nothing of what it read (CEL is pure), so
 * validate's 10,000 objects make no view, closure or variables each (docs/policies.md, "Cost").
 */
class DeclaredVariables implements VariablesSource {
  readonly #viewer = objectViewer();
  readonly #variables = { object: this.#viewer.view, live: null, change: NO_CHANGE };
  #declaredSpec: DesiredObject['spec'] | undefined;

  at(desired: DesiredObject, provider: Provider | undefined): void {
    this.#viewer.show(desired, provider);
    // the objects checked are present ones: their spec is seen canonical, keys and all
    this.#declaredSpec = provider?.canonicalKeysFollowSpec ? desired.spec : undefined;
  }

  variables(): Record<string, unknown> {
    return this.#variables;
  }

  specForKeys(): object | undefined {
    return this.#declaredSpec;
  }
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
  const runOf = ruleRuns();
  const byKind = new Map<string, KindChecks>();
  const source = new DeclaredVariables();
  // objects come grouped by kind: the kind's checks are looked up when the kind changes
  let checks: KindChecks | undefined;
  for (const d of expandChildren(desired, providers)) {
    if (d.ensure !== 'present') continue;
    if (checks?.kind !== d.kind) {
      checks = byKind.get(d.kind);
      if (!checks) {
        checks = kindChecks(offline, d.kind, runOf);
        byKind.set(d.kind, checks);
      }
    }
    const { entries, runs, everyObject, verdicts } = checks;
    if (entries.length === 0) continue;
    source.at(d, providers.get(d.kind));
    // the rules every object gets first; when all hold and no policy selects within the kind (the
    // usual object), its checks are counted without going through its policies one by one
    let allHold = checks.unselective;
    for (let slot = 0; slot < runs.length; slot++) {
      if (!everyObject[slot]) {
        verdicts[slot] = UNSET;
        continue;
      }
      const verdict = (runs[slot] as RuleRun).verdict(d, source);
      verdicts[slot] = verdict;
      if (verdict !== true) allHold = false;
    }
    if (allHold) {
      evaluation.evaluated += entries.length;
      continue;
    }
    for (const { policy, slot, perObject } of entries) {
      if (perObject && !policyMatches(policy, { kind: d.kind, scope: d.address.scope, labels: d.metadata.labels })) {
        continue;
      }
      let verdict = verdicts[slot];
      if (verdict === UNSET) verdict = verdicts[slot] = (runs[slot] as RuleRun).verdict(d, source);
      evaluation.evaluated++;
      if (verdict !== true) {
        evaluation.results.push(
          result(policy, judged(policy, verdict as Verdict), addressKey(d.address), d.kind, d.source),
        );
      }
    }
  }
  return summarizePolicies(evaluation);
}

export interface PlanState {
  desiredByKey: ReadonlyMap<string, DesiredObject>;
  liveByKey: ReadonlyMap<string, LiveObject>;
}

/**
 * `plan`, `apply`, `drift`: every rule, over every planned action it matches, with `live` and
 * `change`, before anything is sent; a delete, by the rules over `change` or `live` only.
 */
export function checkPlan(
  policies: readonly Policy[],
  plan: Plan,
  state: PlanState,
  providers: ReadonlyMap<string, Provider>,
  options: EvaluateOptions = {},
): PolicySummary {
  const evaluation: Evaluation = { evaluated: 0, results: [] };
  if (policies.length === 0) return summarizePolicies(evaluation);
  const runOf = ruleRuns();
  for (const action of plan.actions) {
    const desired = state.desiredByKey.get(action.key);
    const target = {
      kind: action.kind,
      scope: action.address.scope,
      labels: desired?.metadata.labels,
      removal: action.action === 'delete' || desired?.ensure === 'absent',
    };
    const matching = policies.filter((p) => policyMatches(p, target));
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
    const source: VariablesSource = { variables: () => variables };
    for (const policy of matching) {
      const verdict = runOf(policy).verdict(object, source);
      evaluation.evaluated++;
      if (verdict !== true || options.passes) {
        const declaredAt = desired?.source ?? action.source;
        evaluation.results.push(result(policy, judged(policy, verdict), action.key, action.kind, declaredAt));
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
