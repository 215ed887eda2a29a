/**
 * The values given for variables, gathered from every source and kept by
 * precedence (docs/environments.md, "Variables"): the command line wins
 * (`--var` over `--var-file`, a later file over an earlier one), then the
 * environment (`CONVERGE_VAR_<name>`), then the configuration (its
 * `variables` map over its `variables.files`, a later file over an earlier
 * one); a declaration's default comes last (variables.ts). Every value keeps
 * the place it was given at, for its problems.
 */
import { resolve } from 'node:path';
import { isScalar, parseDocument } from 'yaml';
import type { InputProblem } from '../errors.ts';
import type { Position } from '../reconcile/types.ts';
import { parseDocuments } from './documents.ts';
import { shownPath } from './files.ts';
import { MAX_MANIFEST_BYTES } from './read-manifest.ts';
import { readRegularFile } from './regular-file.ts';
import { utf8Problem } from './utf8.ts';
import type { GivenValue, GivenValues } from './variables.ts';

/** The environment variables that give variables: `CONVERGE_VAR_engineer_ttl`. */
const VARIABLE_ENV_PREFIX = 'CONVERGE_VAR_';

export interface ValueSources {
  /** `--var name=value`, in command-line order. */
  flags: readonly string[];
  /** `--var-file FILE`, in command-line order, relative to `cwd`. */
  flagFiles: readonly string[];
  env: Record<string, string | undefined>;
  /** The configuration's `variables`: files (absolute) and its own map, with where the map's values are. */
  config?: { files: readonly string[]; values: Record<string, unknown>; at: (name: string) => Position };
  cwd: string;
}

export function gatherValues(sources: ValueSources): GivenValues {
  const values = new Map<string, GivenValue>();
  const problems: InputProblem[] = [];
  const put = (entries: Iterable<[string, GivenValue]>) => {
    for (const [name, value] of entries) values.set(name, value);
  };
  const file = (path: string) => {
    const read = readValuesFile(path, sources.cwd);
    problems.push(...read.problems);
    put(read.values);
  };
  // lowest precedence first: each later source overwrites what it gives again
  for (const path of sources.config?.files ?? []) file(path);
  const config = sources.config;
  if (config) put(Object.entries(config.values).map(([name, value]) => [name, { value, at: config.at(name) }]));
  put(environmentValues(sources.env));
  for (const path of sources.flagFiles) file(resolve(sources.cwd, path));
  for (const flag of sources.flags) {
    const parsed = parseVarFlag(flag);
    // the flag is named without its value: the value may be a secret
    if ('error' in parsed) problems.push({ file: `--var ${parsed.name}`, line: 0, col: 0, message: parsed.error });
    else put([[parsed.name, { ...asText(parsed.text), at: { file: `--var ${parsed.name}`, line: 0, col: 0 } }]]);
  }
  return { values, problems };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `name=value`; the value is read later, as a YAML scalar. */
export function parseVarFlag(flag: string): { name: string; text: string } | { name: string; error: string } {
  const eq = flag.indexOf('=');
  const name = eq === -1 ? '' : flag.slice(0, eq);
  if (eq === -1 || !NAME.test(name)) {
    return { name, error: 'expects name=value, the name of a declared Variable (letters, digits and _)' };
  }
  return { name, text: flag.slice(eq + 1) };
}

function environmentValues(env: Record<string, string | undefined>): Array<[string, GivenValue]> {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[0].startsWith(VARIABLE_ENV_PREFIX) && entry[1] !== undefined)
    .map(([key, text]) => [
      key.slice(VARIABLE_ENV_PREFIX.length),
      { ...asText(text), at: { file: key, line: 0, col: 0 } },
    ]);
}

/**
 * Text from the command line or the environment, read as a YAML scalar (`45` a number, `true` a
 * boolean); anything else (a mapping, a list, a YAML error) stays the text as written.
 */
export function asText(text: string): { value: unknown; text: string } {
  if (text.trim() === '') return { value: text, text };
  const doc = parseDocument(text);
  const scalar = doc.errors.length === 0 && isScalar(doc.contents) ? doc.contents.value : text;
  return { value: scalar === null ? text : scalar, text };
}

/** A values file: one YAML (or JSON) mapping of variable names to values; each value placed at its line. */
function readValuesFile(path: string, cwd: string): { values: Array<[string, GivenValue]>; problems: InputProblem[] } {
  const name = shownPath(path, cwd);
  const at1 = (message: string) => ({ values: [], problems: [{ file: name, line: 1, col: 1, message }] });
  const read = readRegularFile(path, { maxBytes: MAX_MANIFEST_BYTES });
  if ('error' in read) return at1(`cannot read this values file: ${read.error}`);
  const notText = utf8Problem(read.bytes);
  if (notText) return { values: [], problems: [{ file: name, ...notText }] };
  const parsed = parseDocuments(read.bytes.toString('utf8'), name);
  if (parsed.problems.length > 0) return { values: [], problems: parsed.problems };
  const [doc, extra] = parsed.documents;
  if (extra)
    return {
      values: [],
      problems: [{ ...extra.start, message: 'a values file holds one mapping, not several documents' }],
    };
  if (doc === undefined) return { values: [], problems: [] };
  const data = doc.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      values: [],
      problems: [
        { ...doc.start, message: 'a values file is a mapping of variable names to values (engineer_ttl: 30m)' },
      ],
    };
  }
  const values: Array<[string, GivenValue]> = [];
  const problems: InputProblem[] = [];
  for (const [key, value] of Object.entries(data)) {
    const at = doc.values[key] ?? doc.start;
    if (NAME.test(key)) values.push([key, { value, at }]);
    else
      problems.push({ ...(doc.keys[key] ?? at), message: `"${key}" is not a variable name (letters, digits and _)` });
  }
  return { values, problems };
}
