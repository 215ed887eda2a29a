/**
 * The `${resolver:arg}` syntax of string values. Pure: resolving is done by
 * the caller. `$${` stands for a literal `${`.
 */

export type Placeholder = { resolver: string; arg: string; source: string };
export type TemplatePart = { text: string } | Placeholder;

// biome-ignore lint/suspicious/noTemplateCurlyInString: this is the placeholder syntax, shown to users
export const PLACEHOLDER_HELP = 'use ${env:NAME}, ${file:path} or ${var:name}, or write $${ for a literal ${';

export function parseTemplate(value: string): { parts: TemplatePart[] } | { error: string } {
  const parts: TemplatePart[] = [];
  let text = '';
  let i = 0;
  while (i < value.length) {
    if (value.startsWith('$${', i)) {
      text += '${';
      i += 3;
    } else if (value.startsWith('${', i)) {
      const end = value.indexOf('}', i + 2);
      if (end === -1) return { error: `unterminated "\${" in a string value; ${PLACEHOLDER_HELP}` };
      const source = value.slice(i, end + 1);
      const inner = value.slice(i + 2, end);
      if (inner.includes('${')) {
        return { error: `a placeholder cannot contain another one ("${source}}"); ${PLACEHOLDER_HELP}` };
      }
      const colon = inner.indexOf(':');
      if (colon <= 0 || colon === inner.length - 1) {
        return { error: `"${source}" is not a placeholder; ${PLACEHOLDER_HELP}` };
      }
      if (text) parts.push({ text });
      text = '';
      parts.push({ resolver: inner.slice(0, colon), arg: inner.slice(colon + 1), source });
      i = end + 1;
    } else {
      text += value[i];
      i += 1;
    }
  }
  if (text || parts.length === 0) parts.push({ text });
  return { parts };
}

/** True when the string needs parsing at all (fast path for the common case). */
export function hasTemplate(value: string): boolean {
  return value.includes('${');
}
