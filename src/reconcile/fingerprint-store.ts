/**
 * The fingerprint store: keyed hashes of the write-only (and interpolated)
 * values converge sent, never the values. It lets a plan tell whether a secret
 * changed since the last apply without being able to read it back. File I/O
 * lives here, at the edge; the planner only sees the pure `lookup`.
 *
 * Entries are namespaced per API and server (`platform@https://tfe.example.com`,
 * without credentials or query), so configuring a second API never orphans the
 * first one's entries. Each namespace hashes with a key derived by scrypt from
 * that API's token and a random salt: the file alone does not let anyone test
 * guesses of a weak secret offline (docs/security.md, "Secrets at rest"). A
 * changed token or an older store format means the entries cannot be compared:
 * the plan says so and sends those secrets once more.
 *
 * scrypt is slow on purpose (tens to hundreds of ms a key), so a namespace's key is derived when
 * a secret of that API is first compared or recorded: a plan that declares no write-only value
 * for an API derives no key for it (docs/performance.md, "Start-up").
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConvergeError } from '../errors.ts';
import { deriveKeyWithCheck, keyedHash } from './keyed-digest.ts';
import type { FingerprintLookup } from './secrets.ts';
import type { Json } from './types.ts';

interface StoreFile {
  /** 3: each hash is bound to its entry's name (version 2 hashed the value alone). */
  version: 3;
  salt: string;
  /** Per namespace, an HMAC of a fixed text with its key: tells whether the token changed. */
  keyChecks: Record<string, string>;
  /** A hash per secret field; INCOMPARABLE where the field held a secret whose hash cannot be compared. */
  entries: Record<string, string>;
}

/**
 * The entry of a field that held a secret whose hash was made under another token or by an older
 * store: no hash equals it, so its value is sent once more, and it still says the field is secret
 * (`has`), run after run until the field is recorded again: an apply that does not send it (a
 * `--target` elsewhere) must not forget it, or export and plans would show its value.
 */
const INCOMPARABLE = '';

/** One API's server and token, as the store namespaces and keys its entries. */
export interface StoreNamespace {
  /** `platform@https://tfe.example.com`: no credentials, no query (serverNamespace). */
  name: string;
  token: string;
}

const KEY_CHECK = 'converge fingerprint key check';

/** `platform@https://tfe.example.com`: an API and its server, with no user, password or query. */
export function serverNamespace(api: string, url: string): string {
  try {
    const parsed = new URL(url);
    return `${api}@${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return `${api}@${url.replace(/\/\/[^/@]*@/, '//')}`;
  }
}

export class FingerprintStore {
  readonly path: string;
  #file: StoreFile;
  /** Each namespace's token, until its key is derived. */
  readonly #tokens = new Map<string, string>();
  readonly #keys = new Map<string, Buffer>();
  /** Namespace of an object key (from its kind's API), undefined for kinds of no configured API. */
  readonly #namespaceOf: (objectKey: string) => string | undefined;
  readonly #reasons: string[] = [];
  #dirty = false;

  private constructor(
    path: string,
    file: StoreFile,
    namespaces: readonly StoreNamespace[],
    namespaceOf: (objectKey: string) => string | undefined,
    upgraded: boolean,
  ) {
    this.path = path;
    this.#file = file;
    this.#namespaceOf = namespaceOf;
    if (upgraded) this.#reasons.push('the fingerprint store was written by an older converge');
    for (const { name, token } of namespaces) this.#tokens.set(name, token);
  }

  /**
   * Why entries could not be compared, when they could not, as far as this run has looked (a
   * namespace's token is checked with its first comparison): shown with the secrets sent again.
   */
  get unknownReason(): string | undefined {
    return this.#reasons.length > 0 ? this.#reasons.join('; ') : undefined;
  }

  /** The namespace's key, derived on first use; entries under a changed token become incomparable then. */
  #key(name: string): Buffer | undefined {
    const known = this.#keys.get(name);
    const token = this.#tokens.get(name);
    if (known || token === undefined) return known;
    const { key, check } = deriveKeyWithCheck(token, `${this.#file.salt}|${name}`, KEY_CHECK);
    this.#keys.set(name, key);
    this.#tokens.delete(name);
    const recorded = this.#file.keyChecks[name];
    if (recorded !== check) {
      if (recorded !== undefined) this.#reasons.push(`the token for ${name} changed`);
      // entries hashed with another key can never match: mark them incomparable, and record the new check
      this.#markIncomparable(name);
      this.#file.keyChecks[name] = check;
      this.#dirty = true;
    }
    return key;
  }

  static async open(
    path: string,
    namespaces: readonly StoreNamespace[],
    namespaceOf: (objectKey: string) => string | undefined,
  ): Promise<FingerprintStore> {
    let file: StoreFile | undefined;
    let upgraded = false;
    let former: Record<string, string> = {};
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as Omit<Partial<StoreFile>, 'version'> & {
        version?: number;
      };
      if (parsed.version === 1 || parsed.version === 2) {
        upgraded = true;
        // version 2 hashed a value alone, so two entries of one secret were equal in the file: its
        // hashes cannot be compared now, but its entries still say which fields held secrets
        if (parsed.version === 2 && typeof parsed.entries === 'object' && parsed.entries !== null) {
          former = Object.fromEntries(Object.keys(parsed.entries).map((entry) => [entry, INCOMPARABLE]));
        }
      } else if (
        parsed.version !== 3 ||
        typeof parsed.salt !== 'string' ||
        typeof parsed.entries !== 'object' ||
        typeof parsed.keyChecks !== 'object'
      ) {
        throw new Error('unknown format');
      } else file = parsed as StoreFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ConvergeError(
          'CONFIG_INVALID',
          `fingerprint store ${path} cannot be read: ${(error as Error).message}`,
          { hint: 'delete the file to start a new store (secrets will be sent once more)' },
        );
      }
    }
    file ??= { version: 3, salt: randomBytes(32).toString('base64'), keyChecks: {}, entries: former };
    const store = new FingerprintStore(path, file, namespaces, namespaceOf, upgraded);
    if (upgraded) store.#dirty = true;
    return store;
  }

  /** The entry's namespace and name, for a kind of an API with a token (whose key may not be derived yet). */
  #entry(objectKey: string, field: string): { namespace: string; name: string } | undefined {
    const namespace = this.#namespaceOf(objectKey);
    if (namespace === undefined || !(this.#keys.has(namespace) || this.#tokens.has(namespace))) return undefined;
    return { namespace, name: `${namespace}|${objectKey}#${field}` };
  }

  /** The entry's name and its namespace's key, derived now if it was not yet. */
  #entryKey(objectKey: string, field: string): { entry: string; key: Buffer } | undefined {
    const at = this.#entry(objectKey, field);
    const key = at && this.#key(at.namespace);
    return at && key && { entry: at.name, key };
  }

  /** Entries hashed under another token can never match: incomparable, still secret (`has`). */
  #markIncomparable(name: string): void {
    for (const entry of Object.keys(this.#file.entries)) {
      if (entry.startsWith(`${name}|`)) this.#file.entries[entry] = INCOMPARABLE;
    }
  }

  readonly lookup: FingerprintLookup = (objectKey, field, value) => {
    const at = this.#entryKey(objectKey, field);
    const recorded = at && this.#file.entries[at.entry];
    if (!at || recorded === undefined || recorded === INCOMPARABLE) return 'unknown';
    return recorded === hash(at.key, at.entry, value) ? 'same' : 'changed';
  };

  /**
   * Whether a value of this field was recorded: it was a secret when converge last sent or kept it.
   * Asked of every compared field, so it needs no key: an entry under a changed token still says
   * the field held a secret.
   */
  has(objectKey: string, field: string): boolean {
    const entry = this.#entry(objectKey, field)?.name;
    return entry !== undefined && this.#file.entries[entry] !== undefined;
  }

  record(objectKey: string, field: string, value: Json): void {
    const at = this.#entryKey(objectKey, field);
    if (!at) return;
    this.#file.entries[at.entry] = hash(at.key, at.entry, value);
    this.#dirty = true;
  }

  forget(objectKey: string): void {
    const namespace = this.#namespaceOf(objectKey);
    if (namespace === undefined) return;
    const prefix = `${namespace}|${objectKey}#`;
    for (const key of Object.keys(this.#file.entries)) {
      if (key.startsWith(prefix)) {
        delete this.#file.entries[key];
        this.#dirty = true;
      }
    }
  }

  /** Atomic write: a crash never leaves a half-written store. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(this.#file, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, this.path);
    this.#dirty = false;
  }
}

/**
 * The entry's name is hashed with its value: two fields holding one secret (an SMS token that is
 * also the SMTP password) have different hashes, so the file does not tell that they are equal.
 */
function hash(key: Buffer, entry: string, value: Json): string {
  return keyedHash(key, JSON.stringify([entry, value]));
}
