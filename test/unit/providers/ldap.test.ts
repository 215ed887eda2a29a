/**
 * The LDAP kinds as pure functions and request shapes: written forms that
 * compare equal to what the engine reads back (base64 and plain LDIF, URL
 * lists, durations), the held root password, hierarchical listing at one
 * list per level, and the library set's status read.
 */
import { describe, expect, it } from 'vitest';
import { ldapConfig } from '../../../src/providers/ldap-config/index.ts';
import { ldapDynamicRole } from '../../../src/providers/ldap-dynamic-role/index.ts';
import { ldapLibrarySet } from '../../../src/providers/ldap-library-set/index.ts';
import { ldapStaticRole } from '../../../src/providers/ldap-static-role/index.ts';
import { diffFields } from '../../../src/reconcile/diff.ts';
import type { Provider } from '../../../src/reconcile/provider.ts';
import type { Fields } from '../../../src/reconcile/types.ts';
import { contextFor, FakeClient } from './fake-client.ts';

function changes(provider: Provider, spec: Fields, live: Fields) {
  const desired = { ...provider.canonicalDesired(spec) };
  for (const field of provider.createOnly) delete desired[field];
  return diffFields(desired, provider.canonicalLive(live), {
    writeOnly: new Set(provider.writeOnly(spec)),
    immutable: new Set(provider.immutable),
    secret: new Set(),
    sendSecrets: new Map(),
  });
}

const ctxOf = (client: FakeClient) => contextFor(client, 'secrets');

const LDIF = 'dn: cn={{.Username}},ou=people,dc=example,dc=org\nobjectClass: person\ncn: {{.Username}}\n';

describe('LDAPConfig', () => {
  const read = {
    url: 'ldap://a.example.org,ldap://b.example.org',
    binddn: 'cn=admin,dc=example,dc=org',
    userdn: 'ou=service,dc=example,dc=org',
    userattr: 'cn',
    schema: 'openldap',
    request_timeout: 90,
    connection_timeout: 30,
    starttls: false,
    insecure_tls: false,
    certificate: '',
    upndomain: '',
    skip_static_role_import_rotation: false,
    rotation_period: 0,
    rotation_window: 0,
    rotation_schedule: '',
    disable_automated_rotation: false,
  };

  it('compares a URL list with spaces, the schema default of userattr, and the fields the engine leaves out', () => {
    const spec = {
      url: 'ldap://a.example.org, ldap://b.example.org',
      binddn: 'cn=admin,dc=example,dc=org',
      bindpass: 'x',
      userdn: 'ou=service,dc=example,dc=org',
      request_timeout: '1m30s',
    };
    expect(changes(ldapConfig, spec, read)).toEqual([]);
    expect(ldapConfig.canonicalDesired({ ...spec, schema: 'ad' })).toMatchObject({ userattr: 'userPrincipalName' });
    expect(ldapConfig.writeOnly(spec)).toEqual(['bindpass', 'client_tls_cert', 'client_tls_key']);
  });

  it('holds the bind password once the engine rotated it, and only then', () => {
    expect(ldapConfig.heldSecrets?.(read)).toEqual(new Map());
    const held = ldapConfig.heldSecrets?.({ ...read, last_bind_password_rotation: '2026-11-24T10:00:00Z' });
    expect([...(held?.keys() ?? [])]).toEqual(['bindpass']);
    expect(held?.get('bindpass')).toMatch(/rotated its root password at 2026-11-24T10:00:00Z/);
  });

  it('writes only what changed (a POST updates the fields it sends)', async () => {
    const client = new FakeClient().on('POST', '/v1/ldap/config', () => ({ status: 204 }));
    const desired = {
      kind: 'LDAPConfig',
      address: { kind: 'LDAPConfig', scope: 'ldap', name: '' },
      metadata: { mount: 'ldap' },
      ensure: 'present' as const,
      spec: { request_timeout: '2m' },
      secretFields: [],
      source: { file: 'm.yaml', line: 1, col: 1 },
      positions: {},
    };
    await ldapConfig.update!(
      ctxOf(client),
      desired,
      { kind: 'LDAPConfig', address: desired.address, ref: 'ldap' },
      { request_timeout: 120 },
    );
    expect(client.requests.map((r) => r.body)).toEqual([{ request_timeout: 120 }]);
    expect(ldapConfig.updateStyle).toBe('patch');
  });
});

describe('LDAPDynamicRole', () => {
  it('compares base64 LDIF, CRLF and trailing blank lines equal to the decoded text the engine returns', () => {
    const live = {
      creation_ldif: LDIF,
      deletion_ldif: LDIF,
      rollback_ldif: '',
      username_template: '',
      default_ttl: 3600,
      max_ttl: 0,
    };
    const spec = {
      creation_ldif: Buffer.from(LDIF).toString('base64'),
      deletion_ldif: `${LDIF.replaceAll('\n', '\r\n')}\n\n`,
      default_ttl: '1h',
    };
    expect(changes(ldapDynamicRole, spec, live)).toEqual([]);
    expect(changes(ldapDynamicRole, { ...spec, default_ttl: '2h' }, live).map((c) => c.path)).toEqual(['default_ttl']);
  });
});

describe('LDAPStaticRole', () => {
  it('replaces the role when username or dn change, and never sends skip_import_rotation again', () => {
    expect(ldapStaticRole.immutable).toEqual(['username', 'dn']);
    expect(ldapStaticRole.createOnly).toEqual(['skip_import_rotation']);
    const live = { username: 'svc-app1', dn: 'cn=svc-app1,ou=service,dc=example,dc=org', rotation_period: 86400 };
    expect(
      changes(ldapStaticRole, { username: 'svc-app1', rotation_period: '24h', skip_import_rotation: true }, live),
    ).toEqual([]);
    const moved = changes(ldapStaticRole, { username: 'svc-app2', rotation_period: '24h' }, live);
    expect(moved).toEqual([expect.objectContaining({ path: 'username', replace: true })]);
  });

  it('walks the hierarchy one list per level, folders of a level together', async () => {
    const levels: Record<string, string[]> = {
      '/v1/ldap/static-role/': ['a', 'apps/', 'team/'],
      '/v1/ldap/static-role/apps/': ['app1', 'deep/'],
      '/v1/ldap/static-role/team/': ['x'],
      '/v1/ldap/static-role/apps/deep/': ['y'],
    };
    const client = new FakeClient();
    for (const [path, keys] of Object.entries(levels)) client.on('GET', path, () => ({ body: { data: { keys } } }));
    const found = await ldapStaticRole.list(ctxOf(client), { scope: 'ldap' });
    expect(found.map((l) => l.address.name).sort()).toEqual(['a', 'apps/app1', 'apps/deep/y', 'team/x']);
    expect(client.requests).toHaveLength(4);
  });
});

describe('LDAPLibrarySet', () => {
  it('reads the status with the set, and warns when a removed account is checked out', async () => {
    const client = new FakeClient()
      .on('GET', '/v1/ldap/library/batch', () => ({
        body: {
          data: {
            service_account_names: ['svc-batch1', 'svc-batch2'],
            ttl: 36000,
            max_ttl: 86400,
            disable_check_in_enforcement: false,
          },
        },
      }))
      .on('GET', '/v1/ldap/library/batch/status', () => ({
        body: {
          data: { 'svc-batch1': { available: true }, 'svc-batch2': { available: false, borrower_client_token: 'abc' } },
        },
      }));
    const live = await ldapLibrarySet.read?.(ctxOf(client), {
      kind: 'LDAPLibrarySet',
      address: { kind: 'LDAPLibrarySet', scope: 'ldap', name: 'batch' },
      ref: 'batch',
    });
    expect(live?.fields?.checked_out).toEqual(['svc-batch2']);
    const spec = { service_account_names: ['svc-batch1'], ttl: '10h' };
    expect(ldapLibrarySet.liveNotes?.(spec, live?.fields ?? {})).toEqual([
      'svc-batch2 is checked out: the service refuses to remove it from the set until it is checked in',
    ]);
    expect(
      ldapLibrarySet.liveNotes?.({ ...spec, service_account_names: ['svc-batch1', 'svc-batch2'] }, live?.fields ?? {}),
    ).toEqual([]);
    // the status is not configuration: never compared
    expect(
      changes(ldapLibrarySet, { service_account_names: ['svc-batch2', 'svc-batch1'], ttl: '10h' }, live?.fields ?? {}),
    ).toEqual([]);
  });
});
