/**
 * Distinguished names as RFC 4514 writes them ("cn=Jane\, Jr.,ou=people,
 * dc=example,dc=org"). The LDIF parser validates "dn:" lines with it and the
 * emulator's in-memory directory compares DNs with it, so that "CN=Jane,
 * DC=example" and "cn=Jane,dc=example" name the same entry, as on a real
 * server. Values keep their case; comparing them case-insensitively is the
 * caller's choice (dnKey does).
 */

export interface DnAttributeValue {
  attribute: string;
  /** The unescaped value; for a "#04..." hex (BER) value the text as written, with `hex` set. */
  value: string;
  hex?: true;
}

export class DnError extends Error {
  readonly dn: string;
  /** 0-based offset in the DN where the problem is. */
  readonly index: number;

  constructor(dn: string, index: number, reason: string) {
    super(`invalid DN "${dn}": ${reason}`);
    this.name = 'DnError';
    this.dn = dn;
    this.index = index;
  }
}

const ATTRIBUTE = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)*)$/;
/** Characters RFC 4514 lets a backslash escape by themselves. */
const ESCAPABLE = new Set([' ', '"', '#', '+', ',', ';', '<', '=', '>', '\\']);
/** Characters that must be escaped inside a value (RFC 4514 section 3, SUTF1). */
const MUST_ESCAPE = new Set(['"', ';', '<', '>']);
const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a DN into its RDNs, each a list of attribute-value pairs (more than
 * one for a multi-valued RDN such as "cn=a+uid=b"). The empty DN is [].
 */
export function parseRdns(dn: string): DnAttributeValue[][] {
  if (dn.trim() === '') return [];
  const rdns: DnAttributeValue[][] = [];
  let rdn: DnAttributeValue[] = [];
  let index = 0;
  for (;;) {
    const { ava, next } = readAttributeValue(dn, index);
    rdn.push(ava);
    index = next;
    if (index >= dn.length) break;
    if (dn[index] === ',') {
      rdns.push(rdn);
      rdn = [];
    }
    index++;
  }
  rdns.push(rdn);
  return rdns;
}

/**
 * Parses a DN into one attribute-value pair per RDN, the form almost every
 * DN has. Throws DnError for a multi-valued RDN; use parseRdns for those.
 */
export function parseDn(dn: string): Array<{ attribute: string; value: string }> {
  return parseRdns(dn).map((rdn) => {
    if (rdn.length > 1) throw new DnError(dn, 0, 'multi-valued RDNs ("a=1+b=2") are not supported here');
    const { attribute, value } = rdn[0]!;
    return { attribute, value };
  });
}

/** Escapes a value for use in a DN (RFC 4514 section 2.4). */
export function escapeDnValue(value: string): string {
  const chars = Array.from(value);
  return chars
    .map((char, index) => {
      if (char === '\0') return '\\00';
      if (char === '\\' || char === ',' || char === '+' || MUST_ESCAPE.has(char)) return `\\${char}`;
      if (index === 0 && (char === '#' || char === ' ')) return `\\${char}`;
      if (index === chars.length - 1 && char === ' ') return '\\ ';
      return char;
    })
    .join('');
}

/** One RDN written back in the canonical form normalizeDn uses. */
export function formatRdn(rdn: DnAttributeValue[]): string {
  return rdn.map((ava) => `${ava.attribute.toLowerCase()}=${ava.hex ? ava.value : escapeDnValue(ava.value)}`).join('+');
}

/**
 * A DN with lower-case attribute names, no spaces around "=", "," and "+",
 * and minimal escaping; values keep their case. Throws DnError.
 */
export function normalizeDn(dn: string): string {
  return parseRdns(dn).map(formatRdn).join(',');
}

/** A key under which DNs that name the same entry compare equal (values case-insensitively, like cn and dc). */
export function dnKey(dn: string): string {
  return normalizeDn(dn).toLowerCase();
}

function readAttributeValue(dn: string, from: number): { ava: DnAttributeValue; next: number } {
  let equals = from;
  while (equals < dn.length && !'=,+'.includes(dn[equals]!)) equals++;
  if (dn[equals] !== '=') throw new DnError(dn, from, `expected "attribute=value" at offset ${from}`);
  const attribute = dn.slice(from, equals).trim();
  if (!ATTRIBUTE.test(attribute)) throw new DnError(dn, from, `invalid attribute type "${attribute}"`);
  let index = equals + 1;
  while (dn[index] === ' ') index++;
  if (dn[index] === '#') return readHexValue(dn, attribute, index);
  const bytes: number[] = [];
  // Length of `bytes` up to the last character that is not an unescaped space:
  // trailing spaces before "," or the end are not part of the value.
  let significant = 0;
  while (index < dn.length && dn[index] !== ',' && dn[index] !== '+') {
    const char = dn[index]!;
    if (char === '\\') {
      const pair = dn.slice(index + 1, index + 3);
      if (HEX_PAIR.test(pair)) {
        bytes.push(Number.parseInt(pair, 16));
        index += 3;
      } else if (ESCAPABLE.has(dn[index + 1] ?? '')) {
        bytes.push(dn.charCodeAt(index + 1));
        index += 2;
      } else {
        throw new DnError(dn, index, `invalid escape at offset ${index}`);
      }
      significant = bytes.length;
      continue;
    }
    if (MUST_ESCAPE.has(char)) throw new DnError(dn, index, `"${char}" at offset ${index} must be escaped`);
    const code = dn.codePointAt(index)!;
    const encoded = Buffer.from(String.fromCodePoint(code), 'utf8');
    bytes.push(...encoded);
    if (char !== ' ') significant = bytes.length;
    index += code > 0xffff ? 2 : 1;
  }
  let value: string;
  try {
    value = utf8.decode(Uint8Array.from(bytes.slice(0, significant)));
  } catch {
    throw new DnError(dn, from, `value of "${attribute}" is not UTF-8 once unescaped`);
  }
  if (index < dn.length && index + 1 >= dn.length) throw new DnError(dn, index, 'ends with a separator');
  return { ava: { attribute, value }, next: index };
}

function readHexValue(dn: string, attribute: string, from: number): { ava: DnAttributeValue; next: number } {
  let index = from + 1;
  while (index < dn.length && /[0-9A-Fa-f]/.test(dn[index]!)) index++;
  const value = dn.slice(from, index);
  if (value.length < 3 || value.length % 2 === 0) throw new DnError(dn, from, `invalid hex value "${value}"`);
  while (dn[index] === ' ') index++;
  if (index < dn.length && dn[index] !== ',' && dn[index] !== '+') {
    throw new DnError(dn, index, `unexpected "${dn[index]}" after a hex value`);
  }
  if (index < dn.length && index + 1 >= dn.length) throw new DnError(dn, index, 'ends with a separator');
  return { ava: { attribute, value, hex: true }, next: index };
}
