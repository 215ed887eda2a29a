/**
 * Type expressions as hcl2json hands them over (source text in `${...}`) and
 * the one-line text the registry shows for them.
 */
import { describe, expect, it } from 'vitest';
import { renderTypeExpression } from '../../../src/emulator/registry/ingest/type-expression.ts';

/** A type's source text as hcl2json renders it. */
const asHcl2json = (source: string): string => `\${${source}}`;

describe('renderTypeExpression', () => {
  it.each([
    ['string', 'string'],
    ['map(list(string))', 'map(list(string))'],
    ['object({name=string,size=optional(number,10)})', 'object({ name = string, size = optional(number, 10) })'],
    ['object({\n  a = string,\n  b = number,\n})', 'object({ a = string, b = number })'],
    [
      'object({\n  /* block\n comment */ a = string\n  b = number // trailing\n})',
      'object({ a = string, b = number })',
    ],
    [
      'object({\n  a = optional(string, "x # not a comment, {}")\n  b = bool\n})',
      'object({ a = optional(string, "x # not a comment, {}"), b = bool })',
    ],
    [
      'object({\n  a = optional(list(string), [\n    "x",\n    "y",\n  ])\n})',
      'object({ a = optional(list(string), ["x", "y"]) })',
    ],
    ['object({\n  a = optional(object({}), {})\n})', 'object({ a = optional(object({}), {}) })'],
    ['tuple([\n  string,\n  number\n])', 'tuple([string, number])'],
    ['optional(number, -1)', 'optional(number, -1)'],
  ])('%j → %s', (source, rendered) => {
    expect(renderTypeExpression(asHcl2json(source))).toBe(rendered);
  });

  it('passes a quoted legacy type, which hcl2json gives without the wrapper, through', () => {
    expect(renderTypeExpression('list')).toBe('list');
  });

  it('is empty when the variable has no type', () => {
    expect(renderTypeExpression(undefined)).toBe('');
  });
});
