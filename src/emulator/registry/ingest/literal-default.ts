/**
 * A variable's `default` as the JSON value the registry serves. hcl2json
 * renders literals as JSON but keeps Terraform's JSON-syntax escapes in
 * strings: a literal `${` or `%{` arrives as `$${` / `%%{`. Those are undone.
 * A string that still holds a live `${`/`%{` is an expression hcl2json could
 * not fold to a constant (`1 + 1` arrives as `"${1 + 1}"`); it is kept as
 * that text, which is what a reader of the registry page needs to see.
 */

/** An unescaped `${` or `%{`: the same test the test runner uses (../tests/hcl-values.ts). */
const INTERPOLATION = /(?<!\$)\$\{|(?<!%)%\{/;

export function literalDefault(value: unknown): unknown {
  if (typeof value === 'string') {
    return INTERPOLATION.test(value) ? value : value.replaceAll('$${', '${').replaceAll('%%{', '%{');
  }
  if (Array.isArray(value)) return value.map(literalDefault);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, literalDefault(item)]));
  }
  return value;
}
