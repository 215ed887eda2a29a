import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.ts';
import { attributesOf, doc, start } from './helpers.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/emulator');

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-emulator-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('state file', () => {
  it('keeps state and tokens across a restart', async () => {
    const statePath = join(dir, 'state.json');
    const first = await start({ statePath });
    const { tokens } = first.emulator;
    await first.call('PATCH', '/api/v2/admin/general-settings', {
      body: doc('general-settings', { 'api-rate-limit': 99 }),
    });
    await first.call('PATCH', '/api/v2/admin/smtp-settings', {
      body: doc('smtp-settings', { host: 'smtp.example.com', password: 'kept-secret' }),
    });
    await first.call('POST', '/api/v2/admin/tool-versions', {
      body: doc('tool-versions', { version: '1.0.0', url: 'https://x.example/a.zip', sha: 'e'.repeat(64) }),
    });
    await first.call('POST', '/api/v2/admin/users/owner/actions/suspend');
    await first.call('POST', '/api/v2/admin/oidc-settings/actions/rotate-key');
    await first.emulator.close();

    const second = await start({ statePath });
    expect(second.emulator.tokens).toEqual(tokens);
    expect(attributesOf(await second.call('GET', '/api/v2/admin/general-settings'))['api-rate-limit']).toBe(99);
    const versions = (await second.call('GET', '/api/v2/admin/tool-versions')).body.data as unknown[];
    expect(versions).toHaveLength(1);
    const owner = await second.call('GET', '/api/v2/admin/users?q=owner');
    expect((owner.body.data as Array<{ attributes: Record<string, unknown> }>)[0]!.attributes['is-suspended']).toBe(
      true,
    );
    // the suspended owner's token is still refused after the restart
    expect((await second.call('GET', '/api/v2/admin/users', { token: tokens.owner })).status).toBe(401);
    // the write-only password survived: enabling SMTP with login auth needs no password again
    const enabled = await second.call('PATCH', '/api/v2/admin/smtp-settings', {
      body: doc('smtp-settings', { enabled: true, port: 25, sender: 'a@example.com', auth: 'login', username: 'u' }),
    });
    expect(enabled.status).toBe(200);
    // the rotation survived: there is an old key to trim
    expect((await second.call('POST', '/api/v2/admin/oidc-settings/actions/trim-key')).status).toBe(204);
    // closed, its debounced write is done: it cannot land in the directory while it is removed
    await second.emulator.close();
  });

  it('writes the file at start, atomically, as JSON with the tokens', async () => {
    const statePath = join(dir, 'fresh.json');
    const { emulator } = await start({ statePath });
    await emulator.close();
    const saved = JSON.parse(await readFile(statePath, 'utf8'));
    expect(saved.format).toBe('converge-emulator-state/1');
    expect(saved.tokens).toEqual(emulator.tokens);
  });

  it('refuses a corrupt or foreign state file with a clear error', async () => {
    const corrupt = join(dir, 'corrupt.json');
    await writeFile(corrupt, '{"format": "converge-emulator-state/1", "tokens": ');
    await expect(startEmulator({ port: 0, statePath: corrupt })).rejects.toThrow(
      /state file .*corrupt\.json is corrupt/,
    );
    const foreign = join(dir, 'foreign.json');
    await writeFile(foreign, JSON.stringify({ hello: 'world' }));
    await expect(startEmulator({ port: 0, statePath: foreign })).rejects.toThrow(/not an emulator state file: format/);
    const badUsers = join(dir, 'bad-users.json');
    const { emulator } = await start({ statePath: badUsers });
    await emulator.close();
    const saved = JSON.parse(await readFile(badUsers, 'utf8'));
    saved.users[0].isAdmin = 'yes';
    await writeFile(badUsers, JSON.stringify(saved));
    await expect(startEmulator({ port: 0, statePath: badUsers })).rejects.toThrow(
      /users\[0\]\.isAdmin is not a boolean/,
    );
  });
});

describe('seed', () => {
  it('adds organizations, users (with fixed tokens), teams and versions from a YAML file', async () => {
    const { call } = await start({ seed: join(FIXTURES, 'seed.yaml') });
    const users = await call('GET', '/api/v2/admin/users?include=organizations');
    const byName = Object.fromEntries(
      (users.body.data as Array<{ attributes: Record<string, unknown> }>).map((u) => [u.attributes.username, u]),
    );
    expect(Object.keys(byName)).toEqual(['admin', 'owner', 'member', 'ci-bot', 'alice', 'bob']);
    expect(byName.alice).toMatchObject({
      attributes: { email: 'alice@corp.example', 'is-admin': true },
      relationships: { organizations: { data: [{ id: 'platform', type: 'organizations' }] } },
    });
    expect(byName.bob).toMatchObject({ attributes: { 'is-suspended': true } });
    expect((await call('GET', '/api/v2/admin/users', { token: 'alice-fixed-token' })).status).toBe(200);
    const tool = await call('GET', '/api/v2/admin/tool-versions');
    expect((tool.body.data as Array<{ attributes: unknown }>)[0]!.attributes).toMatchObject({
      version: '1.5.0',
      official: true,
      usage: 12,
    });
    const policy = await call('GET', '/api/v2/admin/policy-versions');
    expect((policy.body.data as Array<{ attributes: unknown }>)[0]!.attributes).toMatchObject({
      version: '0.20.0',
      deprecated: true,
      'deprecated-reason': 'too old',
    });
  });

  it('reads JSON seed files too', async () => {
    const path = join(dir, 'seed.json');
    await writeFile(path, JSON.stringify({ users: [{ username: 'json-user', token: 'json-token', isAdmin: true }] }));
    const { call } = await start({ seed: path });
    expect((await call('GET', '/api/v2/admin/users', { token: 'json-token' })).status).toBe(200);
  });

  it('reports every problem of a bad seed file at once', async () => {
    const error = await startEmulator({ port: 0, seed: join(FIXTURES, 'bad-seed.yaml') }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    for (const problem of [
      'colour: unknown field',
      'organizations[0].name: expected a non-empty string',
      'users[0].isAdmin: expected true or false',
      'users[0].organizations[0].role: expected owner or member',
      'users[1].username: expected a non-empty string',
      'teams: expected a list',
    ]) {
      expect(message).toContain(problem);
    }
  });

  it('reports references to unknown organizations and users, and duplicate names', async () => {
    const error = await startEmulator({
      port: 0,
      seed: {
        users: [{ username: 'admin' }, { username: 'dave', organizations: [{ name: 'ghost-org', role: 'owner' }] }],
        teams: [{ organization: 'example-org', name: 't', members: ['nobody'] }],
      },
    }).catch((e: Error) => e);
    const message = (error as Error).message;
    expect(message).toContain('username "admin" is declared twice');
    expect(message).toContain('"dave" is in unknown organization "ghost-org"');
    expect(message).toContain('"t" has unknown member "nobody"');
  });

  it('reports a missing seed file', async () => {
    await expect(startEmulator({ port: 0, seed: join(dir, 'missing.yaml') })).rejects.toThrow(/cannot read seed file/);
  });
});
