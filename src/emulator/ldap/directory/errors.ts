/**
 * DirectoryError: an LDAP result code and a message in the shape the real
 * secrets engine reports (it is written in Go with go-ldap, whose errors read
 * `LDAP Result Code 68 "Entry Already Exists": <diagnostic>`). Both backends
 * throw it, so the engine's error responses do not depend on which directory
 * sits behind it. Code 200 is go-ldap's "Network Error" for an unreachable
 * server.
 */

export const RESULT_CODE_NAMES: Readonly<Record<number, string>> = {
  0: 'Success',
  1: 'Operations Error',
  2: 'Protocol Error',
  3: 'Time Limit Exceeded',
  4: 'Size Limit Exceeded',
  7: 'Auth Method Not Supported',
  8: 'Strong Auth Required',
  10: 'Referral',
  11: 'Admin Limit Exceeded',
  12: 'Unavailable Critical Extension',
  13: 'Confidentiality Required',
  16: 'No Such Attribute',
  17: 'Undefined Attribute Type',
  18: 'Inappropriate Matching',
  19: 'Constraint Violation',
  20: 'Attribute Or Value Exists',
  21: 'Invalid Attribute Syntax',
  32: 'No Such Object',
  33: 'Alias Problem',
  34: 'Invalid DN Syntax',
  36: 'Alias Dereferencing Problem',
  48: 'Inappropriate Authentication',
  49: 'Invalid Credentials',
  50: 'Insufficient Access Rights',
  51: 'Busy',
  52: 'Unavailable',
  53: 'Unwilling To Perform',
  54: 'Loop Detect',
  64: 'Naming Violation',
  65: 'Object Class Violation',
  66: 'Not Allowed On Non Leaf',
  67: 'Not Allowed On RDN',
  68: 'Entry Already Exists',
  69: 'Object Class Modifications Prohibited',
  71: 'Affects Multiple DSAs',
  80: 'Other',
  200: 'Network Error',
};

export const NETWORK_ERROR = 200;

export class DirectoryError extends Error {
  /** The LDAP result code (RFC 4511 section 4.1.9), or 200 when the server could not be reached. */
  readonly code: number;
  /** The server's diagnostic message, or ours for the in-memory directory. */
  readonly diagnostic: string;

  constructor(code: number, diagnostic = '', options: { cause?: unknown } = {}) {
    const name = RESULT_CODE_NAMES[code] ?? 'Unknown';
    super(`LDAP Result Code ${code} "${name}"${diagnostic ? `: ${diagnostic}` : ''}`, options);
    this.name = 'DirectoryError';
    this.code = code;
    this.diagnostic = diagnostic;
  }
}
