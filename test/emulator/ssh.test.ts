/**
 * The SSH secrets engine of the emulator over HTTP, against a real emulator
 * on loopback: roles, mounts, policies, the CA, signing and issuing, OTPs,
 * persistence and one real login. The rules are the contract's
 * (docs/emulator.md, "SSH engine"); every certificate the API hands out is
 * read back with `ssh-keygen -L`, which also checks the CA's signature.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedData } from '../../src/emulator/seed.ts';
import type { EmulatorOptions } from '../../src/emulator/server.ts';
import { generateKeyPair, parsePrivateKey, parsePublicKey } from '../../src/emulator/ssh/keys.ts';
import { type SecretsAnswer, type SecretsClient, startSecrets } from './secrets-client.ts';
import {
  keyBlobSha256,
  type Listing,
  listCertificate,
  sshFingerprint,
  ThrowawaySshd,
  USER,
  validityOf,
} from './ssh-tools.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOUR = 3600;
const SYSTEM_MAX_TTL = 768 * HOUR;

// Subject keys and an RSA CA to import; RSA generation is the slow part, so once per file.
const ED_KEY = generateKeyPair('ed25519', 0);
const RSA_KEY = generateKeyPair('rsa', 2048);
const RSA_CA = generateKeyPair('rsa', 2048);
const ED_CA = generateKeyPair('ed25519', 0);

const now = () => Math.floor(Date.now() / 1000);

function expectError(answer: SecretsAnswer, status: number, message: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { errors: [message] } });
}

function expectNotFound(answer: SecretsAnswer): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: { errors: [] } });
}

/** A write answers 204 with no body at all. */
function expectWritten(answer: SecretsAnswer): void {
  expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: '' });
}

/** An emulator whose `ssh` mount has a CA (imported, so it is fast and known). */
async function withCa(ca = ED_CA, options: EmulatorOptions = {}): Promise<SecretsClient> {
  const client = await startSecrets(options);
  expectWritten(await client.post('/ssh/config/ca', { private_key: ca.privateKey, public_key: ca.publicKey }));
  return client;
}

async function role(client: SecretsClient, name: string, body: Record<string, unknown>, mount = 'ssh') {
  expectWritten(await client.post(`/${mount}/roles/${name}`, body));
}

/** A user-certificate role that allows any principal. */
const USER_ROLE = { key_type: 'ca', allow_user_certificates: true, allowed_users: '*' };

/** Signs, expects success, and reads the certificate back. */
async function signed(
  client: SecretsClient,
  roleName: string,
  body: Record<string, unknown>,
  token?: string,
): Promise<{ answer: SecretsAnswer; listing: Listing }> {
  const answer = await client.post(`/ssh/sign/${roleName}`, { public_key: ED_KEY.publicKey, ...body }, token);
  expect(answer.status, answer.text).toBe(200);
  const signedKey = String(answer.data.signed_key);
  return { answer, listing: listCertificate(signedKey) };
}

describe('SSH roles', () => {
  it('creates an otp role with every parameter and reads back only the otp fields', async () => {
    const client = await startSecrets();
    await role(client, 'otp', {
      key_type: 'otp',
      default_user: 'admin',
      default_user_template: false,
      cidr_list: '10.0.0.0/24,192.168.1.0/24',
      exclude_cidr_list: '10.0.0.128/25',
      port: 2222,
      allowed_users: 'admin,deploy',
      allowed_users_template: false,
      allowed_domains: 'example.com',
      allowed_domains_template: false,
      ttl: '30m',
      max_ttl: '12h',
      allowed_critical_options: 'force-command',
      allowed_extensions: 'permit-pty',
      default_critical_options: { 'force-command': '/bin/true' },
      default_extensions: { 'permit-pty': '' },
      default_extensions_template: false,
      allow_user_certificates: true,
      allow_host_certificates: true,
      allow_bare_domains: true,
      allow_subdomains: true,
      allow_user_key_ids: true,
      key_id_format: '{{role_name}}',
      allowed_user_key_lengths: { rsa: 2048 },
      allow_empty_principals: true,
      algorithm_signer: 'rsa-sha2-512',
      not_before_duration: '1m',
    });
    const read = await client.get('/ssh/roles/otp');
    expect(read.status).toBe(200);
    expect(read.data).toEqual({
      key_type: 'otp',
      default_user: 'admin',
      cidr_list: '10.0.0.0/24,192.168.1.0/24',
      exclude_cidr_list: '10.0.0.128/25',
      port: 2222,
      allowed_users: 'admin,deploy',
    });
  });

  it('creates a ca role with every parameter and reads back the ca fields, durations as integer seconds', async () => {
    const client = await startSecrets();
    await role(client, 'ca', {
      key_type: 'ca',
      default_user: 'ubuntu',
      default_user_template: true,
      cidr_list: '10.0.0.0/24',
      exclude_cidr_list: '10.0.0.128/25',
      port: 2222,
      allowed_users: 'ubuntu,{{identity.entity.name}}',
      allowed_users_template: true,
      allowed_domains: 'example.com,{{identity.entity.name}}.example.org',
      allowed_domains_template: true,
      ttl: '30m',
      max_ttl: '12h',
      allowed_critical_options: 'force-command,source-address',
      allowed_extensions: 'permit-pty,permit-port-forwarding',
      default_critical_options: { 'source-address': '10.0.0.0/8' },
      default_extensions: { 'permit-pty': '' },
      default_extensions_template: true,
      allow_user_certificates: true,
      allow_host_certificates: true,
      allow_bare_domains: true,
      allow_subdomains: true,
      allow_user_key_ids: true,
      key_id_format: 'custom-{{role_name}}-{{token_display_name}}',
      allowed_user_key_lengths: { rsa: '2048, 4096', ed25519: 0, 'ecdsa-sha2-nistp256': [256] },
      allow_empty_principals: true,
      algorithm_signer: 'rsa-sha2-512',
      not_before_duration: '2m',
    });
    const read = await client.get('/ssh/roles/ca');
    expect(read.data).toEqual({
      key_type: 'ca',
      default_user: 'ubuntu',
      default_user_template: true,
      allowed_users: 'ubuntu,{{identity.entity.name}}',
      allowed_users_template: true,
      allowed_domains: 'example.com,{{identity.entity.name}}.example.org',
      allowed_domains_template: true,
      ttl: 1800,
      max_ttl: 43200,
      allowed_critical_options: 'force-command,source-address',
      allowed_extensions: 'permit-pty,permit-port-forwarding',
      default_critical_options: { 'source-address': '10.0.0.0/8' },
      default_extensions: { 'permit-pty': '' },
      default_extensions_template: true,
      allow_user_certificates: true,
      allow_host_certificates: true,
      allow_bare_domains: true,
      allow_subdomains: true,
      allow_user_key_ids: true,
      key_id_format: 'custom-{{role_name}}-{{token_display_name}}',
      allowed_user_key_lengths: { rsa: [2048, 4096], ed25519: [0], 'ecdsa-sha2-nistp256': [256] },
      allow_empty_principals: true,
      algorithm_signer: 'rsa-sha2-512',
      not_before_duration: 120,
    });
  });

  it('fills the defaults: port 22, not_before_duration 30, algorithm_signer default, empty lists and maps', async () => {
    const client = await startSecrets();
    await role(client, 'otp', { key_type: 'otp', default_user: 'admin' });
    expect((await client.get('/ssh/roles/otp')).data).toEqual({
      key_type: 'otp',
      default_user: 'admin',
      cidr_list: '',
      exclude_cidr_list: '',
      port: 22,
      allowed_users: '',
    });
    await role(client, 'ca', { key_type: 'ca', allow_host_certificates: true });
    expect((await client.get('/ssh/roles/ca')).data).toEqual({
      key_type: 'ca',
      default_user: '',
      default_user_template: false,
      allowed_users: '',
      allowed_users_template: false,
      allowed_domains: '',
      allowed_domains_template: false,
      ttl: 0,
      max_ttl: 0,
      allowed_critical_options: '',
      allowed_extensions: '',
      default_critical_options: {},
      default_extensions: {},
      default_extensions_template: false,
      allow_user_certificates: false,
      allow_host_certificates: true,
      allow_bare_domains: false,
      allow_subdomains: false,
      allow_user_key_ids: false,
      key_id_format: '',
      allowed_user_key_lengths: {},
      allow_empty_principals: false,
      algorithm_signer: 'default',
      not_before_duration: 30,
    });
  });

  it('converts as the service does: key_type lower-cased, seconds as integers or strings, bools as strings', async () => {
    const client = await startSecrets();
    await role(client, 'ca', {
      key_type: 'CA',
      allow_user_certificates: 'true',
      ttl: 90,
      max_ttl: '7200',
      not_before_duration: '45s',
      port: '2022',
      algorithm_signer: '',
    });
    expect((await client.get('/ssh/roles/ca')).data).toMatchObject({
      key_type: 'ca',
      allow_user_certificates: true,
      ttl: 90,
      max_ttl: 7200,
      not_before_duration: 45,
      algorithm_signer: 'default',
    });
  });

  it('rebuilds the role on every POST: a field left out returns to its default', async () => {
    const client = await startSecrets();
    await role(client, 'ca', {
      ...USER_ROLE,
      allowed_users: 'alice',
      ttl: '1h',
      default_extensions: { 'permit-pty': '' },
      algorithm_signer: 'rsa-sha2-512',
    });
    await role(client, 'ca', { key_type: 'ca', allow_host_certificates: true });
    expect((await client.get('/ssh/roles/ca')).data).toMatchObject({
      allowed_users: '',
      allow_user_certificates: false,
      allow_host_certificates: true,
      ttl: 0,
      default_extensions: {},
      algorithm_signer: 'default',
    });
    await role(client, 'otp', { key_type: 'otp', default_user: 'a', port: 2222, cidr_list: '10.0.0.0/8' });
    await role(client, 'otp', { key_type: 'otp', default_user: 'b' });
    expect((await client.get('/ssh/roles/otp')).data).toMatchObject({ default_user: 'b', port: 22, cidr_list: '' });
  });

  it.each([
    ['missing key type', { default_user: 'a' }, 'missing key type'],
    ['an invalid key type', { key_type: 'password' }, 'invalid key type'],
    ['the removed dynamic key type', { key_type: 'dynamic' }, 'dynamic key type roles are no longer supported'],
    ['an otp role without default user', { key_type: 'otp', cidr_list: '10.0.0.0/8' }, 'missing default user'],
    [
      'a bad cidr_list',
      { key_type: 'otp', default_user: 'a', cidr_list: '10.0.0.0/8,not-a-cidr' },
      'failed to validate cidr_list',
    ],
    [
      'ttl above max_ttl',
      { ...USER_ROLE, ttl: '2h', max_ttl: '1h' },
      '"ttl" value must be less than "max_ttl" when both are specified',
    ],
    [
      'neither user nor host certificates',
      { key_type: 'ca', allowed_users: '*' },
      "Either 'allow_user_certificates' or 'allow_host_certificates' must be set to 'true'",
    ],
    [
      'bad allowed_user_key_lengths',
      { ...USER_ROLE, allowed_user_key_lengths: { rsa: 'big' } },
      'error processing allowed_user_key_lengths: sizes of rsa must be whole numbers',
    ],
    [
      'an unknown algorithm_signer',
      { ...USER_ROLE, algorithm_signer: 'rsa-md5' },
      'unknown algorithm signer "rsa-md5"',
    ],
    [
      'a field that does not convert',
      { key_type: 'otp', default_user: 'a', port: 'twenty-two' },
      'Field validation failed: error converting input "twenty-two" for field "port": not a int',
    ],
  ])('refuses %s with a 400 and the message', async (_name, body, message) => {
    const client = await startSecrets();
    expectError(await client.post('/ssh/roles/bad', body), 400, message);
    expectNotFound(await client.get('/ssh/roles/bad'));
  });

  it('lists roles with the LIST method on one keep-alive connection: two LISTs and a GET', async () => {
    const client = await startSecrets();
    await role(client, 'web', USER_ROLE);
    await role(client, 'otp', { key_type: 'otp', default_user: 'a' });
    const { port } = new URL(client.emulator.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    const head = (line: string) =>
      `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: ${client.root}\r\nConnection: keep-alive\r\n\r\n`;
    socket.write(head('LIST /v1/ssh/roles') + head('LIST /v1/ssh/roles/') + head('GET /v1/ssh/roles/web'));
    const responses = await new Promise<Array<{ status: number; body: SecretsAnswer['body'] }>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no three answers: ${received}`)), 5_000);
      socket.on('data', () => {
        const parsed = parseResponses(received);
        if (parsed.length === 3) {
          clearTimeout(timer);
          resolve(parsed);
        }
      });
    });
    expect(socket.destroyed).toBe(false);
    socket.destroy();
    const listing = { keys: ['otp', 'web'], key_info: { otp: { key_type: 'otp' }, web: { key_type: 'ca' } } };
    expect(responses[0]).toMatchObject({ status: 200, body: { data: listing } });
    expect(responses[1]).toMatchObject({ status: 200, body: { data: listing } });
    expect(responses[2]).toMatchObject({ status: 200, body: { data: { key_type: 'ca', allowed_users: '*' } } });
  });

  it('lists roles with GET ?list= and any value Go ParseBool takes; another value is a 400', async () => {
    const client = await startSecrets();
    await role(client, 'b', USER_ROLE);
    await role(client, 'a', { key_type: 'otp', default_user: 'x' });
    for (const value of ['true', '1', 'TRUE', 't', 'True']) {
      const answer = await client.get(`/ssh/roles?list=${value}`);
      expect(answer.status, value).toBe(200);
      expect(answer.data).toEqual({ keys: ['a', 'b'], key_info: { a: { key_type: 'otp' }, b: { key_type: 'ca' } } });
    }
    expect((await client.get('/ssh/roles/?list=true')).data.keys).toEqual(['a', 'b']);
    expect((await client.list('/ssh/roles')).data.keys).toEqual(['a', 'b']);
    expectError(await client.get('/ssh/roles?list=maybe'), 400, 'invalid value for "list": maybe');
    // not a list request (an empty value too, as with the service): the collection path has no plain GET
    expect((await client.get('/ssh/roles?list=false')).status).toBe(405);
    expect((await client.get('/ssh/roles?list=')).status).toBe(405);
  });

  it('answers an empty LIST with 404 and an empty error list', async () => {
    const client = await startSecrets();
    expectNotFound(await client.list('/ssh/roles'));
    expectNotFound(await client.get('/ssh/roles?list=true'));
    await role(client, 'gone', USER_ROLE);
    expectWritten(await client.delete('/ssh/roles/gone'));
    expectNotFound(await client.list('/ssh/roles'));
  });

  it('answers a missing role with 404 and an empty error list, and deletes with 204', async () => {
    const client = await startSecrets();
    expectNotFound(await client.get('/ssh/roles/nobody'));
    await role(client, 'web', USER_ROLE);
    expectWritten(await client.delete('/ssh/roles/web'));
    expectNotFound(await client.get('/ssh/roles/web'));
    // deleting what is not there is no error, as with the service
    expectWritten(await client.delete('/ssh/roles/web'));
  });

  it('answers reads in the envelope', async () => {
    const client = await startSecrets();
    await role(client, 'web', USER_ROLE);
    const read = await client.get('/ssh/roles/web');
    expect(read.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(read.body).sort()).toEqual([
      'auth',
      'data',
      'lease_duration',
      'lease_id',
      'renewable',
      'request_id',
      'warnings',
      'wrap_info',
    ]);
    expect(read.body).toMatchObject({
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      wrap_info: null,
      warnings: null,
      auth: null,
    });
    expect(read.body.request_id).toMatch(UUID);
    expect((await client.get('/ssh/roles/web')).body.request_id).not.toBe(read.body.request_id);
  });
});

/** Complete HTTP/1.1 responses with Content-Length bodies, in order. */
function parseResponses(text: string): Array<{ status: number; body: SecretsAnswer['body'] }> {
  const out: Array<{ status: number; body: SecretsAnswer['body'] }> = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) return out;
    const head = rest.slice(0, headEnd);
    const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (rest.length < headEnd + 4 + length) return out;
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    out.push({ status: Number(head.split(' ')[1]), body: body === '' ? {} : JSON.parse(body) });
    rest = rest.slice(headEnd + 4 + length);
  }
}

describe('SSH mounts', () => {
  it('keeps a second mount from the seed independent of ssh', async () => {
    const client = await startSecrets({ seed: { secrets: { mounts: [{ path: 'ssh-prod', type: 'ssh' }] } } });
    await role(client, 'web', USER_ROLE);
    expectNotFound(await client.get('/ssh-prod/roles/web'));
    await role(client, 'web', { key_type: 'otp', default_user: 'prod' }, 'ssh-prod');
    expect((await client.get('/ssh/roles/web')).data.key_type).toBe('ca');
    expect((await client.get('/ssh-prod/roles/web')).data.key_type).toBe('otp');
    expect((await client.list('/ssh-prod/roles')).data.keys).toEqual(['web']);

    const generated = await client.post('/ssh/config/ca', { key_type: 'ed25519' });
    expect(generated.status).toBe(200);
    expectNotFound(await client.get('/ssh-prod/config/ca'));
    expectNotFound(await client.get('/ssh-prod/public_key', null));
    const prodCa = await client.post('/ssh-prod/config/ca', { key_type: 'ed25519' });
    expect(prodCa.data.public_key).not.toBe(generated.data.public_key);
    expect((await client.get('/ssh/public_key', null)).text.trim()).toBe(generated.data.public_key);
    expectWritten(await client.delete('/ssh-prod/roles/web'));
    expect((await client.get('/ssh/roles/web')).status).toBe(200);
  });

  it('answers an unmounted path with 404 naming the route, as the service does', async () => {
    const client = await startSecrets();
    for (const [answer, route] of [
      [await client.get('/ssh-prod/roles/web'), 'ssh-prod/roles/web'],
      [await client.post('/nowhere/roles/web', USER_ROLE), 'nowhere/roles/web'],
    ] as const) {
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 404,
        body: { errors: [`no handler for route "${route}". route entry not found.`] },
      });
    }
  });
});

describe('SSH access', () => {
  const seed: SeedData = {
    secrets: {
      policies: {
        reader: [{ path: 'ssh/roles/*', capabilities: ['read'] }],
        lister: [{ path: 'ssh/roles/', capabilities: ['list'] }],
        'sign-both': [{ path: 'ssh/sign/*', capabilities: ['create', 'update'] }],
        'sign-update': [{ path: 'ssh/sign/*', capabilities: ['update'] }],
        'sign-create': [{ path: 'ssh/sign/*', capabilities: ['create'] }],
        ci: [
          { path: 'auth/token/create', capabilities: ['update'] },
          { path: 'ssh/sign/+', capabilities: ['create', 'update'] },
        ],
      },
      tokens: [
        { token: 'reader-token', policies: ['reader'] },
        { token: 'lister-token', policies: ['lister'] },
        { token: 'sign-both-token', policies: ['sign-both'] },
        { token: 'sign-update-token', policies: ['sign-update'] },
        { token: 'sign-create-token', policies: ['sign-create'] },
        { token: 'ci-token', displayName: 'token-ci', policies: ['ci'] },
      ],
    },
  };

  it('refuses a request without a token or with an unknown one: 403 permission denied', async () => {
    const client = await startSecrets();
    await role(client, 'web', USER_ROLE);
    expectError(await client.get('/ssh/roles/web', null), 403, 'permission denied');
    expectError(await client.get('/ssh/roles/web', 'no-such-token'), 403, 'permission denied');
    expectError(await client.post('/ssh/roles/web', USER_ROLE, null), 403, 'permission denied');
  });

  it('lets a read-only token read but not write or delete', async () => {
    const client = await startSecrets({ seed });
    await role(client, 'web', USER_ROLE);
    expect((await client.get('/ssh/roles/web', 'reader-token')).status).toBe(200);
    expectError(await client.post('/ssh/roles/web', USER_ROLE, 'reader-token'), 403, 'permission denied');
    expectError(await client.post('/ssh/roles/new', USER_ROLE, 'reader-token'), 403, 'permission denied');
    expectError(await client.delete('/ssh/roles/web', 'reader-token'), 403, 'permission denied');
    expectError(await client.post('/ssh/config/ca', {}, 'reader-token'), 403, 'permission denied');
  });

  it('needs the list capability on the path with a trailing / for LIST', async () => {
    const client = await startSecrets({ seed });
    await role(client, 'web', USER_ROLE);
    // read on ssh/roles/* matches ssh/roles/ too, but read is not list
    expectError(await client.list('/ssh/roles', 'reader-token'), 403, 'permission denied');
    expectError(await client.get('/ssh/roles?list=true', 'reader-token'), 403, 'permission denied');
    expect((await client.list('/ssh/roles', 'lister-token')).data.keys).toEqual(['web']);
    expect((await client.get('/ssh/roles/?list=1', 'lister-token')).data.keys).toEqual(['web']);
    expectError(await client.get('/ssh/roles/web', 'lister-token'), 403, 'permission denied');
  });

  it('signs only with both create and update on the sign path', async () => {
    const client = await withCa(ED_CA, { seed });
    await role(client, 'web', USER_ROLE);
    const body = { public_key: ED_KEY.publicKey, valid_principals: 'alice' };
    const both = await client.post('/ssh/sign/web', body, 'sign-both-token');
    expect(both.status).toBe(200);
    // a seeded token without a display name is `token`
    expect(listCertificate(String(both.data.signed_key))).toMatchObject({
      principals: ['alice'],
      keyId: `"vault-token-${keyBlobSha256(ED_KEY.publicKey)}"`,
    });
    expectError(await client.post('/ssh/sign/web', body, 'sign-update-token'), 403, 'permission denied');
    expectError(await client.post('/ssh/sign/web', body, 'sign-create-token'), 403, 'permission denied');
    expectError(await client.post('/ssh/issue/web', body, 'sign-update-token'), 403, 'permission denied');
  });

  it('serves verify and public_key without a token', async () => {
    const client = await withCa();
    const key = await client.get('/ssh/public_key', null);
    expect(key.status).toBe(200);
    expect(key.text.trim()).toBe(ED_CA.publicKey);
    const ping = await client.post('/ssh/verify', { otp: 'ping' }, null);
    expect(ping.status).toBe(200);
    expect(ping.data).toEqual({ message: 'pong' });
  });

  it('mints child tokens with a subset of the parent policies, whose display name feeds the key id', async () => {
    const client = await startSecrets({ seed });
    await role(client, 'web', USER_ROLE);
    expectWritten(await client.post('/ssh/config/ca', { private_key: ED_CA.privateKey, public_key: ED_CA.publicKey }));
    expectError(
      await client.post('/auth/token/create', { policies: ['ci', 'reader'], display_name: 'x' }, 'ci-token'),
      400,
      'child policies must be subset of parent',
    );
    const child = await client.mint({ policies: ['ci'], display_name: 'ci' }, 'ci-token');
    const { listing } = await signed(client, 'web', { valid_principals: 'deploy' }, child);
    expect(listing.keyId).toBe(`"vault-token-ci-${keyBlobSha256(ED_KEY.publicKey)}"`);
    // the child can do what its policies allow and no more
    expectError(await client.get('/ssh/roles/web', child), 403, 'permission denied');
  });
});

describe('SSH certificate authority', () => {
  it('generates an RSA 4096 CA by default and answers 200 with the public key', async () => {
    const client = await startSecrets();
    const answer = await client.post('/ssh/config/ca', {});
    expect(answer.status).toBe(200);
    const key = parsePublicKey(String(answer.data.public_key));
    expect(key).toMatchObject({ sshType: 'ssh-rsa', bits: 4096 });
    expect(answer.data).toEqual({ public_key: answer.data.public_key });
  }, 60_000);

  it.each([
    [{ key_type: 'ed25519' }, 'ssh-ed25519', 256],
    [{ key_type: 'ssh-ed25519' }, 'ssh-ed25519', 256],
    [{ key_type: 'ecdsa-sha2-nistp384' }, 'ecdsa-sha2-nistp384', 384],
    [{ key_type: 'ec' }, 'ecdsa-sha2-nistp256', 256],
    [{ key_type: 'ec', key_bits: 521 }, 'ecdsa-sha2-nistp521', 521],
  ])('generates a CA for %j', async (body, sshType, bits) => {
    const client = await startSecrets();
    const answer = await client.post('/ssh/config/ca', body);
    expect(answer.status).toBe(200);
    expect(parsePublicKey(String(answer.data.public_key))).toMatchObject({ sshType, bits });
    expect((await client.get('/ssh/config/ca')).data).toEqual({ public_key: answer.data.public_key });
  });

  it.each([
    [{ key_type: 'dsa' }, 'unknown key_type: dsa'],
    [{ key_type: 'rsa', key_bits: 1024 }, 'invalid key_bits 1024 for rsa'],
    [{ key_type: 'ec', key_bits: 300 }, 'invalid key_bits 300 for ec'],
    [{ key_type: 'ecdsa-sha2-nistp256', key_bits: 384 }, 'invalid key_bits 384 for ecdsa-sha2-nistp256'],
  ])('refuses %j with a 400', async (body, message) => {
    const client = await startSecrets();
    expectError(await client.post('/ssh/config/ca', body), 400, message);
    expectNotFound(await client.get('/ssh/config/ca'));
  });

  it('imports a key pair with 204, serves it, and refuses a mismatched pair or keys with generate', async () => {
    const client = await startSecrets();
    expectError(
      await client.post('/ssh/config/ca', { private_key: ED_CA.privateKey, public_key: RSA_CA.publicKey }),
      400,
      'public_key does not match private_key',
    );
    expectError(
      await client.post('/ssh/config/ca', {
        generate_signing_key: true,
        private_key: ED_CA.privateKey,
        public_key: ED_CA.publicKey,
      }),
      400,
      'public_key and private_key must not be set when generate_signing_key is true',
    );
    expectError(
      await client.post('/ssh/config/ca', { generate_signing_key: false, public_key: ED_CA.publicKey }),
      400,
      'missing private_key',
    );
    expectNotFound(await client.get('/ssh/config/ca'));
    expectWritten(
      await client.post('/ssh/config/ca', { private_key: RSA_CA.privateKey, public_key: `${RSA_CA.publicKey} ca@x` }),
    );
    // the comment is not part of the key the service keeps
    expect((await client.get('/ssh/config/ca')).data).toEqual({ public_key: RSA_CA.publicKey });
  });

  it('replaces the CA on a new submission: the public key and the signing CA change', async () => {
    const client = await withCa(ED_CA);
    await role(client, 'web', USER_ROLE);
    const before = await signed(client, 'web', { valid_principals: 'a' });
    expect(before.listing.signingCa).toContain(sshFingerprint(ED_CA.publicKey));
    const replaced = await client.post('/ssh/config/ca', { key_type: 'ed25519' });
    expect(replaced.status).toBe(200);
    expect(replaced.data.public_key).not.toBe(ED_CA.publicKey);
    expect((await client.get('/ssh/public_key', null)).text.trim()).toBe(replaced.data.public_key);
    const after = await signed(client, 'web', { valid_principals: 'a' });
    expect(after.listing.signingCa).toContain(sshFingerprint(String(replaced.data.public_key)));
  });

  it('serves the public key as text/plain, raw', async () => {
    const client = await withCa();
    const answer = await client.get('/ssh/public_key', null);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.text).toBe(`${ED_CA.publicKey}\n`);
  });

  it('deletes the CA: reads are 404 and signing is refused', async () => {
    const client = await withCa();
    await role(client, 'web', USER_ROLE);
    expectWritten(await client.delete('/ssh/config/ca'));
    expectNotFound(await client.get('/ssh/config/ca'));
    expectNotFound(await client.get('/ssh/public_key', null));
    expectError(
      await client.post('/ssh/sign/web', { public_key: ED_KEY.publicKey, valid_principals: 'a' }),
      400,
      'backend not configured with a CA key pair',
    );
  });
});

describe('SSH signing', () => {
  it('signs a user certificate with the role defaults, read back by ssh-keygen', async () => {
    const client = await withCa();
    await role(client, 'web', { ...USER_ROLE, default_extensions: { 'permit-pty': '' } });
    const before = now();
    const { answer, listing } = await signed(client, 'web', { valid_principals: 'alice,bob' });
    expect(Object.keys(answer.data).sort()).toEqual(['serial_number', 'signed_key']);
    expect(String(answer.data.signed_key)).toMatch(/^ssh-ed25519-cert-v01@openssh\.com \S+\n$/);
    expect(listing).toMatchObject({
      type: 'ssh-ed25519-cert-v01@openssh.com user certificate',
      publicKey: `ED25519-CERT ${sshFingerprint(ED_KEY.publicKey)}`,
      signingCa: `ED25519 ${sshFingerprint(ED_CA.publicKey)} (using ssh-ed25519)`,
      keyId: `"vault-root-${keyBlobSha256(ED_KEY.publicKey)}"`,
      serial: BigInt(`0x${answer.data.serial_number}`).toString(),
      principals: ['alice', 'bob'],
      criticalOptions: [],
      extensions: ['permit-pty'],
    });
    const { from, to } = validityOf(listing);
    expect(from).toBeGreaterThanOrEqual(before - 30 - 1);
    expect(from).toBeLessThanOrEqual(now() - 30);
    // no ttl anywhere: the system maximum
    expect(to - from).toBe(SYSTEM_MAX_TTL + 30);
  });

  it('honours cert_type against allow_user_certificates and allow_host_certificates', async () => {
    const client = await withCa();
    await role(client, 'users', USER_ROLE);
    await role(client, 'hosts', { key_type: 'ca', allow_host_certificates: true, allowed_domains: '*' });
    const key = { public_key: ED_KEY.publicKey, valid_principals: 'a.example.com' };
    expectError(
      await client.post('/ssh/sign/users', { ...key, cert_type: 'host' }),
      400,
      "cert_type 'host' is not allowed by role",
    );
    expectError(await client.post('/ssh/sign/hosts', key), 400, "cert_type 'user' is not allowed by role");
    expectError(
      await client.post('/ssh/sign/hosts', { ...key, cert_type: 'both' }),
      400,
      "cert_type must be either 'user' or 'host'",
    );
    const { listing } = await signed(client, 'hosts', { ...key, cert_type: 'host' });
    expect(listing).toMatchObject({
      type: 'ssh-ed25519-cert-v01@openssh.com host certificate',
      principals: ['a.example.com'],
    });
  });

  it('checks principals against allowed_users: * allows any, a list only its names', async () => {
    const client = await withCa();
    await role(client, 'any', USER_ROLE);
    expect((await signed(client, 'any', { valid_principals: 'whoever' })).listing.principals).toEqual(['whoever']);
    await role(client, 'listed', { ...USER_ROLE, allowed_users: 'alice, bob' });
    expect((await signed(client, 'listed', { valid_principals: 'bob,alice' })).listing.principals).toEqual([
      'bob',
      'alice',
    ]);
    expectError(
      await client.post('/ssh/sign/listed', { public_key: ED_KEY.publicKey, valid_principals: 'alice,carol' }),
      400,
      'carol is not a valid value for valid_principals',
    );
    await role(client, 'none', { ...USER_ROLE, allowed_users: '' });
    expectError(
      await client.post('/ssh/sign/none', { public_key: ED_KEY.publicKey, valid_principals: 'alice' }),
      400,
      'role is not configured to allow any principals',
    );
  });

  it('uses default_user when valid_principals is left out, and only if it is allowed', async () => {
    const client = await withCa();
    await role(client, 'ok', { ...USER_ROLE, default_user: 'alice', allowed_users: 'alice,bob' });
    expect((await signed(client, 'ok', {})).listing.principals).toEqual(['alice']);
    expect((await signed(client, 'ok', { valid_principals: 'bob' })).listing.principals).toEqual(['bob']);
    await role(client, 'not-listed', { ...USER_ROLE, default_user: 'eve', allowed_users: 'alice' });
    expectError(
      await client.post('/ssh/sign/not-listed', { public_key: ED_KEY.publicKey }),
      400,
      'eve is not a valid value for valid_principals',
    );
  });

  it('checks host principals against allowed_domains with allow_bare_domains and allow_subdomains', async () => {
    const client = await withCa();
    const host = { key_type: 'ca', allow_host_certificates: true, allowed_domains: 'example.com' };
    await role(client, 'bare', { ...host, allow_bare_domains: true });
    await role(client, 'sub', { ...host, allow_subdomains: true });
    await role(client, 'any', { ...host, allowed_domains: '*' });
    const sign = (name: string, principal: string) =>
      client.post(`/ssh/sign/${name}`, {
        public_key: ED_KEY.publicKey,
        cert_type: 'host',
        valid_principals: principal,
      });
    const refusedFor = (principal: string) => `${principal} is not a valid value for valid_principals`;
    expect(
      (await signed(client, 'bare', { cert_type: 'host', valid_principals: 'example.com' })).listing.principals,
    ).toEqual(['example.com']);
    expectError(await sign('bare', 'web.example.com'), 400, refusedFor('web.example.com'));
    expect(
      (await signed(client, 'sub', { cert_type: 'host', valid_principals: 'web.example.com,a.b.example.com' })).listing
        .principals,
    ).toEqual(['web.example.com', 'a.b.example.com']);
    expectError(await sign('sub', 'example.com'), 400, refusedFor('example.com'));
    expectError(await sign('sub', 'evilexample.com'), 400, refusedFor('evilexample.com'));
    expect((await signed(client, 'any', { cert_type: 'host', valid_principals: 'x.test' })).listing.principals).toEqual(
      ['x.test'],
    );
  });

  it("expands {{identity.entity.name}} templates to the token's name when the *_template flags are set", async () => {
    const client = await withCa();
    const alice = await client.mint({ display_name: 'alice' });
    const identity = '{{identity.entity.name}}';
    await role(client, 'templated', {
      ...USER_ROLE,
      allowed_users: `${identity},ops`,
      allowed_users_template: true,
      default_user: `${identity}`,
      default_user_template: true,
      default_extensions: { 'login@example.com': identity },
      default_extensions_template: true,
    });
    const { listing } = await signed(client, 'templated', {}, alice);
    expect(listing.principals).toEqual(['alice']);
    expect(listing.extensions).toEqual([
      `login@example.com UNKNOWN OPTION: ${sshStringHex('alice')} (len ${4 + 'alice'.length})`,
    ]);
    expect((await signed(client, 'templated', { valid_principals: 'ops' }, alice)).listing.principals).toEqual(['ops']);
    expectError(
      await client.post('/ssh/sign/templated', { public_key: ED_KEY.publicKey, valid_principals: 'bob' }, alice),
      400,
      'bob is not a valid value for valid_principals',
    );
    // without the flag the template is a literal name
    await role(client, 'literal', { ...USER_ROLE, allowed_users: identity });
    expectError(
      await client.post('/ssh/sign/literal', { public_key: ED_KEY.publicKey, valid_principals: 'alice' }, alice),
      400,
      'alice is not a valid value for valid_principals',
    );
    await role(client, 'hosts', {
      key_type: 'ca',
      allow_host_certificates: true,
      allow_subdomains: true,
      allowed_domains: `${identity}.example.com`,
      allowed_domains_template: true,
    });
    const host = await signed(client, 'hosts', { cert_type: 'host', valid_principals: 'web.alice.example.com' }, alice);
    expect(host.listing.principals).toEqual(['web.alice.example.com']);
  });

  it('refuses empty principals unless allow_empty_principals', async () => {
    const client = await withCa();
    await role(client, 'strict', USER_ROLE);
    expectError(
      await client.post('/ssh/sign/strict', { public_key: ED_KEY.publicKey }),
      400,
      'empty valid principals not allowed by role',
    );
    await role(client, 'lax', { ...USER_ROLE, allow_empty_principals: true });
    expect((await signed(client, 'lax', {})).listing.principals).toEqual([]);
  });

  it('takes the ttl from the request, else the role, and refuses one above max_ttl', async () => {
    const client = await withCa();
    await role(client, 'web', { ...USER_ROLE, ttl: '1h', max_ttl: '2h', not_before_duration: 0 });
    const span = (listing: Listing) => {
      const { from, to } = validityOf(listing);
      return to - from;
    };
    expect(span((await signed(client, 'web', { valid_principals: 'a' })).listing)).toBe(HOUR);
    expect(span((await signed(client, 'web', { valid_principals: 'a', ttl: '90m' })).listing)).toBe(5400);
    expect(span((await signed(client, 'web', { valid_principals: 'a', ttl: 7200 })).listing)).toBe(7200);
    expectError(
      await client.post('/ssh/sign/web', { public_key: ED_KEY.publicKey, valid_principals: 'a', ttl: '3h' }),
      400,
      'ttl is larger than maximum allowed 7200',
    );
    // no role ttl: the maximum
    await role(client, 'capped', { ...USER_ROLE, max_ttl: '2h', not_before_duration: 0 });
    expect(span((await signed(client, 'capped', { valid_principals: 'a' })).listing)).toBe(7200);
  });

  it('backdates valid-after by not_before_duration', async () => {
    const client = await withCa();
    await role(client, 'web', { ...USER_ROLE, ttl: '1h', not_before_duration: '5m' });
    const before = now();
    const { from, to } = validityOf((await signed(client, 'web', { valid_principals: 'a' })).listing);
    const after = now();
    expect(from).toBeGreaterThanOrEqual(before - 300);
    expect(from).toBeLessThanOrEqual(after - 300);
    expect(to - from).toBe(HOUR + 300);
  });

  it('refuses key_id unless allow_user_key_ids, and formats key ids with key_id_format', async () => {
    const client = await withCa();
    await role(client, 'fixed', USER_ROLE);
    expectError(
      await client.post('/ssh/sign/fixed', { public_key: ED_KEY.publicKey, valid_principals: 'a', key_id: 'mine' }),
      400,
      'setting key_id is not allowed by role',
    );
    await role(client, 'free', { ...USER_ROLE, allow_user_key_ids: true });
    expect((await signed(client, 'free', { valid_principals: 'a', key_id: 'mine' })).listing.keyId).toBe('"mine"');
    await role(client, 'formatted', {
      ...USER_ROLE,
      key_id_format: 'id-{{role_name}}-{{token_display_name}}-{{public_key_hash}}',
    });
    const ci = await client.mint({ display_name: 'ci' });
    expect((await signed(client, 'formatted', { valid_principals: 'a' }, ci)).listing.keyId).toBe(
      `"id-formatted-token-ci-${keyBlobSha256(ED_KEY.publicKey)}"`,
    );
  });

  it('applies critical options: allowed ones on request, the defaults otherwise, any when the list is empty', async () => {
    const client = await withCa();
    await role(client, 'web', {
      ...USER_ROLE,
      allowed_critical_options: 'force-command',
      default_critical_options: { 'source-address': '10.0.0.0/8' },
    });
    expect((await signed(client, 'web', { valid_principals: 'a' })).listing.criticalOptions).toEqual([
      'source-address 10.0.0.0/8',
    ]);
    const forced = await signed(client, 'web', {
      valid_principals: 'a',
      critical_options: { 'force-command': '/usr/bin/id' },
    });
    expect(forced.listing.criticalOptions).toEqual(['force-command /usr/bin/id']);
    expectError(
      await client.post('/ssh/sign/web', {
        public_key: ED_KEY.publicKey,
        valid_principals: 'a',
        critical_options: { 'source-address': '0.0.0.0/0' },
      }),
      400,
      'critical options not on allowed list: [source-address]',
    );
    await role(client, 'open', USER_ROLE);
    const open = await signed(client, 'open', {
      valid_principals: 'a',
      critical_options: { 'source-address': '127.0.0.1/32' },
    });
    expect(open.listing.criticalOptions).toEqual(['source-address 127.0.0.1/32']);
  });

  it('applies extensions: * allows any, a list only its names, none gives the defaults', async () => {
    const client = await withCa();
    const defaults = { 'permit-pty': '', 'permit-agent-forwarding': '' };
    await role(client, 'star', { ...USER_ROLE, allowed_extensions: '*', default_extensions: defaults });
    await role(client, 'listed', { ...USER_ROLE, allowed_extensions: 'permit-pty', default_extensions: defaults });
    await role(client, 'unset', { ...USER_ROLE, default_extensions: defaults });
    const ask = { valid_principals: 'a', extensions: { 'permit-X11-forwarding': '' } };
    expect((await signed(client, 'star', ask)).listing.extensions).toEqual(['permit-X11-forwarding']);
    expect((await signed(client, 'star', { valid_principals: 'a' })).listing.extensions).toEqual([
      'permit-agent-forwarding',
      'permit-pty',
    ]);
    expect(
      (await signed(client, 'listed', { valid_principals: 'a', extensions: { 'permit-pty': '' } })).listing.extensions,
    ).toEqual(['permit-pty']);
    expectError(
      await client.post('/ssh/sign/listed', { public_key: ED_KEY.publicKey, ...ask }),
      400,
      'extensions [permit-X11-forwarding] are not on allowed list',
    );
    expectError(
      await client.post('/ssh/sign/unset', { public_key: ED_KEY.publicKey, ...ask }),
      400,
      'extensions [permit-X11-forwarding] are not on allowed list',
    );
    expect((await signed(client, 'unset', { valid_principals: 'a' })).listing.extensions).toEqual([
      'permit-agent-forwarding',
      'permit-pty',
    ]);
    // host certificates carry no extensions
    await role(client, 'hosts', {
      key_type: 'ca',
      allow_host_certificates: true,
      allowed_domains: '*',
      default_extensions: defaults,
    });
    expect((await signed(client, 'hosts', { cert_type: 'host', valid_principals: 'h' })).listing.extensions).toEqual(
      [],
    );
  });

  it('checks the key against allowed_user_key_lengths', async () => {
    const client = await withCa();
    await role(client, 'rsa4096', { ...USER_ROLE, allowed_user_key_lengths: { rsa: 4096 } });
    expectError(
      await client.post('/ssh/sign/rsa4096', { public_key: RSA_KEY.publicKey, valid_principals: 'a' }),
      400,
      'public_key failed to meet the key requirements: key is of an invalid size: 2048',
    );
    expectError(
      await client.post('/ssh/sign/rsa4096', { public_key: ED_KEY.publicKey, valid_principals: 'a' }),
      400,
      'public_key failed to meet the key requirements: key type of ed25519 is not allowed',
    );
    await role(client, 'mixed', { ...USER_ROLE, allowed_user_key_lengths: { rsa: [2048, 4096], ed25519: 0 } });
    const rsa = await client.post('/ssh/sign/mixed', { public_key: RSA_KEY.publicKey, valid_principals: 'a' });
    expect(listCertificate(String(rsa.data.signed_key)).type).toBe('ssh-rsa-cert-v01@openssh.com user certificate');
    expect((await signed(client, 'mixed', { valid_principals: 'a' })).listing.type).toBe(
      'ssh-ed25519-cert-v01@openssh.com user certificate',
    );
  });

  it('signs with the role algorithm_signer on an RSA CA and refuses a non-default one on an ed25519 CA', async () => {
    const client = await withCa(RSA_CA);
    await role(client, 'sha512', { ...USER_ROLE, algorithm_signer: 'rsa-sha2-512' });
    await role(client, 'default', USER_ROLE);
    expect((await signed(client, 'sha512', { valid_principals: 'a' })).listing.signingCa).toBe(
      `RSA ${sshFingerprint(RSA_CA.publicKey)} (using rsa-sha2-512)`,
    );
    expect((await signed(client, 'default', { valid_principals: 'a' })).listing.signingCa).toBe(
      `RSA ${sshFingerprint(RSA_CA.publicKey)} (using rsa-sha2-256)`,
    );
    const ed = await withCa(ED_CA);
    await role(ed, 'sha512', { ...USER_ROLE, algorithm_signer: 'rsa-sha2-512' });
    expectError(
      await ed.post('/ssh/sign/sha512', { public_key: ED_KEY.publicKey, valid_principals: 'a' }),
      400,
      'algorithm_signer "rsa-sha2-512" is not compatible with a ed25519 CA key; use "default"',
    );
  });

  it('refuses a missing or bad public key, an unknown role and an otp role', async () => {
    const client = await withCa();
    await role(client, 'web', USER_ROLE);
    await role(client, 'otp', { key_type: 'otp', default_user: 'a' });
    expectError(await client.post('/ssh/sign/web', { valid_principals: 'a' }), 400, 'missing public_key');
    const bad = await client.post('/ssh/sign/web', { public_key: 'ssh-ed25519 AAAA', valid_principals: 'a' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]).toMatch(/^failed to parse public_key as SSH key/);
    expectError(await client.post('/ssh/sign/ghost', { public_key: ED_KEY.publicKey }), 400, 'Unknown role: ghost');
    expectError(
      await client.post('/ssh/sign/otp', { public_key: ED_KEY.publicKey }),
      400,
      'role key type "otp" is not allowed to sign or issue certificates',
    );
  });
});

describe('SSH issue', () => {
  it.each([
    [{}, 'rsa', 'RSA', 2048],
    [{ key_type: 'rsa', key_bits: 3072 }, 'rsa', 'RSA', 3072],
    [{ key_type: 'ed25519', key_bits: 1234 }, 'ed25519', 'ED25519', 256],
    [{ key_type: 'ec' }, 'ec', 'ECDSA', 256],
    [{ key_type: 'ec', key_bits: 521 }, 'ec', 'ECDSA', 521],
  ])('issues a key pair for %j', async (body, type, listed, bits) => {
    const client = await withCa();
    await role(client, 'web', USER_ROLE);
    const answer = await client.post('/ssh/issue/web', { valid_principals: 'alice', ...body });
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.data).sort()).toEqual(['private_key', 'private_key_type', 'serial_number', 'signed_key']);
    expect(answer.data.private_key_type).toBe(type);
    expect(String(answer.data.private_key)).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
    const privateKey = parsePrivateKey(String(answer.data.private_key));
    if ('error' in privateKey) throw new Error(privateKey.error);
    expect(privateKey.size).toBe(bits);
    const publicLine = privateKey.toPublic().toString('ssh');
    const listing = listCertificate(String(answer.data.signed_key));
    expect(listing).toMatchObject({
      publicKey: `${listed}-CERT ${sshFingerprint(publicLine)}`,
      principals: ['alice'],
      serial: BigInt(`0x${answer.data.serial_number}`).toString(),
    });
  });

  it.each([
    [{ key_type: 'rsa', key_bits: 1024 }, 'invalid key_bits 1024 for rsa'],
    [{ key_type: 'ec', key_bits: 300 }, 'invalid key_bits 300 for ec'],
    [{ key_type: 'dsa' }, 'unknown key_type: dsa'],
    [{ key_type: 'ssh-ed25519' }, 'unknown key_type: ssh-ed25519'],
  ])('refuses %j', async (body, message) => {
    const client = await withCa();
    await role(client, 'web', USER_ROLE);
    expectError(await client.post('/ssh/issue/web', { valid_principals: 'a', ...body }), 400, message);
  });

  it('needs principals even with a default_user, unless allow_empty_principals', async () => {
    const client = await withCa();
    await role(client, 'web', { ...USER_ROLE, default_user: 'alice', allowed_users: 'alice' });
    expectError(
      await client.post('/ssh/issue/web', { key_type: 'ed25519' }),
      400,
      'empty valid principals not allowed by role',
    );
    await role(client, 'empty', { ...USER_ROLE, allow_empty_principals: true });
    const answer = await client.post('/ssh/issue/empty', { key_type: 'ed25519' });
    expect(answer.status).toBe(200);
    expect(listCertificate(String(answer.data.signed_key)).principals).toEqual([]);
  });
});

describe('SSH one-time passwords', () => {
  const OTP_ROLE = {
    key_type: 'otp',
    default_user: 'admin',
    allowed_users: 'admin,deploy',
    cidr_list: '10.0.0.0/24',
    exclude_cidr_list: '10.0.0.128/25',
    port: 2222,
  };

  it('issues an OTP for an address inside cidr_list, and refuses one outside or excluded', async () => {
    const client = await startSecrets();
    await role(client, 'otp', OTP_ROLE);
    const creds = await client.post('/ssh/creds/otp', { ip: '10.0.0.5' });
    expect(creds.status).toBe(200);
    expect(creds.data).toEqual({
      ip: '10.0.0.5',
      key: expect.stringMatching(UUID),
      key_type: 'otp',
      port: 2222,
      username: 'admin',
    });
    expect((await client.post('/ssh/creds/otp', { ip: '10.0.0.6', username: 'deploy' })).data.username).toBe('deploy');
    expectError(
      await client.post('/ssh/creds/otp', { ip: '10.1.0.1' }),
      400,
      'IP "10.1.0.1" does not belong to role "otp"',
    );
    expectError(
      await client.post('/ssh/creds/otp', { ip: '10.0.0.200' }),
      400,
      `IP "10.0.0.200" is in the role's exclude_cidr_list`,
    );
    expectError(
      await client.post('/ssh/creds/otp', { ip: '10.0.0.5', username: 'mallory' }),
      400,
      `username "mallory" is not in the role's allowed_users`,
    );
    expectError(await client.post('/ssh/creds/otp', {}), 400, 'Missing ip');
    expectError(await client.post('/ssh/creds/otp', { ip: '10.0.0.999' }), 400, 'Invalid IP "10.0.0.999"');
    expectError(await client.post('/ssh/creds/ghost', { ip: '10.0.0.5' }), 400, 'Role "ghost" not found');
  });

  it('verifies an OTP once, without a token', async () => {
    const client = await startSecrets();
    await role(client, 'otp', OTP_ROLE);
    const key = (await client.post('/ssh/creds/otp', { ip: '10.0.0.5' })).data.key;
    const first = await client.post('/ssh/verify', { otp: key }, null);
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ username: 'admin', ip: '10.0.0.5', role_name: 'otp' });
    expectError(await client.post('/ssh/verify', { otp: key }, null), 400, 'OTP not found');
    expectError(await client.post('/ssh/verify', { otp: 'never-issued' }, null), 400, 'OTP not found');
    expect((await client.post('/ssh/verify', { otp: 'ping' }, null)).data).toEqual({ message: 'pong' });
  });

  it('lets a zero-address role issue for any address', async () => {
    const client = await startSecrets();
    await role(client, 'any', { key_type: 'otp', default_user: 'ops' });
    expectError(
      await client.post('/ssh/creds/any', { ip: '192.0.2.7' }),
      400,
      'IP "192.0.2.7" does not belong to role "any"',
    );
    expectWritten(await client.post('/ssh/config/zeroaddress', { roles: 'any' }));
    const creds = await client.post('/ssh/creds/any', { ip: '192.0.2.7' });
    expect(creds.data).toMatchObject({ ip: '192.0.2.7', username: 'ops', port: 22 });
    // a zero-address role ignores its CIDR blocks, the excluded ones too
    await role(client, 'otp', OTP_ROLE);
    expectWritten(await client.post('/ssh/config/zeroaddress', { roles: ['any', 'otp'] }));
    expect((await client.post('/ssh/creds/otp', { ip: '10.0.0.200' })).status).toBe(200);
  });

  it('looks up the roles of an address: cidr roles and zero-address roles', async () => {
    const client = await startSecrets();
    await role(client, 'otp', OTP_ROLE);
    await role(client, 'wide', { key_type: 'otp', default_user: 'a', cidr_list: '10.0.0.0/8' });
    await role(client, 'any', { key_type: 'otp', default_user: 'a' });
    await role(client, 'certs', USER_ROLE);
    expect((await client.post('/ssh/lookup', { ip: '10.0.0.5' })).data).toEqual({ roles: ['otp', 'wide'] });
    expect((await client.post('/ssh/lookup', { ip: '10.0.0.200' })).data).toEqual({ roles: ['wide'] });
    expect((await client.post('/ssh/lookup', { ip: '192.0.2.1' })).data).toEqual({ roles: [] });
    expectWritten(await client.post('/ssh/config/zeroaddress', { roles: 'any' }));
    expect((await client.post('/ssh/lookup', { ip: '192.0.2.1' })).data).toEqual({ roles: ['any'] });
    expect((await client.post('/ssh/lookup', { ip: '10.0.0.5' })).data).toEqual({ roles: ['any', 'otp', 'wide'] });
    expectError(await client.post('/ssh/lookup', {}), 400, 'Missing ip');
  });

  it('keeps the zero-address list: 404 unset, comma string or list, unknown roles refused, DELETE', async () => {
    const client = await startSecrets();
    expectNotFound(await client.get('/ssh/config/zeroaddress'));
    await role(client, 'a', { key_type: 'otp', default_user: 'x' });
    await role(client, 'b', { key_type: 'otp', default_user: 'x' });
    expectError(await client.post('/ssh/config/zeroaddress', { roles: 'a,ghost' }), 400, 'Role "ghost" does not exist');
    expectError(await client.post('/ssh/config/zeroaddress', {}), 400, 'Missing roles');
    expectNotFound(await client.get('/ssh/config/zeroaddress'));
    expectWritten(await client.post('/ssh/config/zeroaddress', { roles: 'a, b' }));
    expect((await client.get('/ssh/config/zeroaddress')).data).toEqual({ roles: ['a', 'b'] });
    expectWritten(await client.post('/ssh/config/zeroaddress', { roles: ['b'] }));
    expect((await client.get('/ssh/config/zeroaddress')).data).toEqual({ roles: ['b'] });
    expectWritten(await client.delete('/ssh/config/zeroaddress'));
    expectNotFound(await client.get('/ssh/config/zeroaddress'));
  });

  it('drops a deleted role from the zero-address list', async () => {
    const client = await startSecrets();
    await role(client, 'a', { key_type: 'otp', default_user: 'x' });
    await role(client, 'b', { key_type: 'otp', default_user: 'x' });
    expectWritten(await client.post('/ssh/config/zeroaddress', { roles: 'a,b' }));
    expectWritten(await client.delete('/ssh/roles/a'));
    expect((await client.get('/ssh/config/zeroaddress')).data).toEqual({ roles: ['b'] });
    // a role of the same name created later is not on the list
    await role(client, 'a', { key_type: 'otp', default_user: 'x' });
    expectError(
      await client.post('/ssh/creds/a', { ip: '192.0.2.1' }),
      400,
      'IP "192.0.2.1" does not belong to role "a"',
    );
  });

  it('answers tidy with a message', async () => {
    const client = await startSecrets();
    const answer = await client.delete('/ssh/tidy/dynamic-keys');
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ message: expect.any(String) });
  });
});

describe('SSH persistence', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-ssh-state-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps roles, the zero-address list and the CA across a restart', async () => {
    const statePath = join(dir, 'state.json');
    const first = await startSecrets({ statePath, seed: { secrets: { mounts: [{ path: 'ssh-prod', type: 'ssh' }] } } });
    await role(first, 'web', { ...USER_ROLE, ttl: '30m' });
    await role(first, 'otp', { key_type: 'otp', default_user: 'ops' }, 'ssh-prod');
    expectWritten(await first.post('/ssh-prod/config/zeroaddress', { roles: 'otp' }));
    const ca = await first.post('/ssh/config/ca', { key_type: 'ed25519' });
    const child = await first.mint({ display_name: 'ci' });
    await first.emulator.close();

    const second = await startSecrets({ statePath });
    expect(second.root).toBe(first.root);
    expect((await second.get('/ssh/roles/web')).data).toMatchObject({ allowed_users: '*', ttl: 1800 });
    expect((await second.get('/ssh-prod/roles/otp')).data).toMatchObject({ key_type: 'otp', default_user: 'ops' });
    expect((await second.get('/ssh-prod/config/zeroaddress')).data).toEqual({ roles: ['otp'] });
    expect((await second.get('/ssh/public_key', null)).text.trim()).toBe(ca.data.public_key);
    const { listing } = await signed(second, 'web', { valid_principals: 'a' }, child);
    expect(listing.signingCa).toContain(sshFingerprint(String(ca.data.public_key)));
    expect(listing.keyId).toBe(`"vault-token-ci-${keyBlobSha256(ED_KEY.publicKey)}"`);
  });
});

describe('SSH login with a certificate signed through the API', () => {
  const hostKey = generateKeyPair('ed25519', 0);
  // trusts a placeholder until the emulator's CA exists; sshd reads the file at each login
  const sshd = new ThrowawaySshd({
    prefix: 'converge-ssh-api-login-',
    trustedUserCaKeys: generateKeyPair('ed25519', 0).publicKey,
    hostKey,
  });
  if (sshd.unavailable !== undefined) console.warn(`skipping the SSH API login test: ${sshd.unavailable}`);

  afterAll(async () => {
    await sshd.stop();
  });

  it.skipIf(sshd.unavailable !== undefined)(
    `logs in to sshd as ${USER} with a certificate from POST /v1/ssh/sign, trusting GET /v1/ssh/public_key`,
    async () => {
      const client = await startSecrets();
      expect((await client.post('/ssh/config/ca', { key_type: 'ed25519' })).status).toBe(200);
      await role(client, 'login', {
        key_type: 'ca',
        allow_user_certificates: true,
        allowed_users: USER,
        default_user: USER,
        ttl: '5m',
        default_extensions: { 'permit-pty': '' },
      });
      sshd.trust((await client.get('/ssh/public_key', null)).text);
      await sshd.start();
      const key = generateKeyPair('ed25519', 0);
      const answer = await client.post('/ssh/sign/login', { public_key: key.publicKey });
      expect(answer.status, answer.text).toBe(200);
      const listing = listCertificate(String(answer.data.signed_key));
      expect(listing).toMatchObject({ principals: [USER], extensions: ['permit-pty'] });
      expect(listing.signingCa).toContain(
        sshFingerprint((await client.get('/ssh/config/ca')).data.public_key as string),
      );
      const result = await sshd.ssh(key.privateKey, String(answer.data.signed_key));
      expect(result.stdout, sshd.context(result)).toBe('converge-ok\n');
      expect(result.status).toBe(0);
    },
    30_000,
  );
});

/** An SSH string's bytes in hex (a length, then the text), as ssh-keygen prints an unknown extension's data. */
function sshStringHex(text: string): string {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(Buffer.byteLength(text));
  return Buffer.concat([length, Buffer.from(text)]).toString('hex');
}
