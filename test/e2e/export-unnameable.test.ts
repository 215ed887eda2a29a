/**
 * `converge export` of live objects the secrets API took under names no manifest may have (an SSH
 * role `a@b`, an LDAP role `team/ro-ü`), or with values the kind's own rules refuse (a key id
 * format naming a variable the service does not know, a template its flag leaves literal): each is skipped, saying what `validate` would
 * say, so that the rest round-trips (export, validate, plan: no change), the skipped ones left
 * live and unmanaged. Against the emulator, the CLI as a process.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, LDAP_CONFIG, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { documentValidator } from '../helpers/document-schema.ts';
import { secrets } from '../helpers/engine.ts';

const EXPORT = ['export', '--kind', 'SSHRole,LDAPDynamicRole'];
/** Names the SSH engine takes and an SSHRole's metadata.name does not. */
const ODD_ROLES = ['with space', 'a@b', '.hidden', 'sshü'];
const ODD_LDAP_ROLE = 'team/ro-ü';
/** Roles the SSH engine takes and SSHRole's rules beyond its schema refuse (docs/kinds.md), with what validate says. */
const RULE_BREAKERS: Record<string, { role: Record<string, unknown>; says: string }> = {
  'key-id': { role: { key_id_format: 'custom-{{user}}' }, says: 'unknown variable {{user}}' },
  literal: {
    role: { allowed_users: '{{identity.entity.name}}' },
    says: 'holds a template but allowed_users_template is not true, so it is used literally',
  },
};
const ROLE_NAME_RULE = 'must be letters, digits, _, - and ., starting and ending with a letter, digit or _';
const SKIPPED = [
  ...[...ODD_ROLES, ...Object.keys(RULE_BREAKERS)].map((name) => `SSHRole/ssh/${name}`),
  `LDAPDynamicRole/ldap/${ODD_LDAP_ROLE}`,
].sort();

const LDIF = {
  creation_ldif: 'dn: cn={{.Username}},ou=users,dc=example,dc=org\nobjectClass: person\ncn: {{.Username}}\nsn: x\n',
  deletion_ldif: 'dn: cn={{.Username}},ou=users,dc=example,dc=org\nchangetype: delete\n',
};

let target: CliTarget;
let out: string;
let exported: Awaited<ReturnType<CliTarget['run']>>;

/** A secrets-API request, as someone working outside converge would send it. */
function secretsApi(method: string, path: string, body: unknown) {
  const { url, tokens } = target.emulator;
  return secrets({ url, token: tokens.admin, secretsToken: tokens.secrets }, method, path, body);
}

beforeAll(async () => {
  target = await cliTarget('export-unnameable', NO_FINGERPRINTS);
  // one object of each kind a manifest can name, applied in-process
  const manifests = join(target.scratch, 'seed.yaml');
  await writeFile(
    manifests,
    `${LDAP_CONFIG}---
kind: SSHRole
metadata: {name: engineers}
spec: {key_type: ca, allow_user_certificates: true, ttl: 30m}
---
kind: LDAPDynamicRole
metadata: {name: team/ro}
spec:
  creation_ldif: ${JSON.stringify(LDIF.creation_ldif)}
  deletion_ldif: ${JSON.stringify(LDIF.deletion_ldif)}
`,
  );
  await seedApply(target, [manifests]);
  // and what only the API could name
  for (const name of ODD_ROLES) {
    const role = { key_type: 'ca', allow_user_certificates: true };
    const posted = await secretsApi('POST', `/ssh/roles/${encodeURIComponent(name)}`, role);
    expect(posted.status, JSON.stringify(posted.body)).toBe(204);
  }
  for (const [name, { role }] of Object.entries(RULE_BREAKERS)) {
    const posted = await secretsApi('POST', `/ssh/roles/${name}`, {
      key_type: 'ca',
      allow_user_certificates: true,
      ...role,
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(204);
  }
  const path = ODD_LDAP_ROLE.split('/').map(encodeURIComponent).join('/');
  const posted = await secretsApi('POST', `/ldap/role/${path}`, LDIF);
  expect(posted.status, JSON.stringify(posted.body)).toBe(204);

  out = join(target.scratch, 'imported');
  exported = await target.run([...EXPORT, '--out', out]);
});
afterAll(() => target?.close());

describe('export of objects whose names no manifest may have', () => {
  it("skips each, in validate's words, and counts it", () => {
    expect(exported.code, exported.stderr).toBe(0);
    for (const name of ODD_ROLES) {
      expect(exported.stderr).toContain(
        `Skipping SSHRole/ssh/${name}: its manifest would not validate: metadata.name ${ROLE_NAME_RULE} (got string ${JSON.stringify(name)}).`,
      );
    }
    expect(exported.stderr).toContain(
      `Skipping LDAPDynamicRole/ldap/${ODD_LDAP_ROLE}: its manifest would not validate: metadata.name must be segments of letters, digits, _, - and . separated by /`,
    );
    expect(exported.stdout).toContain('Exported 2 object(s) of 2 kind(s)');
    for (const [name, { says }] of Object.entries(RULE_BREAKERS)) {
      const line = exported.stderr.split('\n').find((l) => l.startsWith(`Skipping SSHRole/ssh/${name}: `));
      expect(line).toContain(': its manifest would not validate: ');
      expect(line).toContain(says);
    }
    expect(exported.stdout).toContain('  SSHRole: 7, 6 skipped');
    expect(exported.stdout).toContain('  LDAPDynamicRole: 2, 1 skipped');
  });

  it('writes only what validate takes, and that plans no change; the skipped objects stay live, unmanaged', async () => {
    const text = await readFile(join(out, 'ssh-role.yaml'), 'utf8');
    expect(text).toContain('name: engineers');
    for (const name of [...ODD_ROLES, ...Object.keys(RULE_BREAKERS)]) expect(text).not.toContain(`name: ${name}`);
    const valid = await target.run(['validate', out]);
    expect(valid.code, valid.stderr).toBe(0);
    const plan = await target.run(['plan', out, '--json', '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(0);
    const { actions, unmanaged } = JSON.parse(plan.stdout).plan as {
      actions: Array<{ key: string; action: string }>;
      unmanaged: Array<{ key: string }>;
    };
    expect(actions.map((a) => [a.key, a.action]).sort()).toEqual([
      ['LDAPDynamicRole/ldap/team/ro', 'noop'],
      ['SSHRole/ssh/engineers', 'noop'],
    ]);
    expect(unmanaged.map((u) => u.key).sort()).toEqual(SKIPPED);
  });

  it('--json lists the skipped objects with why, in a document its schema accepts', async () => {
    const result = await target.run([...EXPORT, '--out', join(target.scratch, 'imported-json'), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout);
    const validate = await documentValidator('converge-export');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.objects).toBe(2);
    const skipped = doc.skippedObjects as Array<{ object: string; kind: string; why: string }>;
    expect(skipped.map((s) => s.object).sort()).toEqual(SKIPPED);
    expect(skipped).toContainEqual({
      object: 'SSHRole/ssh/a@b',
      kind: 'SSHRole',
      why: `its manifest would not validate: metadata.name ${ROLE_NAME_RULE} (got string "a@b")`,
    });
    // what is said on stderr, line for line
    for (const s of skipped) expect(result.stderr).toContain(`Skipping ${s.object}: ${s.why}.`);
  });
});
