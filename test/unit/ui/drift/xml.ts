/**
 * A strict little XML reader for the JUnit tests: it accepts only well-formed
 * XML (one root, nested tags, quoted attributes, known entities, no stray `<`
 * or `&`) and returns the element tree with decoded text and attributes.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.-]*';
const ATTRIBUTE = new RegExp(`\\s+(${NAME})="([^"<]*)"`, 'y');

export function parseXml(source: string): XmlElement {
  let i = 0;
  const declaration = /^<\?xml [^?]*\?>\s*/.exec(source);
  if (declaration) i = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < source.length) {
    if (source.startsWith('</', i)) {
      const m = new RegExp(`</(${NAME})\\s*>`, 'y');
      m.lastIndex = i;
      const end = m.exec(source);
      const open = stack.pop();
      if (!end || !open || open.name !== end[1]) throw new Error(`mismatched closing tag at ${i}`);
      i = m.lastIndex;
      if (stack.length === 0) root = open;
    } else if (source[i] === '<') {
      const m = new RegExp(`<(${NAME})`, 'y');
      m.lastIndex = i;
      const start = m.exec(source);
      if (!start) throw new Error(`bad tag at ${i}`);
      if (root) throw new Error('content after the root element');
      const element: XmlElement = { name: start[1]!, attributes: {}, children: [], text: '' };
      i = m.lastIndex;
      for (;;) {
        ATTRIBUTE.lastIndex = i;
        const a = ATTRIBUTE.exec(source);
        if (!a) break;
        if (a[1]! in element.attributes) throw new Error(`duplicate attribute ${a[1]}`);
        element.attributes[a[1]!] = decode(a[2]!);
        i = ATTRIBUTE.lastIndex;
      }
      const close = /\s*(\/?)>/y;
      close.lastIndex = i;
      const c = close.exec(source);
      if (!c) throw new Error(`unterminated tag <${element.name}> at ${i}`);
      i = close.lastIndex;
      stack.at(-1)?.children.push(element);
      if (c[1] === '/') {
        if (stack.length === 0) root = element;
      } else stack.push(element);
    } else {
      const next = source.indexOf('<', i);
      const raw = source.slice(i, next === -1 ? source.length : next);
      const top = stack.at(-1);
      if (!top) {
        if (raw.trim() !== '') throw new Error('text outside the root element');
      } else top.text += decode(raw);
      i = next === -1 ? source.length : next;
    }
  }
  if (stack.length > 0 || !root) throw new Error('unclosed elements');
  return root;
}

function decode(text: string): string {
  return text.replace(/&[^;]*;?/g, (entity) => {
    const named: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };
    if (entity in named) return named[entity]!;
    const num = /^&#(x[0-9a-fA-F]+|[0-9]+);$/.exec(entity);
    if (num)
      return String.fromCodePoint(num[1]!.startsWith('x') ? Number.parseInt(num[1]!.slice(1), 16) : Number(num[1]));
    throw new Error(`bad entity ${entity}`);
  });
}

export function all(element: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) {
    if (child.name === name) out.push(child);
    out.push(...all(child, name));
  }
  return out;
}
