/**
 * A policy's test cases (docs/policies.md, "Testing policies"): `<policy>.test.yaml` next to the
 * policy, each case an example object written as in a manifest, optionally the live object and
 * the change, and the outcome expected. Read and checked here; run by src/policy/test-runner.ts.
 */
import { basename } from 'node:path';
import { isMap, LineCounter, parseDocument } from 'yaml';
import type { InputProblem } from '../errors.ts';
import { parseDocuments, positionOf, type SourceDocument } from '../manifest/documents.ts';
import { didYouMean, unknownKind } from '../manifest/suggest.ts';
import { topFields } from '../reconcile/field-paths.ts';
import type { Provider } from '../reconcile/provider.ts';
import type { Outcome } from './evaluate.ts';

export interface TestCase {
  name: string;
  object: { kind: string; metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
  live?: { spec?: Record<string, unknown>; metadata?: Record<string, unknown> } | null;
  change?: { action: string; paths?: string[] };
  expect: Outcome;
  line: number;
}

export interface TestFile {
  file: string;
  policy: string;
  cases: TestCase[];
}

const OUTCOMES: readonly string[] = ['allow', 'deny', 'warn'];
const ACTIONS: readonly string[] = ['create', 'update', 'replace', 'delete', 'none'];

/**
 * `providers`: the kinds an example object may be of, with their fields. An object of another kind
 * matches no policy, and a misspelt field is one the rule never sees: either way a case expecting
 * `allow` would pass whatever the rule says.
 */
export function parseTestFile(
  file: string,
  text: string,
  providers: ReadonlyMap<string, Provider>,
): { tests?: TestFile; problems: InputProblem[] } {
  const kinds = new Set(providers.keys());
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const at = (offset: number | undefined, message: string): InputProblem => ({
    file,
    ...lines.linePos(offset ?? 0),
    message,
  });
  if (doc.errors.length > 0) return { problems: doc.errors.map((e) => at(e.pos[0], e.message.split('\n')[0] ?? '')) };
  const data = doc.toJS() as { policy?: unknown; cases?: unknown } | null;
  const policy = typeof data?.policy === 'string' ? data.policy : basename(file).replace(/\.test\.ya?ml$/i, '');
  const casesNode = isMap(doc.contents) ? doc.contents.get('cases', true) : undefined;
  if (!Array.isArray(data?.cases) || data.cases.length === 0) {
    return { problems: [at(doc.contents?.range?.[0], 'a test file holds `cases:`, a list of {object, expect}')] };
  }
  const problems: InputProblem[] = [];
  const cases: TestCase[] = [];
  let source: SourceDocument | undefined;
  for (const [index, raw] of (data.cases as Array<Record<string, unknown>>).entries()) {
    const node = (casesNode as { items?: Array<{ range?: [number] }> } | undefined)?.items?.[index];
    const problem = caseProblem(raw, kinds);
    if (problem) {
      problems.push(at(node?.range?.[0], `case ${index + 1}: ${problem}`));
      continue;
    }
    const misnamed = unknownFields(raw, providers.get((raw.object as TestCase['object']).kind));
    for (const { side, key, message } of misnamed) {
      // the loader's positions of the file, worked out only when a key must be pointed at
      source ??= parseDocuments(text, file).documents[0];
      const where = source ? positionOf(source, `cases.${index}.${side}.spec.${key}`, true) : at(node?.range?.[0], '');
      problems.push({ ...where, message: `case ${index + 1}: ${message}` });
    }
    if (misnamed.length > 0) continue;
    const change = raw.change as TestCase['change'] | undefined;
    cases.push({
      name: typeof raw.name === 'string' ? raw.name : `case ${index + 1}`,
      object: raw.object as TestCase['object'],
      ...(raw.live !== undefined && { live: raw.live as TestCase['live'] }),
      ...(change && { change }),
      expect: raw.expect as Outcome,
      line: lines.linePos(node?.range?.[0] ?? 0).line,
    });
  }
  return { tests: { file, policy, cases }, problems };
}

/** The spec keys of the case's object and live object that are no field of their kind. */
function unknownFields(
  raw: Record<string, unknown>,
  provider: Provider | undefined,
): { side: 'object' | 'live'; key: string; message: string }[] {
  if (!provider?.fieldPaths) return [];
  // a keyed child list (a module's `versions`) is a field of the manifest too
  const fields = new Set([...topFields(provider.fieldPaths), ...(provider.children ?? []).map((child) => child.field)]);
  return (['object', 'live'] as const).flatMap((side) => {
    const spec = (raw[side] as { spec?: unknown } | null | undefined)?.spec;
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return [];
    return Object.keys(spec)
      .filter((key) => !fields.has(key))
      .map((key) => ({
        side,
        key,
        message: `${side}.spec.${key} is no field of ${provider.kind}${didYouMean(key, fields)}`,
      }));
  });
}

function caseProblem(raw: Record<string, unknown> | null, kinds: ReadonlySet<string>): string | undefined {
  const object = raw?.object as TestCase['object'] | undefined;
  if (typeof object?.kind !== 'string') return '`object` needs a `kind`';
  if (!kinds.has(object.kind)) return unknownKind(object.kind, kinds);
  if (!OUTCOMES.includes(raw?.expect as string)) return '`expect` is one of allow, deny, warn';
  const change = raw?.change as TestCase['change'] | undefined;
  if (change !== undefined && !ACTIONS.includes(change?.action))
    return `\`change.action\` is one of ${ACTIONS.join(', ')}`;
  return undefined;
}
