/**
 * ldapDirectory: the Directory backed by a real LDAP server through ldapts,
 * for running the emulator's LDAP secrets engine against slapd, Active
 * Directory or anything else that speaks LDAPv3. One connection bound as
 * the engine's binddn does the work; a password check opens its own
 * short-lived connection, since binding as the user would change the
 * identity of the shared one.
 */
import { Attribute, Change, type Client, type Entry, EqualityFilter, ResultCodeError } from 'ldapts';
import { formatRdn, type LdifModRdnRecord, type LdifRecord, parseRdns } from '../../../ldif/index.ts';
import { DirectoryError, NETWORK_ERROR } from './errors.ts';
import { connectBound, type LdapConnectionOptions, splitUrls, toDirectoryError } from './ldap-connection.ts';
import { hashSsha } from './password.ts';
import type { Directory, DirectoryEntry } from './types.ts';

export interface LdapDirectoryOptions extends LdapConnectionOptions {
  bindDn: string;
  bindPassword: string;
}

/** Result codes a simple bind answers for "this DN cannot log in with this password". */
const REFUSED_BIND = new Set([32, 34, 48, 49, 53]);

export async function ldapDirectory(options: LdapDirectoryOptions): Promise<Directory> {
  let admin = await connectBound(options, options.bindDn, options.bindPassword);
  /** Set by close(): an operation cut off by it fails instead of connecting again. */
  let closed = false;

  /** A new admin connection, bound: through the URL list again, as at the start. */
  async function reconnect(): Promise<void> {
    await admin.client.unbind().catch(() => undefined);
    if (closed)
      throw new DirectoryError(NETWORK_ERROR, 'the connection to the directory was closed (the emulator is stopping)');
    admin = await connectBound(options, options.bindDn, options.bindPassword);
  }

  /**
   * Runs an operation on the admin connection. A connection that was lost
   * since (the server restarted, an idle connection was dropped, an
   * operation timed out) is made again and bound first: ldapts would
   * otherwise reconnect by itself, anonymously, and every write would then
   * fail with "Strong Auth Required". When the connection fails during the
   * operation, it reconnects and tries once more; server answers are never
   * retried.
   */
  async function withAdmin<T>(operation: (client: Client) => Promise<T>, context: string): Promise<T> {
    if (!admin.client.isBound) await reconnect();
    try {
      return await operation(admin.client);
    } catch (error) {
      if (error instanceof ResultCodeError) throw toDirectoryError(error, context);
    }
    await reconnect();
    try {
      return await operation(admin.client);
    } catch (error) {
      throw toDirectoryError(error, context);
    }
  }

  return {
    async bind(dn, password) {
      // An empty password would be an unauthenticated bind, which servers accept.
      if (password === '') return false;
      try {
        // The server the admin connection reached first: an unreachable URL ahead of it would only add delay.
        const urls = [admin.url, ...splitUrls(options.urls).filter((url) => url !== admin.url)];
        const { client } = await connectBound({ ...options, urls }, dn, password);
        await client.unbind().catch(() => undefined);
        return true;
      } catch (error) {
        if (error instanceof DirectoryError && REFUSED_BIND.has(error.code)) return false;
        throw error;
      }
    },

    async findBy(base, attribute, value) {
      const filter = new EqualityFilter({ attribute, value });
      const { searchEntries } = await withAdmin(
        (client) => client.search(base, { scope: 'sub', filter }),
        `search under "${base}"`,
      );
      return searchEntries.map(toEntry);
    },

    async get(dn) {
      try {
        const { searchEntries } = await withAdmin((client) => client.search(dn, { scope: 'base' }), `read "${dn}"`);
        return searchEntries[0] ? toEntry(searchEntries[0]) : undefined;
      } catch (error) {
        if (error instanceof DirectoryError && error.code === 32) return undefined;
        throw error;
      }
    },

    async setPassword(dn, password) {
      const change = new Change({
        operation: 'replace',
        modification: new Attribute({ type: 'userPassword', values: [hashSsha(password)] }),
      });
      await withAdmin((client) => client.modify(dn, change), `set the password of "${dn}"`);
    },

    async apply(record) {
      await withAdmin((client) => applyRecord(client, record), `${record.changetype} "${record.dn}"`);
    },

    async close() {
      closed = true;
      // the socket goes at once: operations waiting on it fail now, not at their timeout
      await admin.client.unbind().catch(() => undefined);
    },
  };
}

async function applyRecord(client: Client, record: LdifRecord): Promise<void> {
  switch (record.changetype) {
    case 'add':
      await client.add(
        record.dn,
        record.attributes.map(({ name, values }) => new Attribute({ type: name, values })),
      );
      return;
    case 'delete':
      await client.del(record.dn);
      return;
    case 'modify':
      await client.modify(
        record.dn,
        record.changes.map(
          ({ op, attribute, values }) =>
            new Change({ operation: op, modification: new Attribute({ type: attribute, values }) }),
        ),
      );
      return;
    case 'modrdn':
    case 'moddn':
      await modRdn(client, record);
      return;
  }
}

/**
 * ldapts's modifyDN always sets deleteoldrdn and takes the new superior from
 * the new DN, so "deleteoldrdn: 0" is done as a rename followed by adding
 * the old RDN values back. The two steps are not atomic: if the second
 * fails the entry is renamed without its old RDN values.
 */
async function modRdn(client: Client, record: LdifModRdnRecord): Promise<void> {
  let rdns: ReturnType<typeof parseRdns>;
  let newRdn: ReturnType<typeof parseRdns>;
  try {
    rdns = parseRdns(record.dn);
    newRdn = parseRdns(record.newrdn);
  } catch (error) {
    throw new DirectoryError(34, error instanceof Error ? error.message : String(error));
  }
  const superior = record.newsuperior ?? rdns.slice(1).map(formatRdn).join(',');
  const newDn = superior === '' ? record.newrdn : `${record.newrdn},${superior}`;
  await client.modifyDN(record.dn, newDn);
  if (record.deleteoldrdn) return;
  const kept = new Set((newRdn[0] ?? []).map((ava) => `${ava.attribute.toLowerCase()}=${ava.value.toLowerCase()}`));
  const restore = (rdns[0] ?? []).filter(
    (ava) => !kept.has(`${ava.attribute.toLowerCase()}=${ava.value.toLowerCase()}`),
  );
  if (restore.length === 0) return;
  await client.modify(
    newDn,
    restore.map(
      (ava) =>
        new Change({ operation: 'add', modification: new Attribute({ type: ava.attribute, values: [ava.value] }) }),
    ),
  );
}

function toEntry(entry: Entry): DirectoryEntry {
  const attributes: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(entry)) {
    if (name === 'dn') continue;
    const values = Array.isArray(raw) ? raw : [raw];
    attributes[name] = values.map((value) => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value)));
  }
  return { dn: entry.dn, attributes };
}
