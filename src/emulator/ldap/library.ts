/**
 * Library sets: existing service accounts that callers check out (each gets
 * a new password and a renewable lease) and check in (only the borrower,
 * unless enforcement is off or the manage endpoint is used). A check-out
 * whose lease ends is checked in on its own. An account belongs to one set,
 * and one that is checked out cannot be removed from its set.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { envelope, failed, missing, noContent, refused } from '../secrets/envelope.ts';
import { type Body, bodyOf, bool, commaList, seconds } from '../secrets/fields.ts';
import type { Lease } from '../secrets/leases.ts';
import { isListing } from '../secrets/routes.ts';
import { newPassword, userAttribute } from './config.ts';
import { directoryMessage } from './connection.ts';
import { type LdapEngine, listLevel, managedElsewhere, nameOf, readOrList, requireConfig } from './engine.ts';
import type { LibrarySet } from './state.ts';

const DAY = 24 * 3600;

export function registerLibrary(engine: LdapEngine): void {
  const { router, data } = engine;
  // set names are lower-cased, as the service's `name` field of these paths is
  const setName = (request: FastifyRequest) => nameOf(request).toLowerCase();
  const setOf = (name: string) => {
    const set = data.libraries[name];
    if (!set) throw refused(`"${name}" doesn't exist`);
    return set;
  };

  router.list('library', () => listLevel(Object.keys(data.libraries), ''));
  // `manage/:set/check-in` first: the wildcard below would take it for a set named `manage/...`
  router.on('POST', 'library/manage/*', ['update', 'sudo'], async (request, token) => {
    const name = setName(request).replace(/\/check-in$/, '');
    return checkIn(engine, name, setOf(name), bodyOf(request.body), token?.token ?? '', true);
  });
  router.on('GET', 'library/*', readOrList, (request) => {
    const name = setName(request);
    if (isListing(request)) return listLevel(Object.keys(data.libraries), name);
    if (name.endsWith('/status')) return status(engine, name.slice(0, -'/status'.length));
    const set = data.libraries[name];
    if (!set) throw missing();
    return envelope({ ...set });
  });
  router.on(
    'POST',
    'library/*',
    (request) => {
      const name = setName(request);
      // check-out and check-in are updates of the set; a write creates a set that does not exist yet
      return data.libraries[name] || /\/check-(?:out|in)$/.test(name) ? ['update'] : ['create'];
    },
    async (request, token) => {
      const name = setName(request);
      const body = bodyOf(request.body);
      if (name.endsWith('/check-out'))
        return checkOut(engine, name.slice(0, -'/check-out'.length), body, token?.token ?? '');
      if (name.endsWith('/check-in')) {
        const set = name.slice(0, -'/check-in'.length);
        return checkIn(engine, set, setOf(set), body, token?.token ?? '', false);
      }
      data.libraries[name] = await write(engine, name, body, data.libraries[name]);
      return noContent();
    },
  );
  router.on('DELETE', 'library/*', ['delete'], (request) => {
    const name = setName(request);
    // a set goes only once every account of it is in, as the service refuses otherwise
    const out = data.libraries[name]?.service_account_names.find((account) => data.checkOuts[account]);
    if (out) throw refused(`"${out}" can't be deleted because it is currently checked out'`);
    delete data.libraries[name];
    return noContent();
  });
  engine.leases.onEnd(router.mount.path, 'check-out', (lease) => expired(engine, lease));
}

async function write(
  engine: LdapEngine,
  name: string,
  body: Body,
  existing: LibrarySet | undefined,
): Promise<LibrarySet> {
  const { data } = engine;
  const config = requireConfig(
    engine,
    existing ? 'config must exist to update a library' : 'config must exist to create a library',
  );
  const set: LibrarySet = existing
    ? { ...existing }
    : { service_account_names: [], ttl: DAY, max_ttl: DAY, disable_check_in_enforcement: false };
  if (body.service_account_names !== undefined) {
    if (!existing && body.service_account_names === null) throw refused('"service_account_names" must be provided');
    const names = commaList(body, 'service_account_names');
    if (names.length === 0) throw refused('at least one service account must be configured');
    const directory = await engine.directories.open(config);
    for (const account of names) {
      if (managedElsewhere(data, account, { set: name }))
        throw refused(`"${account}" is already managed by the secrets engine`);
      const found = await directory.findBy(String(config.userdn), userAttribute(config), account);
      if (found.length === 0) throw refused(`"${account}" does not exist in the directory`);
    }
    for (const account of set.service_account_names) {
      if (!names.includes(account) && data.checkOuts[account]) {
        throw refused(`"${account}" can't be deleted because it is currently checked out'`);
      }
    }
    set.service_account_names = names;
  } else if (!existing) {
    throw refused('"service_account_names" must be provided');
  }
  if (body.ttl !== undefined) set.ttl = seconds(body, 'ttl');
  if (body.max_ttl !== undefined) set.max_ttl = seconds(body, 'max_ttl');
  if (body.disable_check_in_enforcement !== undefined)
    set.disable_check_in_enforcement = bool(body, 'disable_check_in_enforcement');
  if (set.max_ttl > 0 && set.ttl > 0 && set.max_ttl < set.ttl) {
    // the engine prints time.Duration values with %d: nanoseconds, as the real service says it
    throw refused(`max_ttl (${set.max_ttl * 1e9} seconds) may not be less than ttl (${set.ttl * 1e9} seconds)`);
  }
  return set;
}

function status(engine: LdapEngine, name: string) {
  const set = engine.data.libraries[name];
  if (!set) throw refused(`"${name}" doesn't exist`);
  const out: Record<string, { available: boolean; borrower_client_token?: string; borrower_entity_id?: string }> = {};
  for (const account of set.service_account_names) {
    const checkOut = engine.data.checkOuts[account];
    out[account] = checkOut
      ? { available: false, borrower_client_token: accessorOf(checkOut.borrower), borrower_entity_id: '' }
      : { available: true };
  }
  return envelope(out);
}

/** Who borrowed an account, without handing out their token: a stable digest of it stands in, as an accessor does. */
function accessorOf(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 24);
}

async function checkOut(engine: LdapEngine, name: string, body: Body, borrower: string) {
  const set = engine.data.libraries[name];
  if (!set) throw refused(`"${name}" doesn't exist`);
  const account = set.service_account_names.find((a) => !engine.data.checkOuts[a]);
  if (!account) throw refused('No service accounts available for check-out.');
  const asked = body.ttl === undefined ? set.ttl : seconds(body, 'ttl');
  // above the set's ttl, the set's applies; 0 is unlimited only where the set allows it
  const ttl = set.ttl > 0 && (asked === 0 || asked > set.ttl) ? set.ttl : asked;
  const password = await setPassword(engine, account);
  const lease = engine.leases.issue(
    engine.router.mount.path,
    'check-out',
    `library/${name}/check-out`,
    { account, set: name },
    ttl,
    set.max_ttl,
  );
  engine.data.checkOuts[account] = { set: name, borrower, leaseId: lease.id };
  return envelope(
    { password, service_account_name: account },
    { lease_id: lease.id, lease_duration: ttl, renewable: true },
  );
}

async function checkIn(engine: LdapEngine, name: string, set: LibrarySet, body: Body, caller: string, forced: boolean) {
  const { data } = engine;
  const anyone = forced || set.disable_check_in_enforcement;
  let accounts = commaList(body, 'service_account_names');
  if (accounts.length === 0) {
    // none named: the one account the caller may check in (none is a success that checks in nothing)
    accounts = set.service_account_names.filter(
      (a) => data.checkOuts[a] && (anyone || data.checkOuts[a]?.borrower === caller),
    );
    if (accounts.length > 1) {
      throw refused(
        'when multiple service accounts are checked out, the "service_account_names" to check in must be provided',
      );
    }
  }
  const checkIns: string[] = [];
  for (const account of accounts) {
    if (!set.service_account_names.includes(account)) throw refused(`"${account}" is not managed by the set "${name}"`);
    const out = data.checkOuts[account];
    if (!out) continue; // already in: success, not listed
    if (!anyone && out.borrower !== caller) {
      throw refused(`"${account}" can't be checked in because it wasn't checked out by the caller`);
    }
    await release(engine, account);
    engine.leases.forget(out.leaseId);
    checkIns.push(account);
  }
  return envelope({ check_ins: checkIns });
}

/** Checked in: a new password nobody knows, and the account is available again. */
async function release(engine: LdapEngine, account: string): Promise<void> {
  await setPassword(engine, account);
  delete engine.data.checkOuts[account];
}

async function expired(engine: LdapEngine, lease: Lease): Promise<void> {
  const account = String(lease.data.account);
  if (engine.data.checkOuts[account]?.leaseId === lease.id) await release(engine, account);
}

async function setPassword(engine: LdapEngine, account: string): Promise<string> {
  const config = requireConfig(engine, 'missing LDAP configuration');
  const directory = await engine.directories.open(config);
  const entry = (await directory.findBy(String(config.userdn), userAttribute(config), account))[0];
  if (!entry) throw failed(`"${account}" no longer exists in the directory`);
  const password = newPassword(config);
  try {
    await directory.setPassword(entry.dn, password);
  } catch (error) {
    throw failed(`failed to set the password of ${entry.dn}: ${directoryMessage(error)}`);
  }
  return password;
}
