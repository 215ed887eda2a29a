/**
 * Reading hcl2json's JSON rendering of a configuration file. hcl2json renders
 * every block as a list of bodies (`variable.x = [{...}]`, even when there is
 * one), a literal as plain JSON, and any other expression as the string
 * `${<source text>}`; Terraform's own JSON syntax (`*.tf.json`) may write one
 * block as a bare object. These helpers accept both forms so the rest of the
 * ingest reads one shape.
 */

export type Body = Record<string, unknown>;

const isBody = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The bodies of a block type that has no labels (`terraform`, `moved`, `required_providers`). */
export function bodiesOf(value: unknown): Body[] {
  if (Array.isArray(value)) return value.filter(isBody);
  return isBody(value) ? [value] : [];
}

/** `(label, body)` for a block type with one label (`variable "x"`, `module "x"`). */
export function labelledBodies(value: unknown): Array<[string, Body]> {
  if (!isBody(value)) return [];
  return Object.entries(value).flatMap(([label, bodies]) =>
    bodiesOf(bodies).map((body): [string, Body] => [label, body]),
  );
}

/** `(first, second, body)` for a block type with two labels (`resource "type" "name"`). */
export function doublyLabelledBodies(value: unknown): Array<[string, string, Body]> {
  if (!isBody(value)) return [];
  return Object.entries(value).flatMap(([first, inner]) =>
    labelledBodies(inner).map(([second, body]): [string, string, Body] => [first, second, body]),
  );
}

/** The expression text behind hcl2json's `${...}` wrapper; other strings as they are. */
export function unwrapExpression(text: string): string {
  return text.startsWith('${') && text.endsWith('}') ? text.slice(2, -1).trim() : text;
}

/** An attribute that must be a string to mean anything (descriptions, versions); '' otherwise. */
export function stringAttribute(body: Body, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** A boolean attribute; HCL converts the strings "true"/"false" to bools, so they count too. */
export function boolAttribute(body: Body, name: string): boolean | undefined {
  const value = body[name];
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}
