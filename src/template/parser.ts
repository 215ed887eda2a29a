/**
 * Builds the AST of one template from the lexer's tokens, refusing what the
 * subset does not support with a TemplateError at the offending token:
 * control structures ({{if}}, {{range}}, {{with}}, {{define}}, ...),
 * variables, the bare dot, nested fields and non-integer numbers. Unknown
 * functions, wrong argument counts and literals of the wrong type are found
 * here too, since every action runs exactly once and would fail anyway.
 */
import type { Expr, FieldRef, ParsedTemplate, TemplateNode } from './ast.ts';
import { BUILTIN_FUNCTIONS, type ParamType, type TemplateFunction } from './functions.ts';
import { LiteralError, unquoteChar, unquoteString } from './go-strings.ts';
import { lex, type Token } from './lexer.ts';
import { TemplateError } from './template-error.ts';
import { type GoType, goTypeOf } from './values.ts';

export interface ParseOptions {
  /** LDIF templates may call utf16le. */
  ldif?: boolean;
}

const controlKeywords = new Set([
  'if',
  'else',
  'end',
  'range',
  'with',
  'define',
  'template',
  'block',
  'break',
  'continue',
]);

/** An operand before it is known whether it heads a command (a function call) or is an argument. */
type Operand = Expr | { kind: 'function'; name: string; offset: number };

export function functionsFor(ldif: boolean): string[] {
  return Object.entries(BUILTIN_FUNCTIONS)
    .filter(([, f]) => ldif || !f.ldifOnly)
    .map(([name]) => name)
    .sort();
}

export function parse(source: string, options: ParseOptions = {}): ParsedTemplate {
  const nodes: TemplateNode[] = [];
  const fieldRefs: FieldRef[] = [];
  for (const segment of lex(source)) {
    if (segment.kind === 'text') {
      if (segment.text !== '') nodes.push({ kind: 'text', text: segment.text });
      continue;
    }
    const parser = new ActionParser(source, segment.tokens, segment.offset, options.ldif === true, fieldRefs);
    nodes.push({ kind: 'action', stages: parser.parseAction(), offset: segment.offset });
  }
  return { nodes, fieldRefs };
}

class ActionParser {
  private i = 0;
  private readonly source: string;
  private readonly tokens: Token[];
  private readonly actionOffset: number;
  private readonly ldif: boolean;
  private readonly fieldRefs: FieldRef[];

  constructor(source: string, tokens: Token[], actionOffset: number, ldif: boolean, fieldRefs: FieldRef[]) {
    this.source = source;
    this.tokens = tokens;
    this.actionOffset = actionOffset;
    this.ldif = ldif;
    this.fieldRefs = fieldRefs;
  }

  private fail(message: string, offset: number): never {
    throw new TemplateError(message, this.source, offset);
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  parseAction(): Expr[] {
    const first = this.peek();
    if (first?.kind === 'identifier' && controlKeywords.has(first.text)) {
      this.fail(
        `{{${first.text}}} is not supported: these templates take fields, literals and function pipelines, not if/else/range/with/define/template/block`,
        first.offset,
      );
    }
    const stages = this.parsePipeline();
    const extra = this.peek();
    if (extra)
      this.fail(
        extra.kind === 'rightParen' ? 'unexpected ) in action' : `unexpected ${extra.text} in action`,
        extra.offset,
      );
    return stages;
  }

  /** command ('|' command)*, up to the end of the action or a `)`. */
  private parsePipeline(): Expr[] {
    const stages: Expr[] = [];
    for (;;) {
      const start = this.peek();
      const operands: Operand[] = [];
      for (let t = this.peek(); t && t.kind !== 'pipe' && t.kind !== 'rightParen'; t = this.peek()) {
        operands.push(this.parseOperand());
      }
      if (operands.length === 0) {
        // Point at the | or ( before the gap; at a stray | that opens the action; else at the action.
        const before = this.tokens[this.i - 1];
        const at = start?.kind === 'pipe' ? start : (before ?? start);
        this.fail('missing value for command', at?.offset ?? this.actionOffset);
      }
      stages.push(this.toStage(operands, stages));
      if (this.peek()?.kind !== 'pipe') return stages;
      this.i++;
    }
  }

  /** Turns a command's operands into one stage: a call when it starts with a function, else a lone value. */
  private toStage(operands: Operand[], previous: Expr[]): Expr {
    const [head, ...rest] = operands as [Operand, ...Operand[]];
    const piped = previous.length > 0;
    if (head.kind !== 'function') {
      if (rest.length > 0)
        this.fail(`cannot give arguments to ${describe(head)}: only functions take arguments`, rest[0]!.offset);
      if (piped) this.fail(`cannot pipe into ${describe(head)}: only functions take a piped value`, head.offset);
      return head;
    }
    const call: Expr = {
      kind: 'call',
      name: head.name,
      args: rest.map((o) => this.asArgument(o)),
      piped,
      offset: head.offset,
    };
    this.checkCall(call, piped ? previous[previous.length - 1] : undefined);
    return call;
  }

  /** A function named as an argument is called with no arguments, as in Go (`printf "%s" uuid`). */
  private asArgument(operand: Operand): Expr {
    if (operand.kind !== 'function') return operand;
    const call: Expr = { kind: 'call', name: operand.name, args: [], piped: false, offset: operand.offset };
    this.checkCall(call, undefined);
    return call;
  }

  private parseOperand(): Operand {
    const t = this.tokens[this.i++]!;
    switch (t.kind) {
      case 'field':
        if (t.text.indexOf('.', 1) > 0) {
          this.fail(`nested field ${t.text} is not supported: template fields are plain values`, t.offset);
        }
        this.fieldRefs.push({ name: t.text.slice(1), offset: t.offset });
        return { kind: 'field', name: t.text.slice(1), offset: t.offset };
      case 'dot':
        return this.fail('the bare dot (all the data) is not supported: name a field, such as .Username', t.offset);
      case 'string':
      case 'rawString':
        return { kind: 'literal', value: this.literal(t, unquoteString), text: t.text, offset: t.offset };
      case 'char':
        return { kind: 'literal', value: this.literal(t, unquoteChar), text: t.text, offset: t.offset };
      case 'number':
        return { kind: 'literal', value: this.number(t), text: t.text, offset: t.offset };
      case 'identifier':
        return this.identifier(t);
      case 'leftParen': {
        const stages = this.parsePipeline();
        if (this.peek()?.kind !== 'rightParen') this.fail('unclosed left parenthesis', t.offset);
        this.i++;
        return { kind: 'pipeline', stages, offset: t.offset };
      }
      case 'variable':
      case 'declare':
      case 'assign':
        return this.fail(`variables are not supported (found ${t.text})`, t.offset);
      default:
        return this.fail(`unexpected ${t.text} in operand`, t.offset);
    }
  }

  private identifier(t: Token): Operand {
    if (t.text === 'true' || t.text === 'false') {
      return { kind: 'literal', value: t.text === 'true', text: t.text, offset: t.offset };
    }
    if (t.text === 'nil') this.fail('nil is not supported', t.offset);
    if (controlKeywords.has(t.text)) this.fail(`unexpected keyword ${t.text} in operand`, t.offset);
    const fn: TemplateFunction | undefined = Object.hasOwn(BUILTIN_FUNCTIONS, t.text)
      ? BUILTIN_FUNCTIONS[t.text]
      : undefined;
    if (!fn) this.fail(`function "${t.text}" not defined; known: ${functionsFor(this.ldif).join(', ')}`, t.offset);
    if (fn.ldifOnly && !this.ldif) this.fail(`function "${t.text}" is only available in LDIF templates`, t.offset);
    return { kind: 'function', name: t.text, offset: t.offset };
  }

  private literal<T>(t: Token, decode: (raw: string) => T): T {
    try {
      return decode(t.text);
    } catch (e) {
      if (e instanceof LiteralError) this.fail(e.message, t.offset + e.at);
      throw e;
    }
  }

  /** Integers in Go's notations (decimal, 0x, 0o, 0b, leading-0 octal, underscores, 'sign'); no floats. */
  private number(t: Token): number {
    const sign = t.text.startsWith('-') ? -1n : 1n;
    let digits = t.text.replace(/^[+-]/, '').replaceAll('_', '');
    const isHex = /^0[xX]/.test(digits);
    if (digits.endsWith('i') || digits.includes('.') || (isHex ? /[pP]/ : /[eE]/).test(digits)) {
      this.fail(`floating-point and complex numbers are not supported (found ${t.text})`, t.offset);
    }
    if (/^0[0-9]/.test(digits)) digits = `0o${digits.slice(1)}`;
    let n: bigint;
    try {
      n = sign * BigInt(digits);
    } catch {
      return this.fail(`bad number syntax: ${t.text}`, t.offset);
    }
    if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER)) {
      this.fail(`integer ${t.text} is out of range`, t.offset);
    }
    return Number(n);
  }

  /** Argument count, and the types of arguments whose type is known before rendering. */
  private checkCall(call: Extract<Expr, { kind: 'call' }>, piped: Expr | undefined): void {
    const fn = BUILTIN_FUNCTIONS[call.name]!;
    const given = call.args.length + (piped ? 1 : 0);
    const want = fn.params.length;
    if (fn.variadic ? given < want : given !== want) {
      const signature = fn.params.join(', ') + (fn.variadic ? `, ${fn.variadic}...` : '');
      const how = piped ? ` (${call.args.length} written and 1 piped)` : '';
      this.fail(
        `wrong number of arguments for ${call.name}: want ${fn.variadic ? 'at least ' : ''}${want} (${signature}), got ${given}${how}`,
        call.offset,
      );
    }
    const args = piped ? [...call.args, piped] : call.args;
    args.forEach((arg, index) => {
      const expected = fn.params[index] ?? fn.variadic!;
      const actual = staticType(arg);
      if (actual && !accepts(expected, actual)) {
        const which = arg === piped ? 'the piped value' : `argument ${index + 1}`;
        const shown = arg.kind === 'literal' ? ` ${arg.text}` : '';
        this.fail(
          `wrong type for ${which} of ${call.name}: expected ${expected}, got ${actual}${shown}`,
          arg === piped ? call.offset : arg.offset,
        );
      }
    });
  }
}

function describe(operand: Expr): string {
  if (operand.kind === 'field') return `.${operand.name}`;
  if (operand.kind === 'literal') return operand.text;
  return 'a parenthesised pipeline';
}

/** The type of an expression when known before rendering; fields depend on the data. */
function staticType(expr: Expr): GoType | undefined {
  switch (expr.kind) {
    case 'literal':
      return goTypeOf(expr.value);
    case 'call':
      return 'string'; // every template function returns a string, as in Go
    case 'pipeline':
      return staticType(expr.stages[expr.stages.length - 1]!);
    default:
      return undefined;
  }
}

export function accepts(expected: ParamType, actual: GoType): boolean {
  return expected === 'any' || expected === actual;
}
