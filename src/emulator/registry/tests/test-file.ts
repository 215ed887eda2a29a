/**
 * One `*.tftest.hcl` file read through hcl2json into the parts the emulator
 * uses: the file-level `variables` block and the `run` blocks in file order.
 *
 * hcl2json returns blocks as a JSON object keyed by label with keys sorted
 * (Go map order), which loses the order Terraform runs them in. The order is
 * taken back from the source text: the position of each `run "<name>"` header.
 * That scan only orders names hcl2json already parsed; it does not parse HCL.
 */

import { parse } from '@cdktf/hcl2json';
import { TestFileError } from './errors.ts';

export interface AssertBlock {
  /** hcl2json's JSON for `condition`: usually a `${...}` string, a plain bool for a literal. */
  condition: unknown;
  errorMessage: unknown;
}

export interface RunBlock {
  name: string;
  command: 'plan' | 'apply';
  variables: Record<string, unknown>;
  asserts: AssertBlock[];
  /** The references listed, as written: `var.instance_count`. */
  expectFailures: string[];
}

export interface ParsedTestFile {
  variables: Record<string, unknown>;
  runs: RunBlock[];
}

const RUN_HEADER = /^[ \t]*run[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\{/gm;

/** The run names in the order their headers appear; used for ordering, and for naming runs of a file that fails to parse. */
export function runNamesInSource(text: string): string[] {
  return [...text.matchAll(RUN_HEADER)].map((match) => match[1]!);
}

export async function parseTestFile(path: string, text: string): Promise<ParsedTestFile> {
  let json: Record<string, unknown>;
  try {
    json = await parse(path, text);
  } catch (error) {
    throw new TestFileError((error as Error).message);
  }
  const runBodies = objectOf(json.run ?? {}, 'run blocks');
  const names = Object.keys(runBodies);
  const sourceOrder = runNamesInSource(text).filter((name, i, all) => names.includes(name) && all.indexOf(name) === i);
  const ordered = [...sourceOrder, ...names.filter((name) => !sourceOrder.includes(name))];
  return {
    variables: mergedBlocks(json.variables, 'variables block'),
    runs: ordered.map((name) => runBlock(name, runBodies[name])),
  };
}

function runBlock(name: string, bodies: unknown): RunBlock {
  const list = listOf(bodies, `run "${name}"`);
  if (list.length !== 1)
    throw new TestFileError(`Duplicate "run" block names: a run named "${name}" is defined ${list.length} times`);
  const body = objectOf(list[0], `run "${name}"`);
  const command = body.command === undefined ? 'apply' : stripWrapper(String(body.command));
  if (command !== 'plan' && command !== 'apply') {
    throw new TestFileError(`run "${name}": command must be plan or apply, got ${command}`);
  }
  const asserts = listOf(body.assert ?? [], `run "${name}" assert blocks`).map((assert, i) => {
    const fields = objectOf(assert, `run "${name}" assert ${i + 1}`);
    if (fields.condition === undefined)
      throw new TestFileError(`run "${name}" assert ${i + 1}: missing required argument "condition"`);
    return { condition: fields.condition, errorMessage: fields.error_message };
  });
  const expected = body.expect_failures;
  const expectFailures =
    expected === undefined
      ? []
      : Array.isArray(expected)
        ? expected.map((e) => stripWrapper(String(e)))
        : [stripWrapper(String(expected))];
  return {
    name,
    command,
    variables: mergedBlocks(body.variables, `run "${name}" variables block`),
    asserts,
    expectFailures,
  };
}

/** A reference hcl2json rendered as `${var.x}`, as written: `var.x`. */
function stripWrapper(rendered: string): string {
  return rendered.startsWith('${') && rendered.endsWith('}') ? rendered.slice(2, -1).trim() : rendered;
}

/** hcl2json renders repeated blocks as a list of bodies; their attributes are merged in order. */
function mergedBlocks(blocks: unknown, what: string): Record<string, unknown> {
  if (blocks === undefined) return {};
  return Object.assign({}, ...listOf(blocks, what).map((block) => objectOf(block, what)));
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TestFileError(`${what}: expected a block`);
  return value as Record<string, unknown>;
}

function listOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new TestFileError(`${what}: expected blocks`);
  return value;
}
