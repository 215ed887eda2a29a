import { describe, expect, it } from 'vitest';
import { type Answer, type Client, details, start } from './helpers.ts';

type UserDoc = { id: string; attributes: Record<string, unknown>; relationships: unknown; links: { self: string } };

async function userId(call: Client['call'], username: string): Promise<string> {
  const answer = await call('GET', `/api/v2/admin/users?q=${username}&page%5Bsize%5D=100`);
  const user = (answer.body.data as UserDoc[]).find((u) => u.attributes.username === username);
  if (!user) throw new Error(`no user ${username}`);
  return user.id;
}

const usernames = (answer: Answer) => (answer.body.data as UserDoc[]).map((u) => u.attributes.username);

const many = {
  organizations: [{ name: 'other-org' }],
  users: Array.from({ length: 41 }, (_, i) => ({
    username: `user${String(i).padStart(2, '0')}`,
    email: i === 7 ? 'special@corp.example' : undefined,
    isAdmin: i % 10 === 0,
    isSuspended: i % 4 === 0,
    organizations: [{ name: 'other-org', role: i === 0 ? ('owner' as const) : ('member' as const) }],
  })),
};

describe('user list', () => {
  it('returns user documents with organizations, links.self and the spec attributes', async () => {
    const { call } = await start();
    const answer = await call('GET', '/api/v2/admin/users');
    expect(answer.status).toBe(200);
    expect(usernames(answer)).toEqual(['admin', 'owner', 'member', 'ci-bot']);
    const owner = (answer.body.data as UserDoc[])[1]!;
    expect(owner.id).toMatch(/^user-[0-9A-Za-z]{16}$/);
    expect(owner).toMatchObject({
      type: 'users',
      attributes: {
        username: 'owner',
        email: 'owner@example.com',
        'is-admin': false,
        'is-suspended': false,
        'is-service-account': false,
      },
      relationships: { organizations: { data: [{ id: 'example-org', type: 'organizations' }] } },
      links: { self: '/api/v2/users/owner' },
    });
    expect(typeof owner.attributes['avatar-url']).toBe('string');
    expect((answer.body.data as UserDoc[])[3]!.attributes['is-service-account']).toBe(true);
  });

  it('paginates with 20 per page by default, with meta.pagination, status-counts and absolute links', async () => {
    const { call, emulator } = await start({ seed: many });
    const first = await call('GET', '/api/v2/admin/users');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta).toEqual({
      pagination: {
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': 2,
        'total-pages': 3,
        'total-count': 45,
      },
      'status-counts': { total: 45, suspended: 11, admin: 6 },
    });
    const base = `${emulator.url}/api/v2/admin/users`;
    expect(first.body.links).toEqual({
      self: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=20`,
      first: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=20`,
      prev: null,
      next: `${base}?page%5Bnumber%5D=2&page%5Bsize%5D=20`,
      last: `${base}?page%5Bnumber%5D=3&page%5Bsize%5D=20`,
    });
    const last = await call('GET', '/api/v2/admin/users?page%5Bnumber%5D=3');
    expect(last.body.data).toHaveLength(5);
    expect(last.body.meta).toMatchObject({ pagination: { 'current-page': 3, 'prev-page': 2, 'next-page': null } });
    expect((last.body.links as Record<string, unknown>).next).toBeNull();
  });

  it('accepts unencoded brackets and sizes up to 100; other sizes are a 422 without source', async () => {
    const { call } = await start({ seed: many });
    expect((await call('GET', '/api/v2/admin/users?page[size]=100')).body.data).toHaveLength(45);
    expect((await call('GET', '/api/v2/admin/users?page[size]=1')).body.data).toHaveLength(1);
    for (const size of ['101', '0', '-1', 'x']) {
      const answer = await call('GET', `/api/v2/admin/users?page%5Bsize%5D=${size}`);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        errors: [{ status: '422', title: 'invalid attribute', detail: 'page[size] must be between 1 and 100' }],
      });
    }
    expect((await call('GET', '/api/v2/admin/users?page[number]=0')).status).toBe(422);
  });

  it('filters by admin, suspended and a search over username and email, and keeps filters in links', async () => {
    const { call } = await start({ seed: many });
    const admins = await call('GET', '/api/v2/admin/users?filter%5Badmin%5D=true&page%5Bsize%5D=100');
    expect(usernames(admins)).toEqual(['admin', 'user00', 'user10', 'user20', 'user30', 'user40']);
    const suspended = await call('GET', '/api/v2/admin/users?filter[suspended]=true&filter[admin]=false');
    expect(usernames(suspended)).toEqual([
      'user04',
      'user08',
      'user12',
      'user16',
      'user24',
      'user28',
      'user32',
      'user36',
    ]);
    expect((await call('GET', '/api/v2/admin/users?q=SPECIAL@corp')).body.data).toHaveLength(1);
    expect(usernames(await call('GET', '/api/v2/admin/users?q=own'))).toEqual(['owner']);
    const filtered = await call('GET', '/api/v2/admin/users?filter%5Badmin%5D=true&page%5Bsize%5D=2');
    expect((filtered.body.links as Record<string, string>).next).toContain('filter%5Badmin%5D=true');
    // status counts are over all users, not the filtered ones
    expect((filtered.body.meta as Record<string, unknown>)['status-counts']).toEqual({
      total: 45,
      suspended: 11,
      admin: 6,
    });
  });

  it('includes the organizations of the page with include=organizations', async () => {
    const { call } = await start({ seed: many });
    const answer = await call('GET', '/api/v2/admin/users?include=organizations&page%5Bsize%5D=10');
    expect(answer.body.included).toEqual([
      {
        id: 'example-org',
        type: 'organizations',
        attributes: { name: 'example-org' },
        links: { self: '/api/v2/organizations/example-org' },
      },
      {
        id: 'other-org',
        type: 'organizations',
        attributes: { name: 'other-org' },
        links: { self: '/api/v2/organizations/other-org' },
      },
    ]);
    expect((await call('GET', '/api/v2/admin/users')).body.included).toBeUndefined();
  });
});

describe('user actions (the user-account state table)', () => {
  const rows: Array<[string, string, number, Record<string, unknown> | string]> = [
    ['owner', 'suspend', 200, { 'is-suspended': true }],
    ['owner', 'unsuspend', 400, 'user is not suspended'],
    ['owner', 'grant_admin', 200, { 'is-admin': true }],
    ['admin', 'grant_admin', 400, 'user is already an administrator'],
    ['admin', 'revoke_admin', 200, { 'is-admin': false }],
    ['owner', 'revoke_admin', 400, 'user is not an administrator'],
    ['member', 'disable_two_factor', 200, { username: 'member' }],
    ['owner', 'disable_two_factor', 400, 'user does not have two-factor authentication enabled'],
  ];

  it.each(rows)('%s: %s -> %i', async (username, action, status, expected) => {
    const { call } = await start();
    const id = await userId(call, username);
    const answer = await call('POST', `/api/v2/admin/users/${id}/actions/${action}`);
    expect(answer.status).toBe(status);
    if (typeof expected === 'string') {
      expect(answer.body).toEqual({ errors: [{ status: '400', title: 'bad request', detail: expected }] });
    } else {
      expect((answer.body.data as UserDoc).attributes).toMatchObject(expected);
      expect((answer.body.data as UserDoc).id).toBe(id);
    }
  });

  it('answers 400 to a second suspend and to a second disable_two_factor', async () => {
    const { call } = await start();
    const id = await userId(call, 'member');
    expect((await call('POST', `/api/v2/admin/users/${id}/actions/suspend`)).status).toBe(200);
    expect(details(await call('POST', `/api/v2/admin/users/${id}/actions/suspend`))).toEqual([
      'user is already suspended',
    ]);
    expect((await call('POST', `/api/v2/admin/users/${id}/actions/unsuspend`)).status).toBe(200);
    expect((await call('POST', `/api/v2/admin/users/${id}/actions/disable_two_factor`)).status).toBe(200);
    expect((await call('POST', `/api/v2/admin/users/${id}/actions/disable_two_factor`)).status).toBe(400);
  });

  it('refuses to make a service account an administrator (422)', async () => {
    const { call } = await start();
    const answer = await call('POST', `/api/v2/admin/users/${await userId(call, 'ci-bot')}/actions/grant_admin`);
    expect(answer.status).toBe(422);
    expect(answer.body.errors?.[0]).toMatchObject({ status: '422', title: 'unprocessable entity' });
  });

  it('answers 404 for an unknown user', async () => {
    const { call } = await start();
    expect((await call('POST', '/api/v2/admin/users/user-0000000000000000/actions/suspend')).status).toBe(404);
    expect((await call('DELETE', '/api/v2/admin/users/user-0000000000000000')).status).toBe(404);
  });

  it('deletes a user (204) and refuses the sole owner of an organization (422)', async () => {
    const { call } = await start();
    const owner = await userId(call, 'owner');
    const refused = await call('DELETE', `/api/v2/admin/users/${owner}`);
    expect(refused.status).toBe(422);
    expect(details(refused)[0]).toContain('sole owner of example-org');
    const member = await userId(call, 'member');
    const deleted = await call('DELETE', `/api/v2/admin/users/${member}`);
    expect(deleted.status).toBe(204);
    expect(usernames(await call('GET', '/api/v2/admin/users'))).toEqual(['admin', 'owner', 'ci-bot']);
    expect((await call('DELETE', `/api/v2/admin/users/${member}`)).status).toBe(404);
  });

  it('deletes an owner when the organization has another owner', async () => {
    const { call } = await start({
      seed: { users: [{ username: 'co-owner', organizations: [{ name: 'example-org', role: 'owner' }] }] },
    });
    expect((await call('DELETE', `/api/v2/admin/users/${await userId(call, 'owner')}`)).status).toBe(204);
    expect((await call('DELETE', `/api/v2/admin/users/${await userId(call, 'co-owner')}`)).status).toBe(422);
  });

  it('accepts the username in place of the id', async () => {
    const { call } = await start();
    expect((await call('POST', '/api/v2/admin/users/owner/actions/suspend')).status).toBe(200);
  });
});

describe('impersonation (session cookie)', () => {
  async function session(client: Client, token: string): Promise<string> {
    const response = await fetch(`${client.emulator.url}/_emulator/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(201);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^_session=[0-9A-Za-z]+;/);
    return cookie.split(';')[0]!;
  }

  it('impersonates with a reason, refuses a second impersonation, and ends it with a new cookie', async () => {
    const client = await start();
    const { call, emulator } = client;
    const cookie = await session(client, emulator.tokens.admin);
    const owner = await userId(call, 'owner');
    const member = await userId(call, 'member');
    const impersonate = (id: string, body: unknown, c = cookie) =>
      call('POST', `/api/v2/admin/users/${id}/actions/impersonate`, { token: null, body, headers: { cookie: c } });

    expect((await impersonate(owner, { reason: 'support ticket 42' })).status).toBe(204);
    const again = await impersonate(member, { reason: 'another' });
    expect(again.status).toBe(403);
    expect(details(again)).toEqual(['already impersonating a user']);

    const end = await call('POST', '/api/v2/admin/users/actions/unimpersonate', { token: null, headers: { cookie } });
    expect(end.status).toBe(204);
    const renewed = end.headers.get('set-cookie') ?? '';
    expect(renewed).toMatch(/^_session=/);
    const next = renewed.split(';')[0]!;
    expect(next).not.toBe(cookie);
    // the old cookie is no longer a session; the new one is, and it is no longer impersonating
    expect((await impersonate(member, { reason: 'x' })).status).toBe(401);
    const notImpersonating = await call('POST', '/api/v2/admin/users/actions/unimpersonate', {
      token: null,
      headers: { cookie: next },
    });
    expect(notImpersonating.status).toBe(400);
    expect((await impersonate(member, { data: { attributes: { reason: 'nested form' } } }, next)).status).toBe(204);
  });

  it('answers 400 without a reason, 403 for service accounts and for oneself, 404 for non-admins', async () => {
    const client = await start();
    const { call, emulator } = client;
    const cookie = await session(client, emulator.tokens.admin);
    const impersonate = async (username: string, body: unknown, c = cookie) =>
      call('POST', `/api/v2/admin/users/${await userId(call, username)}/actions/impersonate`, {
        token: null,
        body,
        headers: { cookie: c },
      });
    const missing = await impersonate('owner', {});
    expect(missing.status).toBe(400);
    expect(details(missing)).toEqual(['a reason is required']);
    expect((await impersonate('owner', { reason: '  ' })).status).toBe(400);
    expect(details(await impersonate('ci-bot', { reason: 'x' }))).toEqual(['service accounts cannot be impersonated']);
    expect(details(await impersonate('admin', { reason: 'x' }))).toEqual(['you cannot impersonate yourself']);
    const memberCookie = await session(client, emulator.tokens.member);
    expect((await impersonate('owner', { reason: 'x' }, memberCookie)).status).toBe(404);
    expect((await impersonate('owner', { reason: 'x' }, 'nothing=here')).status).toBe(401);
  });

  it('refuses to open a session without a valid token', async () => {
    const { emulator } = await start();
    const response = await fetch(`${emulator.url}/_emulator/session`, { method: 'POST' });
    expect(response.status).toBe(401);
  });
});
