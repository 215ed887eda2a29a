import { describe, expect, it } from 'vitest';
import { start } from './helpers.ts';

const ADMIN_ENDPOINTS: Array<[string, string]> = [
  ['GET', '/api/v2/admin/users'],
  ['GET', '/api/v2/admin/general-settings'],
  ['PATCH', '/api/v2/admin/smtp-settings'],
  ['GET', '/api/v2/admin/tool-versions'],
  ['POST', '/api/v2/admin/policy-versions'],
  ['POST', '/api/v2/admin/oidc-settings/actions/rotate-key'],
  ['GET', '/api/v2/admin/data-retention-policy-settings'],
];

describe('authentication', () => {
  it('answers 401 unauthorized without a token, with an unknown token, and with the secrets token', async () => {
    const { call, emulator } = await start();
    for (const token of [null, 'not-a-token', emulator.tokens.secrets]) {
      const answer = await call('GET', '/api/v2/admin/users', { token });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ errors: [{ status: '401', title: 'unauthorized' }] });
    }
  });

  it.each(ADMIN_ENDPOINTS)(
    'answers 404 to valid users who are not site administrators: %s %s',
    async (method, path) => {
      const { call, emulator } = await start();
      for (const token of [emulator.tokens.owner, emulator.tokens.member]) {
        const answer = await call(method, path, {
          token,
          ...(method !== 'GET' && { body: { data: { attributes: {} } } }),
        });
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      }
    },
  );

  it('issues four distinct random tokens per start', async () => {
    const a = await start();
    const b = await start();
    const tokens = [...Object.values(a.emulator.tokens), ...Object.values(b.emulator.tokens)];
    expect(new Set(tokens).size).toBe(8);
    for (const token of tokens) expect(token).toMatch(/^[0-9A-Za-z]{40}$/);
  });

  it('refuses the token of a suspended user with 401, and accepts it again once unsuspended', async () => {
    const { call, emulator } = await start();
    const member = await findUser(call, 'member');
    await call('POST', `/api/v2/admin/users/${member}/actions/grant_admin`);
    expect((await call('GET', '/api/v2/admin/users', { token: emulator.tokens.member })).status).toBe(200);
    await call('POST', `/api/v2/admin/users/${member}/actions/suspend`);
    expect((await call('GET', '/api/v2/admin/users', { token: emulator.tokens.member })).status).toBe(401);
    await call('POST', `/api/v2/admin/users/${member}/actions/unsuspend`);
    expect((await call('GET', '/api/v2/admin/users', { token: emulator.tokens.member })).status).toBe(200);
  });

  it('answers unknown API paths with a JSON:API 404', async () => {
    const { call } = await start();
    const answer = await call('GET', '/api/v2/admin/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    expect(answer.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
  });
});

async function findUser(call: Awaited<ReturnType<typeof start>>['call'], username: string): Promise<string> {
  const answer = await call('GET', `/api/v2/admin/users?q=${username}`);
  const users = answer.body.data as Array<{ id: string; attributes: { username: string } }>;
  const user = users.find((u) => u.attributes.username === username);
  if (!user) throw new Error(`no user ${username}`);
  return user.id;
}
