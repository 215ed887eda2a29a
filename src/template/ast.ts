/**
 * The parsed form of a template. Only what the supported subset needs: text,
 * and actions made of pipelines whose stages are fields, literals, function
 * calls and parenthesised pipelines. Offsets point into the template text.
 */
import type { Value } from './values.ts';

export type Expr =
  | { kind: 'field'; name: string; offset: number }
  | { kind: 'literal'; value: Value; text: string; offset: number }
  /** `piped`: the previous stage's value is passed as the last argument, as Go does. */
  | { kind: 'call'; name: string; args: Expr[]; piped: boolean; offset: number }
  | { kind: 'pipeline'; stages: Expr[]; offset: number };

export type TemplateNode = { kind: 'text'; text: string } | { kind: 'action'; stages: Expr[]; offset: number };

export interface FieldRef {
  name: string;
  offset: number;
}

export interface ParsedTemplate {
  nodes: TemplateNode[];
  /** Every field reference in order, for `fields` and for checking them against an allowed list. */
  fieldRefs: FieldRef[];
}
