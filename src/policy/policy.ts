/**
 * Policy documents -> compiled policies, or the problems that stop the load
 * (a rule that does not parse or type-check, two policies of one name, a kind
 * that does not exist, a field no kind it matches has), each at the
 * `file:line:col` of the value it is about.
 */
import type { InputProblem } from '../errors.ts';
import type { ManifestOnlyDocument } from '../manifest/manifest-only.ts';
import { didYouMean, unknownKind } from '../manifest/suggest.ts';
import { topFields } from '../reconcile/field-paths.ts';
import type { Provider } from '../reconcile/provider.ts';
import type { Position } from '../reconcile/types.ts';
import { type CompiledRule, compileRule } from './cel.ts';

export type Enforcement = 'deny' | 'warn';

export interface Policy {
  name: string;
  match: { kinds: readonly string[]; scopes?: readonly string[]; labels?: Readonly<Record<string, string>> };
  rule: CompiledRule;
  ruleText: string;
  message: string;
  enforcement: Enforcement;
  /** `validate`: the rule reads `object` only; `plan`: it reads `live` or `change`, known only against live state. */
  phase: 'validate' | 'plan';
  source: Position;
}

interface PolicySpec {
  match: Policy['match'];
  rule: string;
  message: string;
  enforcement: Enforcement;
}

/**
 * `providers`: every kind a policy may name (a module's versions included), with its fields. A
 * policy over a kind that does not exist matches nothing, and a rule that reads a field its kinds
 * do not have reads nothing (`!has(object.spec.max_tll) || ...` holds for every role): either way
 * a typo would turn a guardrail off without a word.
 */
export function compilePolicies(
  documents: readonly ManifestOnlyDocument[],
  providers: ReadonlyMap<string, Provider>,
): {
  policies: Policy[];
  problems: InputProblem[];
} {
  const kinds = new Set(providers.keys());
  const policies: Policy[] = [];
  const problems: InputProblem[] = [];
  const seen = new Map<string, Position>();
  // a rule written the same in several policies is compiled once, and its one CompiledRule lets
  // a check run it once per object for all of them (src/policy/result-cache.ts)
  const compiledByText = new Map<string, ReturnType<typeof compileRule>>();
  for (const doc of documents) {
    if (doc.kind !== 'Policy') continue;
    const at = (path: string): Position => doc.positions[path] ?? doc.source;
    const first = seen.get(doc.name);
    if (first) {
      const message = `two policies are named "${doc.name}" (the other at ${first.file}:${first.line}:${first.col})`;
      problems.push({ ...at('metadata.name'), message });
      continue;
    }
    seen.set(doc.name, at('metadata.name'));
    const spec = doc.data.spec as PolicySpec;
    const unknown = unknownKinds(spec.match.kinds, kinds);
    for (const { kind, index } of unknown) {
      const message = `policy ${doc.name}: ${unknownKind(kind, kinds, ', or * for every kind')}`;
      problems.push({ ...at(`spec.match.kinds.${index}`), message });
    }
    let compiled = compiledByText.get(spec.rule);
    if (!compiled) {
      compiled = compileRule(spec.rule);
      compiledByText.set(spec.rule, compiled);
    }
    if ('error' in compiled) {
      const where = compiled.error.offset > 0 ? ` (at character ${compiled.error.offset + 1} of the rule)` : '';
      problems.push({ ...at('spec.rule'), message: `policy ${doc.name}: ${compiled.error.message}${where}` });
      continue;
    }
    if (unknown.length > 0) continue;
    const misread = unknownFieldRead(compiled.rule.reads, spec.match.kinds, providers);
    if (misread) {
      problems.push({ ...at('spec.rule'), message: `policy ${doc.name}: ${misread}` });
      continue;
    }
    const uses = compiled.rule.uses;
    policies.push({
      name: doc.name,
      match: spec.match,
      rule: compiled.rule,
      ruleText: spec.rule,
      message: spec.message,
      enforcement: spec.enforcement,
      phase: uses.has('live') || uses.has('change') ? 'plan' : 'validate',
      source: doc.source,
    });
  }
  return { policies, problems };
}

/**
 * Why a field the rule selects by name cannot be there: `object` holds `kind`, `metadata` and
 * `spec`, and a spec field must be one of some kind the policy matches (with `*`, of some kind).
 * Only the spec's top-level field is checked: below it are map keys (labels, extensions).
 */
function unknownFieldRead(
  reads: readonly string[],
  matched: readonly string[],
  providers: ReadonlyMap<string, Provider>,
): string | undefined {
  const kinds = matched.includes('*') ? [...providers.keys()] : matched;
  const tables = kinds.map((kind) => providers.get(kind)?.fieldPaths);
  const fields = new Set(tables.flatMap((table) => topFields(table ?? [])));
  for (const read of reads) {
    const [variable, top, field] = read.split('.');
    if (top !== 'kind' && top !== 'metadata' && top !== 'spec') {
      return `the rule reads ${variable}.${top}: ${variable} holds kind, metadata and spec${didYouMean(top as string, ['kind', 'metadata', 'spec'])}`;
    }
    // a kind without a field table: what its spec holds is not known here
    if (top !== 'spec' || field === undefined || tables.includes(undefined) || fields.has(field)) continue;
    const whose = matched.includes('*') ? 'no kind' : `no ${kinds.join(' or ')}`;
    return `the rule reads ${variable}.spec.${field}, a field ${whose} has${didYouMean(field, fields)}`;
  }
  return undefined;
}

function unknownKinds(named: readonly string[], kinds: ReadonlySet<string>): { kind: string; index: number }[] {
  return named.flatMap((kind, index) => (kind === '*' || kinds.has(kind) ? [] : [{ kind, index }]));
}
