/**
 * test/fixtures/kinds/: one manifest of every kind, with every secret read
 * from the environment, so one directory exercises the whole catalog.
 */
import { fileURLToPath } from 'node:url';

export const KINDS_FIXTURE = fileURLToPath(new URL('../fixtures/kinds/', import.meta.url));

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
  };
}
