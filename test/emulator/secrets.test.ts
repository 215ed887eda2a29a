/**
 * The core of the emulator's secrets API, whatever engine is mounted
 * (docs/emulator.md, "Secrets API"): path globs and capabilities, token
 * creation, the envelope and error bodies, and the checks of a seed's
 * `secrets` entry. The SSH engine's own rules are in ssh.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { globMatches } from '../../src/emulator/secrets/access.ts';
import type { SeedData } from '../../src/emulator/seed.ts';
import { startEmulator } from '../../src/emulator/server.ts';
import { type SecretsAnswer, startSecrets } from './secrets-client.ts';

const CA_ROLE = { key_type: 'ca', allow_user_certificates: true, allowed_users: '*' };

function expectDenied(answer: SecretsAnswer): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 403,
    body: { errors: ['permission denied'] },
  });
}

describe('policy globs', () => {
  it.each([
    ['ssh/roles/web', 'ssh/roles/web', true],
    ['ssh/roles/web', 'ssh/roles/web2', false],
    ['ssh/roles/*', 'ssh/roles/web', true],
    ['ssh/roles/*', 'ssh/roles/', true],
    ['ssh/roles/*', 'ssh/roles', false],
    ['ssh/*', 'ssh/roles/web', true],
    ['ssh/roles/we*', 'ssh/roles/west', true],
    ['ssh/roles/we*', 'ssh/roles/db', false],
    ['ssh/+/web', 'ssh/roles/web', true],
    ['ssh/+/web', 'ssh/roles/x/web', false],
    ['+/roles/web', 'ssh-prod/roles/web', true],
    ['+/web', 'ssh/roles/web', false],
    ['ssh/+/*', 'ssh/sign/web', true],
    ['ssh.roles', 'sshXroles', false],
  ])('%s on %s: %s', (glob, path, matches) => {
    expect(globMatches(glob, path)).toBe(matches);
  });
});

describe('policies over HTTP', () => {
  const seed: SeedData = {
    secrets: {
      mounts: [{ path: 'ssh-prod', type: 'ssh' }],
      policies: {
        reader: [{ path: 'ssh/roles/*', capabilities: ['read'] }],
        writer: [{ path: 'ssh/roles/*', capabilities: ['update'] }],
        plus: [
          { path: 'ssh/+/web', capabilities: ['read'] },
          { path: '+/config/ca', capabilities: ['read'] },
        ],
        star: [{ path: 'ssh/roles/we*', capabilities: ['create', 'update', 'read'] }],
        denied: [
          { path: 'ssh/*', capabilities: ['read', 'list'] },
          { path: 'ssh/roles/secret', capabilities: ['deny'] },
        ],
      },
      tokens: [
        { token: 'reader-token', policies: ['reader'] },
        { token: 'reader-writer-token', policies: ['reader', 'writer'] },
        { token: 'plus-token', policies: ['plus'] },
        { token: 'star-token', policies: ['star'] },
        { token: 'denied-token', policies: ['denied'] },
        { token: 'deny-and-root-glob-token', policies: ['denied', 'reader'] },
        { token: 'default-token', policies: ['default'] },
      ],
    },
  };

  async function seeded() {
    const client = await startSecrets({ seed });
    for (const name of ['web', 'db', 'secret']) {
      expect((await client.post(`/ssh/roles/${name}`, CA_ROLE)).status).toBe(204);
    }
    expect((await client.post('/ssh-prod/roles/web', CA_ROLE)).status).toBe(204);
    return client;
  }

  it('adds up the capabilities of all of a token’s policies', async () => {
    const client = await seeded();
    // update alone does not read, read alone does not update
    expectDenied(await client.post('/ssh/roles/web', CA_ROLE, 'reader-token'));
    const both = await client.post('/ssh/roles/web', { ...CA_ROLE, allowed_users: 'alice' }, 'reader-writer-token');
    expect(both.status).toBe(204);
    expect((await client.get('/ssh/roles/web', 'reader-writer-token')).data.allowed_users).toBe('alice');
    // a write to a new role is a create, which neither grants
    expectDenied(await client.post('/ssh/roles/new', CA_ROLE, 'reader-writer-token'));
  });

  it('matches one segment with + and any rest with *', async () => {
    const client = await seeded();
    expect((await client.get('/ssh/roles/web', 'plus-token')).status).toBe(200);
    expectDenied(await client.get('/ssh/roles/db', 'plus-token'));
    // +/config/ca reads the CA of any mount (404: allowed, but there is none)
    expect((await client.get('/ssh/config/ca', 'plus-token')).status).toBe(404);
    expect((await client.get('/ssh-prod/config/ca', 'plus-token')).status).toBe(404);
    expectDenied(await client.get('/ssh-prod/roles/web', 'plus-token'));

    expect((await client.post('/ssh/roles/west', CA_ROLE, 'star-token')).status).toBe(204);
    expect((await client.get('/ssh/roles/web', 'star-token')).status).toBe(200);
    expectDenied(await client.post('/ssh/roles/db', CA_ROLE, 'star-token'));
  });

  it('lets deny win over every grant', async () => {
    const client = await seeded();
    expect((await client.get('/ssh/roles/web', 'denied-token')).status).toBe(200);
    expectDenied(await client.get('/ssh/roles/secret', 'denied-token'));
    // another policy's read on ssh/roles/* does not undo the deny
    expectDenied(await client.get('/ssh/roles/secret', 'deny-and-root-glob-token'));
    expect((await client.list('/ssh/roles', 'denied-token')).data.keys).toEqual(['db', 'secret', 'web']);
  });

  it('grants nothing through a policy no seed defines (default)', async () => {
    const client = await seeded();
    expectDenied(await client.get('/ssh/roles/web', 'default-token'));
    expectDenied(await client.list('/ssh/roles', 'default-token'));
  });

  it('refuses a missing or unknown token with 403 before anything else, even on a missing object', async () => {
    const client = await seeded();
    expectDenied(await client.get('/ssh/roles/nobody', null));
    expectDenied(await client.get('/ssh/roles/nobody', 'guess'));
    expectDenied(await client.list('/ssh/roles', null));
    expectDenied(await client.post('/auth/token/create', {}, null));
  });
});

describe('token create', () => {
  const seed: SeedData = {
    secrets: {
      policies: {
        minter: [
          { path: 'auth/token/create', capabilities: ['update'] },
          { path: 'ssh/roles/*', capabilities: ['read'] },
        ],
        reader: [{ path: 'ssh/roles/*', capabilities: ['read'] }],
      },
      tokens: [
        { token: 'minter-token', displayName: 'token-minter', policies: ['minter', 'reader'] },
        { token: 'reader-token', policies: ['reader'] },
      ],
    },
  };

  it('mints a token in the auth block of the envelope, with data null', async () => {
    const client = await startSecrets();
    const answer = await client.post('/auth/token/create', { policies: ['reader'], display_name: 'ci', ttl: '1h' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, data: null });
    expect(answer.body.auth).toEqual({
      client_token: expect.stringMatching(/^s\.\S+$/),
      accessor: '',
      policies: ['reader'],
      token_policies: ['reader'],
      metadata: null,
      lease_duration: 3600,
      renewable: true,
      entity_id: '',
      token_type: 'service',
      orphan: false,
    });
  });

  it('names a child token-<display name>, sanitized, or token without one', async () => {
    const client = await startSecrets();
    const nameOf = async (body: Record<string, unknown>) =>
      (await client.get('/auth/token/lookup-self', await client.mint(body))).data.display_name;
    expect(await nameOf({ display_name: 'ci' })).toBe('token-ci');
    expect(await nameOf({ display_name: 'CI bot!' })).toBe('token-CI-bot');
    expect(await nameOf({})).toBe('token');
    expect((await client.get('/auth/token/lookup-self')).data).toEqual({ display_name: 'root', policies: ['root'] });
  });

  it('keeps a child within its parent: policies a subset, inherited when not named', async () => {
    const client = await startSecrets({ seed });
    const inherited = await client.mint({ display_name: 'a' }, 'minter-token');
    expect((await client.get('/auth/token/lookup-self', inherited)).data.policies).toEqual(['minter', 'reader']);
    const narrower = await client.mint({ policies: ['reader'] }, 'minter-token');
    expect((await client.get('/auth/token/lookup-self', narrower)).data.policies).toEqual(['reader']);
    expectDenied(await client.post('/auth/token/create', {}, narrower));
    const wider = await client.post('/auth/token/create', { policies: ['reader', 'root'] }, 'minter-token');
    expect({ status: wider.status, body: wider.body }).toEqual({
      status: 400,
      body: { errors: ['child policies must be subset of parent'] },
    });
    // root may hand out any policy
    const anything = await client.mint({ policies: ['minter', 'made-up'] });
    expect((await client.get('/auth/token/lookup-self', anything)).data.policies).toEqual(['minter', 'made-up']);
  });

  it('needs update on auth/token/create', async () => {
    const client = await startSecrets({ seed });
    expectDenied(await client.post('/auth/token/create', { policies: ['reader'] }, 'reader-token'));
  });

  it('gives seeded tokens their display name, token by default', async () => {
    const client = await startSecrets({ seed });
    expect((await client.get('/auth/token/lookup-self', 'minter-token')).data.display_name).toBe('token-minter');
    expect((await client.get('/auth/token/lookup-self', 'reader-token')).data.display_name).toBe('token');
  });
});

describe('wire form', () => {
  it('answers unknown paths inside a mount with 404 {"errors":[]}, JSON', async () => {
    const client = await startSecrets();
    for (const path of ['/sys/mounts', '/ssh/nothing-here', '/ldap/x/y']) {
      const answer = await client.get(path);
      expect({ status: answer.status, body: answer.body }, path).toEqual({ status: 404, body: { errors: [] } });
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('tells a path under no mount from an empty list: 404 naming the route, after the policy check', async () => {
    const client = await startSecrets({
      seed: {
        secrets: {
          mounts: [{ path: 'ssh', type: 'ssh' }],
          policies: { lister: [{ path: 'ssh-prod/*', capabilities: ['list'] }] },
          tokens: [{ token: 'lister-token', policies: ['lister'] }],
        },
      },
    });
    const body = (route: string) => ({ errors: [`no handler for route "${route}". route entry not found.`] });
    // an engine with no roles: the empty 404
    expect((await client.get('/ssh/roles?list=true')).body).toEqual({ errors: [] });
    for (const answer of [await client.get('/ssh-prod/roles?list=true'), await client.list('/ssh-prod/roles')]) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: body('ssh-prod/roles/') });
    }
    const read = await client.get('/kv/data/x');
    expect({ status: read.status, body: read.body }).toEqual({ status: 404, body: body('kv/data/x') });
    const write = await client.post('/team/ssh/roles/web', { key_type: 'otp' });
    expect({ status: write.status, body: write.body }).toEqual({ status: 404, body: body('team/ssh/roles/web') });
    // a token the path's policies do not grant is denied before the route is looked for
    expect((await client.get('/ssh-prod/roles?list=true', 'lister-token')).body).toEqual(body('ssh-prod/roles/'));
    expectDenied(await client.get('/ssh-prod/roles/web', 'lister-token'));
    expectDenied(await client.get('/ssh-prod/roles?list=true', null));
  });

  it('refuses a body that is not a JSON object with 400, on every endpoint that takes one', async () => {
    const client = await startSecrets();
    expect((await client.post('/ssh/roles/web', CA_ROLE)).status).toBe(204);
    expect((await client.post('/ssh/roles/otp', { key_type: 'otp', default_user: 'a' })).status).toBe(204);
    for (const path of [
      '/ssh/roles/new',
      '/ssh/config/ca',
      '/ssh/sign/web',
      '/ssh/issue/web',
      '/ssh/creds/otp',
      '/ssh/lookup',
      '/ssh/config/zeroaddress',
      '/ssh/verify',
      '/auth/token/create',
    ]) {
      const answer = await client.post(path, ['not', 'an', 'object']);
      expect({ status: answer.status, body: answer.body }, path).toEqual({
        status: 400,
        body: { errors: ['the request body must be a JSON object'] },
      });
    }
    // nothing was configured from it
    expect((await client.get('/ssh/config/ca')).status).toBe(404);
  });

  it('reads a body as JSON whatever its media type, and refuses one that does not parse with 400', async () => {
    const client = await startSecrets();
    const post = (body: string, contentType?: string) =>
      fetch(`${client.emulator.url}/v1/ssh/roles/web`, {
        method: 'POST',
        headers: { 'x-service-token': client.root, ...(contentType && { 'content-type': contentType }) },
        body,
      });
    expect((await post(JSON.stringify(CA_ROLE))).status).toBe(204);
    expect((await post(JSON.stringify(CA_ROLE), 'text/plain')).status).toBe(204);
    const bad = await post('{"key_type": ', 'application/json');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ errors: [expect.stringMatching(/^failed to parse JSON input: /)] });
  });

  it('mounts an engine at a nested path from the seed', async () => {
    const client = await startSecrets({ seed: { secrets: { mounts: [{ path: 'teams/a/ssh', type: 'ssh' }] } } });
    expect((await client.post('/teams/a/ssh/roles/web', CA_ROLE)).status).toBe(204);
    expect((await client.list('/teams/a/ssh/roles')).data.keys).toEqual(['web']);
    expect((await client.get('/ssh/roles/web')).status).toBe(404);
  });
});

describe('seed checks', () => {
  it('lists every problem of a bad secrets entry at once', async () => {
    const error = await startEmulator({
      port: 0,
      seed: {
        secrets: {
          colour: 'blue',
          mounts: [
            { path: 'sys', type: 'ssh' },
            { path: '/bad path', type: 'kv' },
            'ssh-x',
            { path: 'team', type: 'ssh' },
            { path: 'team/ssh', type: 'ssh' },
            { path: 'team', type: 'ssh' },
            { path: 'audit/ssh', type: 'ssh' },
          ],
          policies: {
            p: [{ path: '', capabilities: ['read', 'fly'] }],
            q: 'read everything',
          },
          tokens: [
            { token: '', displayName: 7, policies: 'p' },
            { token: 'twice', policies: ['p'] },
            { token: 'twice', policies: ['ghost', 'root', 'default'] },
          ],
        },
      } as never,
    }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const lines = (error as Error).message
      .split('\n')
      .slice(1)
      .map((line) => line.trim());
    expect(lines).toEqual([
      'secrets.colour: unknown field (known: mounts, policies, tokens, directories)',
      'secrets.mounts[0].path: "sys" is reserved by the service',
      'secrets.mounts[1].path: expected a path of letters, digits, - and _ segments',
      'secrets.mounts[1].type: expected ssh or ldap',
      'secrets.mounts[2]: expected a mapping',
      'secrets.mounts[4].path: "team/ssh" overlaps the mount at "team"',
      'secrets.mounts[5].path: "team" overlaps the mount at "team"',
      'secrets.mounts[6].path: "audit/ssh" is reserved by the service',
      'secrets.policies.p[0].path: expected a path glob',
      'secrets.policies.p[0].capabilities: expected a list of create, read, update, delete, list, sudo, deny',
      'secrets.policies.q: expected a list',
      'secrets.tokens[0].token: expected a non-empty string',
      'secrets.tokens[0].displayName: expected a string',
      'secrets.tokens[0].policies: expected a list of policy names',
      'secrets.tokens[2].token: "twice" is declared twice',
      'secrets.tokens[2].policies: unknown policy "ghost"',
    ]);
  });

  it('refuses a secrets entry that is not a mapping', async () => {
    await expect(startEmulator({ port: 0, seed: { secrets: ['ssh'] } as never })).rejects.toThrow(
      'secrets: expected a mapping',
    );
  });
});
