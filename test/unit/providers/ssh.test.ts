/**
 * The SSH kinds as pure functions and request shapes: every written form of
 * a role compares equal to what the API reads back (the Terraform
 * provider's perpetual diffs on `cidr_list` and `ttl` are the failures to
 * beat), fields of the other key type are notes and never changes, and the
 * requests are the fewest the secrets API allows.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateKeyPair, type KeyAlgorithm } from '../../../src/emulator/ssh/keys.ts';
import { readBack, roleFromBody } from '../../../src/emulator/ssh/roles.ts';
import { sshCertificateAuthority } from '../../../src/providers/ssh-certificate-authority/index.ts';
import { sshRole } from '../../../src/providers/ssh-role/index.ts';
import { sshZeroAddress } from '../../../src/providers/ssh-zero-address/index.ts';
import { compare } from '../../../src/reconcile/comparison.ts';
import type { DesiredObject, Fields } from '../../../src/reconcile/types.ts';
import { desired } from '../reconcile/builders.ts';
import { contextFor, FakeClient } from './fake-client.ts';

/** The changes the planner finds for an existing object, by its one comparison (create-only fields are never compared). */
const noChanges = (provider: typeof sshRole, spec: Fields, liveFields: Fields) =>
  compare(provider, desired(provider.kind, 'x', spec)).changes(provider.canonicalLive(liveFields));

/** What the API stores and reads back for what converge sends for `spec`. */
function roundTrip(spec: Fields): Fields {
  const sent = sshRole.canonicalDesired(spec);
  return readBack(roleFromBody(wireForm(sent, spec)));
}

/** The body the provider's update sends (`replace`: the whole role), captured through a fake client. */
function wireForm(fields: Fields, spec: Fields): Fields {
  let body: Fields = {};
  const client = new FakeClient().on('POST', '/v1/ssh/roles/:name', (request) => {
    body = request.body as Fields;
    return { status: 204 };
  });
  void sshRole.update!(
    secretsContext(client),
    role('web', spec),
    { kind: 'SSHRole', address: { kind: 'SSHRole', scope: 'ssh', name: 'web' }, ref: 'web' },
    fields,
  );
  return body;
}

function secretsContext(client: FakeClient) {
  return contextFor(client, 'secrets');
}

function role(name: string, spec: Fields, mount = 'ssh'): DesiredObject {
  return desired('SSHRole', name, spec, {
    address: { kind: 'SSHRole', scope: mount, name },
    metadata: { mount, name },
  });
}

describe('SSHRole canonical forms', () => {
  it('compares lists as sets, in any written form, equal to the read-back string', () => {
    const written = {
      key_type: 'otp',
      default_user: 'ubuntu',
      cidr_list: ['192.168.1.0/24', '10.0.0.0/8', '10.0.0.0/8'],
    };
    const live = {
      key_type: 'otp',
      default_user: 'ubuntu',
      cidr_list: '10.0.0.0/8,192.168.1.0/24',
      exclude_cidr_list: '',
      port: 22,
      allowed_users: '',
    };
    expect(noChanges(sshRole, written, live)).toEqual([]);
    expect(noChanges(sshRole, { ...written, cidr_list: ' 192.168.1.0/24 , 10.0.0.0/8' }, live)).toEqual([]);
    expect(noChanges(sshRole, { ...written, cidr_list: ['10.0.0.0/8'] }, live).map((c) => c.path)).toEqual([
      'cidr_list',
    ]);
  });

  it('compares durations in seconds: 30m = 1800 = what the API reads back', () => {
    const spec = { key_type: 'ca', allow_user_certificates: true, ttl: '30m', max_ttl: '1h30m' };
    const live = roundTrip(spec);
    expect(live.ttl).toBe(1800);
    expect(live.max_ttl).toBe(5400);
    expect(noChanges(sshRole, spec, live)).toEqual([]);
    expect(noChanges(sshRole, { ...spec, ttl: 1800, max_ttl: '90m' }, live)).toEqual([]);
    expect(sshRole.present?.('ttl', 1800)).toBe('30m');
  });

  it('reads back what it sends, for every written form of every field (property)', () => {
    const list = fc.uniqueArray(fc.constantFrom('a', 'b', 'ubuntu', 'deploy'), { maxLength: 4 });
    const asWritten = (items: string[]) => fc.constantFrom(items, items.join(','), [...items].reverse().join(' , '));
    fc.assert(
      fc.property(
        list.chain(asWritten),
        fc.constantFrom('30m', '1800', 1800, '0.5h'),
        fc.constantFrom<Fields>({}, { 'permit-pty': '' }, { 'permit-pty': '', 'permit-X11-forwarding': '' }),
        fc.constantFrom<Fields>({}, { rsa: [4096, 2048] }, { rsa: '2048,4096', ed25519: 0 }),
        fc.constantFrom('', 'default', 'rsa-sha2-512'),
        (users, ttl, extensions, lengths, signer) => {
          const spec: Fields = {
            key_type: 'ca',
            allow_user_certificates: true,
            allowed_users: users,
            ttl,
            max_ttl: '1h',
            default_extensions: extensions,
            allowed_user_key_lengths: lengths,
            algorithm_signer: signer,
          };
          expect(noChanges(sshRole, spec, roundTrip(spec))).toEqual([]);
        },
      ),
    );
  });

  it('never compares a field of the other key type, and says so in a plan note', () => {
    const spec = {
      key_type: 'otp',
      default_user: 'ubuntu',
      cidr_list: '10.0.0.0/8',
      ttl: '1h',
      allow_user_certificates: true,
    };
    expect(sshRole.canonicalDesired(spec)).not.toHaveProperty('ttl');
    expect(sshRole.notes?.(spec, [])).toEqual([
      'ttl does not apply to this object and is not compared (the API does not keep it)',
      'allow_user_certificates does not apply to this object and is not compared (the API does not keep it)',
    ]);
    expect(noChanges(sshRole, spec, roundTrip(spec))).toEqual([]);
  });

  it('applies the API defaults of the key type, so a bare role plans clean after apply', () => {
    const ca = { key_type: 'ca', allow_host_certificates: true };
    const desiredCa = sshRole.canonicalDesired(ca);
    expect(desiredCa).toMatchObject({
      not_before_duration: 30,
      algorithm_signer: 'default',
      allowed_users: [],
      ttl: 0,
    });
    expect(noChanges(sshRole, ca, roundTrip(ca))).toEqual([]);
    const otp = { key_type: 'otp', default_user: 'u', cidr_list: '10.0.0.0/8' };
    expect(sshRole.canonicalDesired(otp)).toMatchObject({ port: 22, exclude_cidr_list: [] });
  });
});

describe('SSHRole requests', () => {
  it('lists a mount with GET ?list=true, reads each declared role with one GET, and treats 404 as none', async () => {
    const client = new FakeClient()
      .on('GET', '/v1/ssh/roles', () => ({ body: { data: { keys: ['a', 'b'] } } }))
      .on('GET', '/v1/ssh/roles/:name', (_r, [name]) => ({ body: { data: { key_type: 'otp', default_user: name } } }))
      .on('GET', '/v1/teams%2Fssh/roles', () => ({ status: 404, body: { errors: [] } }));
    const ctx = secretsContext(client);
    const listed = await sshRole.list(ctx, { scope: 'ssh' });
    expect(listed.map((l) => l.address)).toEqual([
      { kind: 'SSHRole', scope: 'ssh', name: 'a' },
      { kind: 'SSHRole', scope: 'ssh', name: 'b' },
    ]);
    const full = await sshRole.read?.(ctx, listed[0]!);
    expect(full?.fields).toMatchObject({ default_user: 'a' });
    expect(client.lines).toEqual(['GET /v1/ssh/roles?list=true', 'GET /v1/ssh/roles/a']);
    // a mount path with a slash is one path per segment
    const nested = new FakeClient().on('GET', '/v1/teams/ssh/roles', () => ({ status: 404, body: { errors: [] } }));
    expect(await sshRole.list(secretsContext(nested), { scope: 'teams/ssh' })).toEqual([]);
    expect(
      await sshRole.get?.(secretsContext(nested), { kind: 'SSHRole', scope: 'teams/ssh', name: 'x' }),
    ).toBeUndefined();
  });

  it('reads a 404 naming no route as a mount without an engine, not as none', async () => {
    const noRoute = (path: string) => ({
      status: 404,
      body: { errors: [`no handler for route "${path}". route entry not found.`] },
    });
    const client = new FakeClient()
      .on('GET', '/v1/ssh-prod/roles', () => noRoute('ssh-prod/roles/'))
      .on('GET', '/v1/ssh-prod/roles/web', () => noRoute('ssh-prod/roles/web'))
      .on('GET', '/v1/ssh-prod/config/ca', () => noRoute('ssh-prod/config/ca'));
    const ctx = secretsContext(client);
    const missing = 'no secrets engine is mounted at "ssh-prod"';
    await expect(sshRole.list(ctx, { scope: 'ssh-prod' })).rejects.toThrow(missing);
    await expect(sshRole.get?.(ctx, { kind: 'SSHRole', scope: 'ssh-prod', name: 'web' })).rejects.toThrow(missing);
    await expect(sshCertificateAuthority.list(ctx, { scope: 'ssh-prod' })).rejects.toMatchObject({
      code: 'PLAN_INVALID',
      hint: expect.stringContaining('vault secrets enable -path=ssh-prod ssh'),
    });
  });

  it('writes the whole role as the API wants it: comma strings, durations in seconds', async () => {
    const spec = { key_type: 'otp', default_user: 'ubuntu', cidr_list: ['10.0.0.0/8', '192.168.0.0/16'] };
    const body = wireForm(sshRole.canonicalDesired(spec), spec);
    expect(body).toEqual({
      key_type: 'otp',
      default_user: 'ubuntu',
      allowed_users: '',
      cidr_list: '10.0.0.0/8,192.168.0.0/16',
      exclude_cidr_list: '',
      port: 22,
    });
  });
});

describe('SSHCertificateAuthority', () => {
  const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBZGCVjCP7/Jr9JK5CSLzIevfLiivyBy7ojwapLCxI1q';

  it('is compared by its public key only: a comment or spacing is no change, another key is a replacement', () => {
    const spec = { private_key: 'secret', public_key: `${key} ops@example.com` };
    const changes = noChanges(
      sshCertificateAuthority as typeof sshRole,
      { public_key: spec.public_key },
      { public_key: key },
    );
    expect(changes).toEqual([]);
    expect(sshCertificateAuthority.writeOnly(spec)).toEqual(['private_key']);
    expect(sshCertificateAuthority.createOnly).toEqual(expect.arrayContaining(['private_key', 'generate_signing_key']));
    expect(sshCertificateAuthority.immutable).toEqual(['key_type', 'key_bits', 'public_key']);
    expect(sshCertificateAuthority.replaceConsent).toMatch(/invalidates every certificate/);
  });

  it('compares a generated CA by the type and size of its live key: another one is a replacement', () => {
    const live = (type: KeyAlgorithm, bits: number) => ({ public_key: generateKeyPair(type, bits).publicKey });
    const ca = sshCertificateAuthority as typeof sshRole;
    // the service's defaults: ssh-rsa is RSA 4096, ec is P-256, an identifier fixes the curve;
    // the RSA 4096 key is one generateKeyPair made once (test/fixtures/ssh/): making one takes
    // from a few hundred milliseconds to seconds of CPU, and only its public key's size matters here
    const rsa4096 = { public_key: readFileSync(new URL('../../fixtures/ssh/rsa-4096.pub', import.meta.url), 'utf8') };
    expect(noChanges(ca, {}, rsa4096)).toEqual([]);
    expect(noChanges(ca, { key_type: 'rsa', key_bits: 0 }, rsa4096)).toEqual([]);
    expect(noChanges(ca, { key_type: 'ec' }, live('ec', 256))).toEqual([]);
    expect(noChanges(ca, { key_type: 'ecdsa-sha2-nistp384' }, live('ec', 384))).toEqual([]);
    expect(noChanges(ca, { key_type: 'ssh-ed25519', key_bits: 256 }, live('ed25519', 0))).toEqual([]);
    expect(noChanges(ca, { key_type: 'ed25519' }, live('ec', 256))).toEqual([
      { path: 'key_bits', before: 256, after: 0, replace: true },
      { path: 'key_type', before: 'ec', after: 'ed25519', replace: true },
    ]);
    expect(noChanges(ca, { key_type: 'rsa', key_bits: 2048 }, rsa4096)).toEqual([
      { path: 'key_bits', before: 4096, after: 2048, replace: true },
    ]);
    // given keys are compared by the key itself; a key type written beside them is a note
    expect(noChanges(ca, { private_key: 'k', public_key: key }, { public_key: key })).toEqual([]);
    expect(sshCertificateAuthority.notes?.({ private_key: 'k', public_key: key, key_type: 'rsa' }, [])).toEqual([
      'key_type does not apply to this object and is not compared (the API does not keep it)',
    ]);
  });

  it('generates by default only when no keys are given', () => {
    expect(sshCertificateAuthority.canonicalDesired({ key_type: 'ed25519' })).toMatchObject({
      generate_signing_key: true,
    });
    expect(sshCertificateAuthority.canonicalDesired({ private_key: 'k', public_key: key })).toMatchObject({
      generate_signing_key: false,
    });
  });

  it("exports as generated, of the live key's type and size, with no key and no key placeholder", () => {
    const doc = sshCertificateAuthority.toManifest!({
      kind: 'SSHCertificateAuthority',
      address: { kind: 'SSHCertificateAuthority', scope: 'ssh-prod', name: '' },
      ref: 'ssh-prod',
      fields: { public_key: key, private_key: 'leaked' },
    });
    expect(doc.metadata).toEqual({ mount: 'ssh-prod' });
    expect(doc.spec).toEqual({ generate_signing_key: true, key_type: 'ed25519', key_bits: 0 });
    expect(sshCertificateAuthority.exportedWriteOnly({ public_key: key })).toEqual([]);
  });
});

describe('SSHZeroAddress', () => {
  it('references the roles it names, in its mount, and compares them as a set', () => {
    const zero = desired(
      'SSHZeroAddress',
      '',
      { roles: ['web', 'db'] },
      {
        address: { kind: 'SSHZeroAddress', scope: 'ssh-prod', name: '' },
        metadata: { mount: 'ssh-prod' },
      },
    );
    expect(sshZeroAddress.references?.(zero)).toEqual([
      { kind: 'SSHRole', scope: 'ssh-prod', name: 'db' },
      { kind: 'SSHRole', scope: 'ssh-prod', name: 'web' },
    ]);
    expect(noChanges(sshZeroAddress as typeof sshRole, { roles: ['web', 'db'] }, { roles: ['db', 'web'] })).toEqual([]);
    expect(sshZeroAddress.dependsOn).toEqual(['SSHRole']);
  });
});
