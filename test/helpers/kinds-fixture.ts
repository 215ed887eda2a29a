/**
 * test/fixtures/kinds/: one manifest of every kind, with every secret read
 * from the environment, so one directory exercises the whole catalog.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const KINDS_FIXTURE = fileURLToPath(new URL('../fixtures/kinds/', import.meta.url));

/** The SSH CA's private key the fixture declares (a throw-away key made for these tests). */
export const SSH_CA_PRIVATE_KEY = readFileSync(new URL('../fixtures/kinds/ssh-ca', import.meta.url), 'utf8');

/** Lines of the CA private key: none of them may appear in any output. */
export const SSH_CA_KEY_CANARIES = SSH_CA_PRIVATE_KEY.split('\n').filter(
  (line) => line.length > 20 && !line.startsWith('-'),
);

/** The admin password of the emulator's built-in directory: a canary too, it must appear in no output. */
export const LDAP_ADMIN_PASSWORD = 'admin-password';

/**
 * A value for every variable the fixture reads, each carrying `tag`: a
 * distinct, searchable canary per test, so that output can be checked for it.
 */
export function kindsFixtureSecrets(tag: string): Record<string, string> {
  return {
    CLOUD_A_KEY_ID: `AKIA-${tag}-key-id`,
    CLOUD_A_SECRET: `${tag}-cloud-secret`,
    SMTP_PASSWORD: `${tag}-smtp-password`,
    SMS_TOKEN: `${tag}-sms-token`,
    SSH_CA_PRIVATE_KEY,
    // the emulator's in-memory directory knows only this password for its admin: the same in every test
    LDAP_BINDPASS: LDAP_ADMIN_PASSWORD,
    MODULE_API_KEY: `${tag}-module-api-key`,
    LDAP_CLIENT_CERT: `${tag}-ldap-client-cert`,
    LDAP_CLIENT_KEY: `${tag}-ldap-client-key`,
  };
}
