/**
 * The emulator's LDAP engine and templates that would build gigabytes
 * (src/template/limits.ts), sent as raw HTTP (converge refuses them at
 * validate): a role write answers 400 with the field, the bound and the
 * template's place, as the service answers bad input, and stores nothing; a
 * render that passes a bound only with the request's values answers 400 with
 * its message. Never a 500, and never an anonymous `500 {"errors":[]}`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type SecretsClient, startSecrets } from './secrets-client.ts';

const LDIF = {
  creation_ldif: 'dn: cn={{.Username}},dc=example,dc=org\nobjectClass: person\ncn: {{.Username}}\nsn: x\n',
  deletion_ldif: 'dn: cn={{.Username}},dc=example,dc=org\nchangetype: delete\n',
};
const LIMIT = 'a template value may hold at most 1048576 (1 MiB)';
const CONFIG = {
  url: 'ldap://ldap.emulator.test',
  binddn: 'cn=admin,dc=example,dc=org',
  bindpass: 'admin-password',
  userdn: 'ou=service,dc=example,dc=org',
};

let secrets: SecretsClient;
afterEach(() => secrets?.emulator.close());

describe('template limits in the LDAP engine', () => {
  it('refuses a role whose template passes a bound, with the place', async () => {
    secrets = await startSecrets();
    const cases: Array<[string, string]> = [
      ['{{random 999999999}}', 'error calling random: the result would be 999999999 characters long'],
      [
        '{{printf "%0999999999d" 1}}',
        'error calling printf: printf: the width 999999999 would be 999999999 characters long',
      ],
    ];
    for (const [template, message] of cases) {
      const answer = await secrets.post('/ldap/role/big', { ...LDIF, username_template: template });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: { errors: [`invalid username_template: ${message}; ${LIMIT} (line 1, column 3)`] },
      });
    }
    expect((await secrets.get('/ldap/role/big')).status).toBe(404);
  });

  it('answers 400 for a bound passed in any template field, on create and on update, and keeps the role', async () => {
    secrets = await startSecrets();
    // a field each kind of template offers: LDIF templates have .Username, username templates .RoleName
    const over = (field: string) => [
      '{{random 999999999}}',
      '{{printf "%0999999999d" 1}}',
      `{{${field}${' | base64'.repeat(60)}}}`,
      `{{printf "%.999999999s" ${field}}}`,
      // each value within its bound, the output past it
      `{{random 1048576}}{{${field}}}`,
    ];
    const entry = (value: string) =>
      `dn: cn={{.Username}},dc=example,dc=org\nobjectClass: person\ncn: x\nsn: ${value}\n`;
    for (const field of ['creation_ldif', 'deletion_ldif', 'rollback_ldif', 'username_template'] as const) {
      const username = field === 'username_template';
      for (const template of over(username ? '.RoleName' : '.Username')) {
        const value = username ? template : entry(template);
        for (const name of ['fresh', 'kept']) {
          if (name === 'kept') expect((await secrets.post('/ldap/role/kept', LDIF)).status).toBe(204);
          const answer = await secrets.post(`/ldap/role/${name}`, { ...LDIF, [field]: value });
          expect(answer.status, `${field} ${template} ${name}`).toBe(400);
          expect(answer.body.errors, `${field} ${template}`).toEqual([
            expect.stringMatching(new RegExp(`^invalid ${field}: `)),
          ]);
          expect(answer.body.errors?.[0]).toMatch(/(\d+ characters long|MiB).*\(line \d+, column \d+\)$/);
        }
        expect((await secrets.get('/ldap/role/fresh')).status).toBe(404);
        expect((await secrets.get('/ldap/role/kept')).data).toMatchObject(LDIF);
      }
    }
  });

  it('still answers a template the engine cannot parse as the engine does: 500 with its wrapped message', async () => {
    secrets = await startSecrets();
    const answer = await secrets.post('/ldap/role/bad', { ...LDIF, username_template: '{{if .RoleName}}x{{end}}' });
    expect(answer.status).toBe(500);
    expect(answer.body.errors?.[0]).toMatch(/^1 error occurred:\n\t\* invalid username_template: /);
  });

  it('refuses chained base64 in an LDIF template, quickly', async () => {
    secrets = await startSecrets();
    const started = Date.now();
    const creation = `dn: cn={{.Username}},dc=example,dc=org\nobjectClass: person\ncn: x\nsn: {{.Username${' | base64'.repeat(60)}}}\n`;
    const answer = await secrets.post('/ldap/role/big', { ...LDIF, creation_ldif: creation });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]).toMatch(
      /^invalid creation_ldif: invalid template: error calling base64: the result would be \d+ characters long/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 400 when the request values take a render past a bound', async () => {
    secrets = await startSecrets();
    expect((await secrets.post('/ldap/config', CONFIG)).status).toBe(204);
    // with the sample display name ("token") the output stays under 1 MiB; with 100 characters it does not
    const template = '{{random 1048000}}{{.DisplayName | replace "" "0123456789"}}';
    expect((await secrets.post('/ldap/role/big', { ...LDIF, username_template: template })).status).toBe(204);
    const token = await secrets.mint({ display_name: 'd'.repeat(100), policies: ['root'] });
    const answer = await secrets.get('/ldap/creds/big', token);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        errors: [
          'failed to render username_template: the output passes 1 MiB here; a template may render at most that (line 1, column 19)',
        ],
      },
    });
  });
});
