/**
 * What export asks of a manifest before writing it (src/export/manifest-check.ts): what
 * `converge validate` would say, by the kind's schema and the reserved-mount rule, never about a
 * placeholder's value, which is the user's to give.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { manifestProblems, scopeProblems } from '../../../src/export/manifest-check.ts';
import { type SchemaSet, schemaSet } from '../../../src/manifest/schemas.ts';
import { providerFor } from '../../../src/providers/index.ts';
import type { ManifestDocument } from '../../../src/reconcile/provider.ts';

const SSH_ROLE = providerFor('SSHRole')!;
const LDAP_CONFIG = providerFor('LDAPConfig')!;
const ROLE_PATTERN = 'must be letters, digits, _, - and ., starting and ending with a letter, digit or _';

const role = (name: string): ManifestDocument => ({
  kind: 'SSHRole',
  metadata: { mount: 'ssh', name },
  spec: { key_type: 'ca', allow_user_certificates: true },
});

let schemas: SchemaSet;
beforeAll(async () => {
  schemas = await schemaSet();
});

describe("a manifest export would write, in validate's words", () => {
  it('takes a manifest validate takes', () => {
    expect(manifestProblems(schemas, SSH_ROLE, role('engineers'))).toEqual([]);
  });

  it.each(['with space', 'a@b', '.hidden', 'sshü'])('refuses the SSH role name %j, as validate does', (name) => {
    expect(manifestProblems(schemas, SSH_ROLE, role(name))).toEqual([
      { path: 'metadata.name', message: `metadata.name ${ROLE_PATTERN} (got string ${JSON.stringify(name)})` },
    ]);
  });

  it('checks the spec too, never a placeholder: its value is the one the user will give', () => {
    const config: ManifestDocument = {
      kind: 'LDAPConfig',
      metadata: { mount: 'ldap' },
      spec: { binddn: 'cn=admin,dc=example,dc=org', url: 'ldap://ldap.example.org' },
    };
    // the engine's bind password is never read back: without its placeholder the manifest lacks it
    expect(manifestProblems(schemas, LDAP_CONFIG, config).map((p) => p.message)).toEqual([
      'missing required field "bindpass" in spec',
    ]);
    expect(manifestProblems(schemas, LDAP_CONFIG, config, ['bindpass'])).toEqual([]);
    expect(
      manifestProblems(schemas, LDAP_CONFIG, { ...config, spec: { ...config.spec, url: 7 } }, ['bindpass']),
    ).toEqual([
      { path: 'spec.url', message: 'spec.url must be a string (got number 7); quote it to make it a string' },
    ]);
  });

  it('leaves the manifest as it was: the defaults the validator fills go into a copy', () => {
    const spec = { key_type: 'otp', default_user: 'ubuntu' };
    const manifest: ManifestDocument = { kind: 'SSHRole', metadata: { name: 'web' }, spec: { ...spec } };
    expect(manifestProblems(schemas, SSH_ROLE, manifest)).toEqual([]);
    expect(manifest).toEqual({ kind: 'SSHRole', metadata: { name: 'web' }, spec });
  });

  it("applies the kind's own rules beyond its schema, as validate does", () => {
    const manifest = (spec: Record<string, unknown>): ManifestDocument => ({
      kind: 'SSHRole',
      metadata: { name: 'web' },
      spec: { key_type: 'ca', allow_user_certificates: true, ...spec },
    });
    expect(manifestProblems(schemas, SSH_ROLE, manifest({ ttl: 7200, max_ttl: 3600 }))).toEqual([
      { path: 'spec.ttl', message: expect.stringContaining('max_ttl') },
    ]);
    expect(manifestProblems(schemas, SSH_ROLE, manifest({ allowed_users: '{{identity.entity.name}}' }))).toEqual([
      {
        path: 'spec.allowed_users',
        message: 'holds a template but allowed_users_template is not true, so it is used literally',
      },
    ]);
    // the otp role without the user the API needs
    expect(manifestProblems(schemas, SSH_ROLE, manifest({ key_type: 'otp' })).map((p) => p.path)).toEqual([
      'spec.key_type',
    ]);
  });

  it("runs the kind's rules only over a document its schema takes, and never about a placeholder", () => {
    // a schema problem alone: the kind's rules are not asked about a document the schema refuses
    const bad: ManifestDocument = {
      kind: 'SSHRole',
      metadata: { name: 'web' },
      spec: { key_type: 'otp', ttl: 'soon' },
    };
    expect(manifestProblems(schemas, SSH_ROLE, bad).map((p) => p.path)).toEqual(['spec.ttl']);
    // the bind password is the user's to give: an empty or literal secret is not export's to report
    const config: ManifestDocument = {
      kind: 'LDAPConfig',
      metadata: { mount: 'ldap' },
      spec: { binddn: 'cn=admin,dc=example,dc=org', url: 'ldap://ldap.example.org' },
    };
    expect(manifestProblems(schemas, LDAP_CONFIG, config, ['bindpass'])).toEqual([]);
  });

  it('says of a scope what validate says of the metadata field that names it, and nothing else', () => {
    expect(scopeProblems(schemas, SSH_ROLE, 'mount', 'teams/ssh-prod')).toEqual([]);
    expect(scopeProblems(schemas, SSH_ROLE, 'mount', '../sys')).toEqual([
      'metadata.mount must be a mount path like "ssh" or "teams/ssh-prod" (got string "../sys")',
    ]);
    expect(scopeProblems(schemas, SSH_ROLE, 'mount', 'sys')).toEqual([
      'mount "sys" is reserved by the secrets service (sys/, auth/, identity/, cubbyhole/, audit/ are its own paths)',
    ]);
    // a kind of the platform API has no mount to reserve
    expect(scopeProblems(schemas, providerFor('RegistryModule')!, 'organization', 'sys')).toEqual([]);
  });
});
