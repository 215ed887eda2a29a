/**
 * `export --scope`: which scopes each kind is listed in. A scope belongs to
 * the kinds of its sort: an organization to the registry kinds, a mount to
 * the secrets engines' kinds (a kind's identity names the sort). Written
 * `organization=NAME` or `mount=PATH`, or bare when the kinds in play have
 * one sort only. Decided before any request: a scope no kind in play has is
 * an error, never a list call that fails (`GET .../organizations/ldap/...`),
 * and so is one no manifest could name (`mount=../sys`, `mount=sys`), with
 * `validate`'s words for it (src/export/manifest-check.ts), never a list call
 * outside the engines (`GET /v1/../sys/roles`).
 */
import { ConvergeError } from '../errors.ts';
import type { SchemaSet } from '../manifest/schemas.ts';
import { identityOf, type Provider } from '../reconcile/provider.ts';
import { scopeProblems } from './manifest-check.ts';

export type ScopeProvider = Pick<Provider, 'kind' | 'api' | 'scoped' | 'identity' | 'cardinality' | 'address'>;

/** The sort of a scoped kind's scope (`organization`, `mount`); undefined for a global kind. */
export function scopeSort(provider: ScopeProvider): string | undefined {
  if (!provider.scoped) return undefined;
  return identityOf(provider as Provider).scope ?? 'scope';
}

/**
 * The scopes named for each sort, from the `--scope` values. A bare value takes the one sort of the
 * kinds in play; with kinds of several sorts it must say which. Each is checked as the metadata
 * field it stands for, by the schemas of the kinds of its sort.
 */
export function scopesBySort(
  values: readonly string[],
  chosen: readonly ScopeProvider[],
  schemas: SchemaSet,
): Map<string, string[]> {
  const sorts = new Map<string, string[]>();
  for (const provider of chosen) {
    const sort = scopeSort(provider);
    if (sort !== undefined) sorts.set(sort, [...(sorts.get(sort) ?? []), provider.kind]);
  }
  const named = new Map<string, string[]>();
  for (const value of values) {
    const { sort, scope } = parseScope(value, sorts);
    if (!sorts.has(sort)) {
      throw new ConvergeError('INPUT_INVALID', `--scope ${value}: none of the kinds exported lives in ${sort}s`, {
        hint: sortsHint(sorts, chosen),
      });
    }
    const problems = unnameable(scope, sort, chosen, schemas);
    if (problems.length > 0) throw new ConvergeError('INPUT_INVALID', `--scope ${value}: ${problems.join('; ')}`);
    const list = named.get(sort) ?? [];
    if (!list.includes(scope)) list.push(scope);
    named.set(sort, list);
  }
  return named;
}

/**
 * Why no object of the sort's kinds could have the scope, in the words of the first kind (in the
 * registry's order) that refuses it: the kinds of one sort name it by the same field, by the same
 * rules, and say it with their own example (`like "ssh"`, `like "ldap"`).
 */
function unnameable(scope: string, sort: string, chosen: readonly ScopeProvider[], schemas: SchemaSet): string[] {
  for (const provider of chosen) {
    // the metadata field that names the scope; a kind that names none has nothing to check it by
    const field = identityOf(provider as Provider).scope;
    if (scopeSort(provider) !== sort || field === undefined) continue;
    const problems = scopeProblems(schemas, provider, field, scope);
    if (problems.length > 0) return problems;
  }
  return [];
}

function parseScope(value: string, sorts: ReadonlyMap<string, string[]>): { sort: string; scope: string } {
  const match = /^([a-z]+)=(.*)$/.exec(value);
  if (match) {
    const [, sort = '', scope = ''] = match;
    if (scope === '') throw new ConvergeError('INPUT_INVALID', `--scope ${value}: the ${sort} is missing`);
    return { sort, scope };
  }
  if (value === '') throw new ConvergeError('INPUT_INVALID', '--scope: an empty scope');
  if (sorts.size === 1) return { sort: [...sorts.keys()][0] ?? '', scope: value };
  if (sorts.size === 0) {
    throw new ConvergeError('INPUT_INVALID', `--scope ${value}: none of the kinds exported has scopes`, {
      hint: 'these kinds are global; leave --scope out',
    });
  }
  const which = [...sorts].map(([sort, kinds]) => `${sort}=${value} (${kinds.join(', ')})`);
  throw new ConvergeError(
    'INPUT_INVALID',
    `--scope ${value}: the kinds exported live in ${[...sorts.keys()].map((sort) => `${sort}s`).join(' and ')}`,
    {
      hint: `say which: ${which.join(' or ')}`,
    },
  );
}

function sortsHint(sorts: ReadonlyMap<string, string[]>, chosen: readonly ScopeProvider[]): string {
  if (sorts.size === 0) return `${chosen.map((p) => p.kind).join(', ')} are global; leave --scope out`;
  return `scopes here: ${[...sorts].map(([sort, kinds]) => `${sort}=NAME for ${kinds.join(', ')}`).join('; ')}`;
}
