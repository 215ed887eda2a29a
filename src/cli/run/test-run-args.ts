/**
 * The arguments of `converge test run`, checked before anything is packed or
 * sent: the module address and the `--var` values. Pure.
 */
import { ConvergeError } from '../../errors.ts';

export interface ModuleAddress {
  organization: string;
  name: string;
  provider: string;
}

/**
 * Name and namespace rules of the registry (docs/commands.md, "converge test
 * run"): letters and digits, with dashes and underscores only inside; the
 * provider lowercase letters and digits; 64 characters at most each.
 */
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62}[A-Za-z0-9])?$/;
const PROVIDER = /^[a-z0-9]{1,64}$/;

/** `ORG/NAME/PROVIDER`, the private module whose tests run; anything else is a usage error that says why. */
export function parseModuleAddress(text: string): ModuleAddress {
  const parts = text.split('/');
  const usage = 'write the module as ORG/NAME/PROVIDER, e.g. example-org/network/aws';
  if (parts.length !== 3) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `"${text}" is not a module address: expected 3 parts separated by "/", found ${parts.length}`,
      { hint: usage },
    );
  }
  const [organization = '', name = '', provider = ''] = parts;
  const checks: Array<[string, string, RegExp, string]> = [
    ['organization', organization, NAME, 'letters, digits, and dashes or underscores inside'],
    ['name', name, NAME, 'letters, digits, and dashes or underscores inside'],
    ['provider', provider, PROVIDER, 'lowercase letters and digits'],
  ];
  for (const [what, value, pattern, rule] of checks) {
    if (value === '') throw new ConvergeError('INPUT_INVALID', `"${text}": the ${what} is empty`, { hint: usage });
    if (!pattern.test(value)) {
      throw new ConvergeError('INPUT_INVALID', `"${text}": the ${what} "${value}" is not valid`, {
        hint: `a module ${what} is 1-64 characters: ${rule}; ${usage}`,
      });
    }
  }
  return { organization, name, provider };
}

/** A run variable as the API takes it: the value a configuration-language literal. */
export interface RunVariable {
  key: string;
  value: string;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * `--var key=value`. The value is sent as written when it already is a
 * literal: a number, `true`, `false`, `null`, or text starting with `"`, `[`
 * or `{` (a quoted string, a list, an object). Anything else is a plain
 * string and is sent quoted, with `${` and `%{` escaped so that it stays
 * literal text: `--var region=eu-west-1` sends `"eu-west-1"`. To send a string
 * that looks like a number or a bool, quote it: `--var port='"8080"'`.
 * A key given twice: the last value wins.
 */
export function parseRunVariables(values: readonly string[]): RunVariable[] {
  const byKey = new Map<string, string>();
  for (const text of values) {
    const { key, value } = splitVar(text);
    if (value === undefined || key === '' || !KEY.test(key)) {
      throw new ConvergeError('INPUT_INVALID', `--var ${text}: expected NAME=VALUE with NAME a variable name`, {
        hint: 'e.g. --var region=eu-west-1 --var instance_count=2 --var \'zones=["a","b"]\'',
      });
    }
    byKey.set(key, literal(value));
  }
  return [...byKey].map(([key, value]) => ({ key, value }));
}

/** `NAME=VALUE` split at its first `=`; no value when there is none. */
function splitVar(text: string): { key: string; value?: string } {
  const eq = text.indexOf('=');
  return eq < 0 ? { key: text } : { key: text.slice(0, eq), value: text.slice(eq + 1) };
}

/** A value written as a literal of its own (a quoted string, a list, an object): sent as written. */
const writtenAsLiteral = (value: string): boolean => /^\s*["[{]/.test(value);

/** The configuration-language literal for a `--var` value (see parseRunVariables). */
export function literal(value: string): string {
  const trimmed = value.trim();
  if (NUMBER.test(trimmed) || ['true', 'false', 'null'].includes(trimmed)) return trimmed;
  if (writtenAsLiteral(trimmed)) return value;
  return quoteString(value);
}

/** A quoted string literal whose content is exactly `text`: no escape or template sequence is read in it. */
export function quoteString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  // `${` and `%{` open a template sequence; doubled, they are the literal characters
  return `${out.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{')}"`;
}

/**
 * The values written as literals (`"…`, `[…`, `{…`) must parse as one, before anything is sent:
 * the platform refuses a broken one only once the module is uploaded and the run started. The
 * configuration language's parser (hcl2json, WebAssembly) is loaded only when a value needs it.
 */
export async function checkRunVariables(values: readonly string[]): Promise<void> {
  // what parseRunVariables sends as written; the rest it quotes itself
  const literals = values.map(splitVar).filter(({ value }) => value !== undefined && writtenAsLiteral(value));
  if (literals.length === 0) return;
  const { parse } = await import('@cdktf/hcl2json');
  for (const { key, value } of literals) {
    const why = await parse('var.hcl', `value = ${value}\n`).then(
      (json) => (Object.keys(json).length === 1 && 'value' in json ? undefined : 'not one value'),
      (error: Error) => error.message.split('\n')[0] ?? 'not a literal',
    );
    if (why !== undefined) {
      throw new ConvergeError('INPUT_INVALID', `--var ${key}: the value is not a valid literal (${why})`, {
        hint: `a value starting with ", [ or { is sent as a literal: close it (--var region='"eu"', --var zones='["a","b"]'), or write a plain string without its quote`,
      });
    }
  }
}
