/**
 * A policy's test cases (docs/policies.md, "Testing policies"): `<policy>.test.yaml` next to the
 * policy, each case an example object written as in a manifest, optionally the live object and
 * the change, and the outcome expected. Read and checked here; run by src/policy/test-runner.ts.
 */
import { basename } from 'node:path';
import type { InputProblem } from '../errors.ts';
import { parseDocuments, positionOf } from '../manifest/documents.ts';
import { explainErrors, type SchemaProblem } from '../manifest/schema-problems.ts';
import type { SchemaSet } from '../manifest/schemas.ts';
import { didYouMean, unknownKind } from '../manifest/suggest.ts';
import { parentLists } from '../reconcile/children.ts';
import { isPlainObject } from '../reconcile/equal.ts';
import { topFields } from '../reconcile/field-paths.ts';
import type { Provider } from '../reconcile/provider.ts';
import type { Outcome } from './evaluate.ts';

export interface TestCase {
  name: string;
  /** `metadata` as its kind's schema reads it: its defaults filled in. */
  object: { kind: string; metadata: Record<string, unknown>; spec?: Record<string, unknown> };
  /** Its metadata is the object's address, as plan gives it (src/policy/test-runner.ts). */
  live?: { spec?: Record<string, unknown> } | null;
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
 * `allow` would pass whatever the rule says. `schemas`: the kinds' schemas, which an example's
 * metadata is read by as a manifest's is.
 */
export function parseTestFile(
  file: string,
  text: string,
  providers: ReadonlyMap<string, Provider>,
  schemas: SchemaSet,
): { tests?: TestFile; problems: InputProblem[] } {
  // read as a manifest is (docs/security.md, "Reading input"): its limits, and a number YAML
  // cannot keep exactly refused rather than rounded
  const parsed = parseDocuments(text, file);
  if (parsed.problems.length > 0) return { problems: parsed.problems };
  const [source, second] = parsed.documents;
  if (second) return { problems: [{ ...second.start, message: 'a test file is one YAML document' }] };
  const data = source?.data as { policy?: unknown; cases?: unknown } | null | undefined;
  if (!source || !Array.isArray(data?.cases) || data.cases.length === 0) {
    const start = source?.start ?? { file, line: 1, col: 1 };
    return { problems: [{ ...start, message: 'a test file holds `cases:`, a list of {object, expect}' }] };
  }
  const problems: InputProblem[] = [];
  const problemAt = (path: string, message: string, atKey = false): InputProblem => ({
    ...positionOf(source, path, atKey),
    message,
  });
  if (data.policy !== undefined && typeof data.policy !== 'string') {
    problems.push(problemAt('policy', '`policy` is the name of the policy tested, a string'));
  }
  const policy = typeof data.policy === 'string' ? data.policy : basename(file).replace(/\.test\.ya?ml$/i, '');
  const kinds = new Set(providers.keys());
  // a module's version is written with its module's metadata, as plan gives it
  const metadataKinds = new Map([...parentLists(providers.values())].map(([kind, { parent }]) => [kind, parent.kind]));
  const cases: TestCase[] = [];
  for (const [index, raw] of (data.cases as unknown[]).entries()) {
    const problem = caseProblem(raw, kinds);
    if (problem) {
      const path = problem.path ? `cases.${index}.${problem.path}` : `cases.${index}`;
      problems.push(problemAt(path, `case ${index + 1}: ${problem.message}`, problem.atKey));
      continue;
    }
    const valid = raw as Record<string, unknown>;
    const misnamed = unknownFields(valid, providers.get((valid.object as TestCase['object']).kind));
    for (const { side, key, message } of misnamed) {
      problems.push(problemAt(`cases.${index}.${side}.spec.${key}`, `case ${index + 1}: ${message}`, true));
    }
    if (misnamed.length > 0) continue;
    const object = valid.object as TestCase['object'];
    const metadata = readMetadata(schemas, metadataKinds.get(object.kind) ?? object.kind, object.metadata ?? {});
    for (const { path, atKey, message } of metadata.problems) {
      problems.push(problemAt(`cases.${index}.object.${path}`, `case ${index + 1}: ${message}`, atKey));
    }
    if (metadata.problems.length > 0) continue;
    const change = valid.change as TestCase['change'] | undefined;
    cases.push({
      name: typeof valid.name === 'string' ? valid.name : `case ${index + 1}`,
      object: { ...object, metadata: metadata.read },
      ...(valid.live !== undefined && { live: valid.live as TestCase['live'] }),
      ...(change && { change }),
      expect: valid.expect as Outcome,
      line: positionOf(source, `cases.${index}`).line,
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

/**
 * An example's metadata read as a manifest's is by its kind's schema: the schema's defaults (an SSH
 * role's `mount: ssh`) under what is written, and what the schema refuses, a key it does not have
 * (`lables`) or a value of another type or form (`name: 42`, `labels: [a]`, a mount that is no
 * path). A field left out is not refused: a case may give a prune's address alone, or no name.
 */
function readMetadata(
  schemas: SchemaSet,
  kind: string,
  metadata: Record<string, unknown>,
): { read: Record<string, unknown>; problems: SchemaProblem[] } {
  const validate = schemas.validator(kind);
  // validated as the metadata of a document of its kind, on a copy the validator fills defaults into
  const read = structuredClone(metadata);
  if (validate({ kind, metadata: read })) return { read, problems: [] };
  const problems = explainErrors(validate.errors ?? [], () => undefined);
  return { read, problems: problems.filter((problem) => problem.path.startsWith('metadata.')) };
}

/** What is wrong with a case, and where: a dotted path inside it (`change.paths`; '' for the case itself). */
interface CaseProblem {
  path: string;
  message: string;
  /** Point at the key rather than its value: a key that has no place in the case. */
  atKey?: boolean;
}

const CASE_KEYS: readonly string[] = ['name', 'object', 'live', 'change', 'expect'];
const OBJECT_KEYS: readonly string[] = ['kind', 'metadata', 'spec'];
const LIVE_KEYS: readonly string[] = ['spec'];
const CHANGE_KEYS: readonly string[] = ['action', 'paths'];

/**
 * The first thing wrong with a case. Every part is checked for its shape: a part the runner cannot
 * read as written (`spec: [1, 2]`, `live: 5`, `paths: url`) would otherwise be read as an empty
 * one, and the case would test something else than what it says.
 */
function caseProblem(raw: unknown, kinds: ReadonlySet<string>): CaseProblem | undefined {
  if (!isPlainObject(raw)) return { path: '', message: 'a case is a map: {name, object, live, change, expect}' };
  return (
    unknownKey(raw, CASE_KEYS, '') ??
    nameProblem(raw.name) ??
    objectProblem(raw.object, kinds) ??
    liveProblem(raw.live) ??
    changeProblem(raw.change) ??
    (OUTCOMES.includes(raw.expect as string)
      ? undefined
      : { path: 'expect', message: '`expect` is one of allow, deny, warn' })
  );
}

function nameProblem(name: unknown): CaseProblem | undefined {
  if (name === undefined || typeof name === 'string') return undefined;
  return { path: 'name', message: '`name` is a string: quote a name YAML would read as a number or a bool' };
}

function objectProblem(object: unknown, kinds: ReadonlySet<string>): CaseProblem | undefined {
  if (!isPlainObject(object)) return { path: 'object', message: '`object` is a map: {kind, metadata, spec}' };
  if (typeof object.kind !== 'string') return { path: 'object', message: '`object` needs a `kind`' };
  if (!kinds.has(object.kind)) return { path: 'object.kind', message: unknownKind(object.kind, kinds) };
  return unknownKey(object, OBJECT_KEYS, 'object') ?? mapProblem(object, 'object', ['metadata', 'spec']);
}

const LIVE_METADATA = "`live` has no metadata of its own: it is the object's address, `name` and `scope`, as in a plan";

/** `live` is optional, and `null` says there is none (a create). */
function liveProblem(live: unknown): CaseProblem | undefined {
  if (live === undefined || live === null) return undefined;
  if (!isPlainObject(live)) return { path: 'live', message: '`live` is a map, {spec}, or null for no live object' };
  // plan reads the live object of the object's address, and sees only that address of it: metadata
  // written here (labels, another name) would be what no plan ever shows a rule
  if (live.metadata !== undefined) return { path: 'live.metadata', atKey: true, message: LIVE_METADATA };
  return unknownKey(live, LIVE_KEYS, 'live') ?? mapProblem(live, 'live', ['spec']);
}

function changeProblem(change: unknown): CaseProblem | undefined {
  if (change === undefined) return undefined;
  if (!isPlainObject(change)) return { path: 'change', message: '`change` is a map: {action, paths}' };
  const unknown = unknownKey(change, CHANGE_KEYS, 'change');
  if (unknown) return unknown;
  if (!ACTIONS.includes(change.action as string))
    return { path: 'change.action', message: `\`change.action\` is one of ${ACTIONS.join(', ')}` };
  const { paths } = change;
  if (paths !== undefined && !(Array.isArray(paths) && paths.every((p) => typeof p === 'string')))
    return { path: 'change.paths', message: '`change.paths` is a list of field paths: [max_ttl]' };
  return undefined;
}

/** The first of `keys` that `parent` gives as something else than a map. */
function mapProblem(parent: Record<string, unknown>, side: string, keys: readonly string[]): CaseProblem | undefined {
  const key = keys.find((k) => parent[k] !== undefined && !isPlainObject(parent[k]));
  return key === undefined ? undefined : { path: `${side}.${key}`, message: `\`${side}.${key}\` is a map` };
}

/** A key the case does not read (`chnage:`): the case would run without it. */
function unknownKey(map: Record<string, unknown>, known: readonly string[], at: string): CaseProblem | undefined {
  const key = Object.keys(map).find((k) => !known.includes(k));
  if (key === undefined) return undefined;
  const where = at ? `${at}.${key}` : key;
  return { path: where, atKey: true, message: `\`${where}\` is not read by a test case${didYouMean(key, known)}` };
}
