/**
 * The fingerprint store at rest: entries namespaced per API and server (no
 * credentials in the file), hashed with a key derived from the API's token
 * (the file alone does not test guesses), and older or re-keyed entries
 * reported as not comparable rather than silently mismatched.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FingerprintStore, type StoreNamespace, serverNamespace } from '../../../src/reconcile/fingerprint-store.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

let path: string;
const platform: StoreNamespace = { name: serverNamespace('platform', 'https://tfe.example.com/'), token: 'tok-p' };
const secrets: StoreNamespace = { name: serverNamespace('secrets', 'https://vault.example.com:8200'), token: 'tok-s' };
const apiOf = (key: string) => (key.startsWith('LDAP') || key.startsWith('SSH') ? secrets.name : platform.name);

beforeEach(async () => {
  path = join(await tempDir('store'), 'fingerprints.json');
});

async function open(namespaces: StoreNamespace[], of = apiOf) {
  return FingerprintStore.open(path, namespaces, of);
}

describe('the fingerprint store', () => {
  it('names a namespace by API and server, without user, password, query or trailing slash', () => {
    expect(serverNamespace('platform', 'https://ci:pa55word@tfe.example.com/prefix/?token=q')).toBe(
      'platform@https://tfe.example.com/prefix',
    );
  });

  it('keeps the first API’s entries when a second API is configured', async () => {
    const first = await open([platform]);
    first.record('SMTPSettings', 'password', 'hunter2');
    await first.save();
    const both = await open([platform, secrets]);
    expect(both.lookup('SMTPSettings', 'password', 'hunter2')).toBe('same');
    expect(both.lookup('SMTPSettings', 'password', 'other')).toBe('changed');
    expect(both.lookup('LDAPConfig/ldap', 'bindpass', 'x')).toBe('unknown');
    expect(both.unknownReason).toBeUndefined();
  });

  it('writes neither values nor credentials, and its hashes depend on the token', async () => {
    const withCredentials = { ...platform, name: serverNamespace('platform', 'https://ci:pa55word@tfe.example.com') };
    const store = await open([withCredentials], () => withCredentials.name);
    store.record('SMTPSettings', 'password', 'hunter2');
    await store.save();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('pa55word');
    const { entries } = JSON.parse(text) as { entries: Record<string, string> };
    const other = await FingerprintStore.open(
      `${path}.other`,
      [{ ...withCredentials, token: 'another' }],
      () => withCredentials.name,
    );
    other.record('SMTPSettings', 'password', 'hunter2');
    await other.save();
    const otherEntries = (JSON.parse(await readFile(`${path}.other`, 'utf8')) as { entries: Record<string, string> })
      .entries;
    expect(Object.values(entries)).not.toEqual(Object.values(otherEntries));
  });

  it('says when a changed token makes the entries of its API not comparable, still secret run after run', async () => {
    const first = await open([platform, secrets]);
    first.record('SMTPSettings', 'password', 'hunter2');
    first.record('LDAPConfig/ldap', 'bindpass', 'b1nd');
    await first.save();
    const rotated = await open([{ ...platform, token: 'tok-p2' }, secrets]);
    // a field recorded under the old token still held a secret: its value stays hidden in plans
    expect(rotated.has('SMTPSettings', 'password')).toBe(true);
    // the token is checked with the API's first comparison
    expect(rotated.unknownReason).toBeUndefined();
    expect(rotated.lookup('SMTPSettings', 'password', 'hunter2')).toBe('unknown');
    expect(rotated.unknownReason).toBe(`the token for ${platform.name} changed`);
    expect(rotated.lookup('LDAPConfig/ldap', 'bindpass', 'b1nd')).toBe('same');
    expect(rotated.has('SMTPSettings', 'password')).toBe(true);
    // and in the runs after, until the field is recorded again: an apply elsewhere must not forget it
    rotated.record('LDAPConfig/ldap', 'bindpass', 'b1nd');
    await rotated.save();
    const later = await open([{ ...platform, token: 'tok-p2' }, secrets]);
    expect(later.has('SMTPSettings', 'password')).toBe(true);
    expect(later.lookup('SMTPSettings', 'password', 'hunter2')).toBe('unknown');
  });

  it("derives an API's key only when a secret of that API is compared or recorded", async () => {
    const store = await open([platform, secrets]);
    expect(store.has('SMTPSettings', 'password')).toBe(false);
    // nothing compared or recorded: no key derived, nothing to write
    await store.save();
    await expect(readFile(path, 'utf8')).rejects.toThrow(/ENOENT/);
    store.record('SMTPSettings', 'password', 'hunter2');
    await store.save();
    const { keyChecks } = JSON.parse(await readFile(path, 'utf8')) as { keyChecks: Record<string, string> };
    expect(Object.keys(keyChecks)).toEqual([platform.name]);
  });

  it('reads a store of the older format as empty, says so, and rewrites it', async () => {
    await writeFile(path, JSON.stringify({ version: 1, salt: 's', entries: { 'x|SMTPSettings#password': 'ab' } }));
    const store = await open([platform]);
    expect(store.unknownReason).toBe('the fingerprint store was written by an older converge');
    expect(store.lookup('SMTPSettings', 'password', 'hunter2')).toBe('unknown');
    await store.save();
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ version: 3, entries: {} });
  });

  it('reads a version 2 store as not comparable, still knowing which fields held secrets', async () => {
    const entry = `${platform.name}|SMTPSettings#password`;
    await writeFile(path, JSON.stringify({ version: 2, salt: 's', keyChecks: {}, entries: { [entry]: 'ab' } }));
    const store = await open([platform]);
    expect(store.unknownReason).toBe('the fingerprint store was written by an older converge');
    expect(store.lookup('SMTPSettings', 'password', 'hunter2')).toBe('unknown');
    expect(store.has('SMTPSettings', 'password')).toBe(true);
    expect(store.has('SMTPSettings', 'host')).toBe(false);
    // saved by a run that sends another secret only (a --target elsewhere), it still knows
    store.record('SMSSettings', 'auth-token', 't0ken');
    await store.save();
    const later = await open([platform]);
    expect(later.has('SMTPSettings', 'password')).toBe(true);
    expect(later.lookup('SMTPSettings', 'password', 'hunter2')).toBe('unknown');
    expect(later.lookup('SMSSettings', 'auth-token', 't0ken')).toBe('same');
  });

  it('does not show that two fields hold one secret: each hash is bound to its field', async () => {
    const store = await open([platform]);
    store.record('SMTPSettings', 'password', 'one-secret');
    store.record('SMSSettings', 'auth-token', 'one-secret');
    await store.save();
    const { entries } = JSON.parse(await readFile(path, 'utf8')) as { entries: Record<string, string> };
    const hashes = Object.values(entries);
    expect(hashes).toHaveLength(2);
    expect(new Set(hashes).size).toBe(2);
    expect(store.lookup('SMSSettings', 'auth-token', 'one-secret')).toBe('same');
  });

  it('knows which fields held secrets, and forgets an object with its entries', async () => {
    const store = await open([platform]);
    store.record('ToolVersion/1.0.0', 'url', 'https://secret.example.com');
    expect(store.has('ToolVersion/1.0.0', 'url')).toBe(true);
    expect(store.has('ToolVersion/1.0.0', 'sha')).toBe(false);
    store.forget('ToolVersion/1.0.0');
    expect(store.has('ToolVersion/1.0.0', 'url')).toBe(false);
  });

  it('refuses a file it cannot read, with a hint', async () => {
    await writeFile(path, '{"version": 7}');
    await expect(open([platform])).rejects.toThrow(/cannot be read: unknown format/);
  });
});
