/**
 * The LDAP secrets engine takes a role's creation/deletion/rollback LDIF
 * either as plain text or base64-encoded as a whole (operators encode it to
 * keep newlines intact through JSON and HCL). These two functions decide
 * which form a field holds, so the engine and offline validation agree.
 */
import { decodeBase64Text } from './attr-value.ts';

/**
 * True when `text` is base64 (whitespace and line breaks allowed) of UTF-8
 * text whose first line that is not a comment, blank or "version:" starts
 * with "dn:". Plain LDIF is never mistaken for base64: it contains ":".
 */
export function isBase64Ldif(text: string): boolean {
  return decodeWhole(text) !== undefined;
}

/** The LDIF a field holds: base64 text decoded, anything else as given. */
export function decodeLdifField(text: string): string {
  return decodeWhole(text) ?? text;
}

function decodeWhole(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') return undefined;
  const decoded = decodeBase64Text(compact);
  if (decoded === undefined) return undefined;
  return startsWithDn(decoded) ? decoded : undefined;
}

function startsWithDn(ldif: string): boolean {
  for (const line of ldif.split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('#') || line.startsWith(' ') || /^version:/i.test(line)) continue;
    return /^dn::?/i.test(line);
  }
  return false;
}
