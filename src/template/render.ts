/**
 * Runs a parsed template over data. Each action's pipeline is evaluated as Go
 * does: a stage's value becomes the last argument of the next function. Field
 * values are checked against the functions' parameter types here, because
 * their types come with the data; a missing field is an error naming the
 * fields that exist.
 */
import type { Expr, ParsedTemplate } from './ast.ts';
import { BUILTIN_FUNCTIONS, type CallContext, defaultRandom, defaultUuid } from './functions.ts';
import { checkValueSize, outputRefusal, sizeOf, workRefusal } from './limits.ts';
import { accepts } from './parser.ts';
import { TemplateError, TemplateFunctionError, TemplateLimitError } from './template-error.ts';
import { concatValues, goTypeOf, printValue, toText, type Value } from './values.ts';

export interface RenderOptions {
  /** The clock of unix_time, unix_time_millis and timestamp (default: the system clock). */
  now?: () => Date;
  /** `random N` (default: N characters from A-Z a-z 0-9, from node:crypto). */
  random?: (n: number) => string;
  /** `uuid` (default: crypto.randomUUID). */
  uuid?: () => string;
  /** Whether utf16le may run; left out, it follows how the template was parsed. */
  ldif?: boolean;
}

export type TemplateData = Record<string, string | number>;

/** A problem that did not stop the render (printf's %!verb marks), at the call that caused it. */
export interface RenderNote {
  offset: number;
  message: string;
}

/** A value as it would appear in a template: strings quoted, numbers and booleans bare. */
function shown(value: Value): string {
  return typeof value === 'string' || value instanceof Uint8Array ? JSON.stringify(toText(value)) : String(value);
}

export function renderParsed(
  source: string,
  parsed: ParsedTemplate,
  data: TemplateData,
  options: RenderOptions = {},
): { output: string; notes: RenderNote[] } {
  const notes: RenderNote[] = [];
  let currentCall = 0;
  /** What the calls produced so far (./limits.ts). */
  let work = 0;
  const ctx: CallContext = {
    now: options.now ?? (() => new Date()),
    random: options.random ?? defaultRandom,
    uuid: options.uuid ?? defaultUuid,
    note: (message) => notes.push({ offset: currentCall, message }),
  };
  const fail = (message: string, offset: number, limit = false): never => {
    throw new TemplateError(message, source, offset, limit);
  };

  const lookup = (name: string, offset: number): Value => {
    const value = Object.hasOwn(data, name) ? data[name] : undefined;
    if (value === undefined || value === null) {
      const known = Object.keys(data)
        .sort()
        .map((k) => `.${k}`);
      return fail(`no field .${name}; known: ${known.length > 0 ? known.join(', ') : '(none)'}`, offset);
    }
    return value;
  };

  const evalStages = (stages: readonly Expr[]): Value => {
    let value: Value | undefined;
    for (const stage of stages) value = evalExpr(stage, value);
    return value!;
  };

  const evalExpr = (expr: Expr, piped: Value | undefined): Value => {
    switch (expr.kind) {
      case 'field':
        return lookup(expr.name, expr.offset);
      case 'literal':
        return expr.value;
      case 'pipeline':
        return evalStages(expr.stages);
      case 'call': {
        const fn = BUILTIN_FUNCTIONS[expr.name]!;
        if (fn.ldifOnly && options.ldif === false) {
          fail(`function "${expr.name}" is only available in LDIF templates`, expr.offset);
        }
        const args = expr.args.map((a) => evalExpr(a, undefined));
        if (expr.piped) args.push(piped!);
        args.forEach((arg, index) => {
          const expected = fn.params[index] ?? fn.variadic!;
          const integral = typeof arg !== 'number' || Number.isInteger(arg);
          if (!accepts(expected, goTypeOf(arg)) || (expected === 'int' && !integral)) {
            const source = expr.args[index];
            const which = source ? `argument ${index + 1}` : 'the piped value';
            const from = source?.kind === 'field' ? ` (.${source.name})` : '';
            fail(
              `wrong type for ${which} of ${expr.name}: expected ${expected === 'int' ? 'an integer' : expected}, got ${goTypeOf(arg)} ${shown(arg)}${from}`,
              source?.offset ?? expr.offset,
            );
          }
        });
        currentCall = expr.offset;
        let result: Value;
        try {
          result = fn.call(args, ctx);
          checkValueSize(sizeOf(result), 'the result');
        } catch (e) {
          if (e instanceof TemplateFunctionError)
            fail(`error calling ${expr.name}: ${e.message}`, expr.offset, e instanceof TemplateLimitError);
          throw e;
        }
        work += sizeOf(result);
        const overWork = workRefusal(work, expr.name);
        if (overWork) fail(overWork, expr.offset, true);
        return result;
      }
    }
  };

  const parts: Array<string | Uint8Array> = [];
  let size = 0;
  for (const node of parsed.nodes) {
    const part = node.kind === 'text' ? node.text : printValue(evalStages(node.stages));
    size += sizeOf(part);
    const overOutput = outputRefusal(size);
    if (overOutput) fail(overOutput, node.kind === 'action' ? node.offset : 0, true);
    parts.push(part);
  }
  // Bytes that are not UTF-8 (an unencoded utf16le) cannot be a JS string as such; they show as U+FFFD.
  return { output: toText(concatValues(parts)), notes };
}
