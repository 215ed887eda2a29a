/**
 * Values the emulated `terraform test` computes with, and the few conversions
 * Terraform applies to them. The emulator never sees the module's variable
 * declarations, so it cannot know a variable's type: a value from TF_VAR_x is a
 * string even when the module declares `number`. To give the answer a declared
 * type would give, comparisons convert a string to the number or bool on the
 * other side (as Terraform converts a variable to its declared type), and
 * `<`, `>`, `&&`, `!` convert operands exactly as Terraform's operators do.
 */

import { EvaluationError } from './errors.ts';

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

export function isList(value: Value): value is Value[] {
  return Array.isArray(value);
}

export function isObject(value: Value): value is { [key: string]: Value } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How Terraform shows a value that comes from a sensitive variable, in place of the value. */
export const SENSITIVE_VALUE = '(sensitive value)';

/** A value as a log shows it: written as a literal, or `(sensitive value)` when it is sensitive. */
export function shownValue(value: Value, sensitive = false): string {
  return sensitive ? SENSITIVE_VALUE : renderValue(value);
}

/** The value written as a configuration-language literal, for logs: `"a"`, `3`, `["a", "b"]`, `{a = 1}`. */
export function renderValue(value: Value): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isList(value)) return `[${value.map(renderValue).join(', ')}]`;
  const items = Object.entries(value).map(
    ([k, v]) => `${/^[A-Za-z_][\w-]*$/.test(k) ? k : JSON.stringify(k)} = ${renderValue(v)}`,
  );
  return `{${items.join(', ')}}`;
}

function typeName(value: Value): string {
  if (value === null) return 'null';
  if (isList(value)) return 'list';
  if (isObject(value)) return 'object';
  return typeof value;
}

/** Terraform's string-to-number conversion: the whole string must be a number. */
function stringAsNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || !/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/** What an error says it got: the type, and the value unless it is sensitive. */
function got(value: Value, sensitive: boolean): string {
  return `${typeName(value)} ${shownValue(value, sensitive)}`;
}

export function toNumber(value: Value, context: string, sensitive = false): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const number = stringAsNumber(value);
    if (number !== undefined) return number;
  }
  throw new EvaluationError(`Invalid operand for ${context}: a number is required, got ${got(value, sensitive)}`);
}

export function toBool(value: Value, context: string, sensitive = false): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new EvaluationError(`Invalid operand for ${context}: a bool is required, got ${got(value, sensitive)}`);
}

/** `==` as Terraform computes it, plus the string-to-declared-type conversion explained above. */
export function valuesEqual(left: Value, right: Value): boolean {
  if (typeof left === 'string' && (typeof right === 'number' || typeof right === 'boolean')) {
    return sameAfterConversion(left, right);
  }
  if (typeof right === 'string' && (typeof left === 'number' || typeof left === 'boolean')) {
    return sameAfterConversion(right, left);
  }
  if (isList(left) || isList(right)) {
    return (
      isList(left) && isList(right) && left.length === right.length && left.every((v, i) => valuesEqual(v, right[i]!))
    );
  }
  if (isObject(left) || isObject(right)) {
    if (!isObject(left) || !isObject(right)) return false;
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length && keys.every((k) => k in right && valuesEqual(left[k]!, right[k]!))
    );
  }
  return left === right;
}

function sameAfterConversion(text: string, other: number | boolean): boolean {
  if (typeof other === 'number') return stringAsNumber(text) === other;
  return text === String(other);
}

/** `length()`: characters of a string, elements of a list, attributes of an object. */
export function lengthOf(value: Value, sensitive = false): number {
  if (typeof value === 'string') return [...value].length;
  if (isList(value)) return value.length;
  if (isObject(value)) return Object.keys(value).length;
  throw new EvaluationError(
    `Invalid function argument for length(): a string, list or object is required, got ${got(value, sensitive)}`,
  );
}

/** How a template (`"a-${var.x}"`) turns an interpolated value into text. */
export function toTemplateText(value: Value, sensitive = false): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new EvaluationError(
    `Invalid template interpolation value: cannot include ${got(value, sensitive)} in a string`,
  );
}
