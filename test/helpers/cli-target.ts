/**
 * What an end-to-end test of the CLI runs against: an emulator on loopback,
 * a scratch directory, and the environment that points converge at both
 * (fingerprints kept in the scratch directory).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ADMIN_PASSWORD } from '../../src/emulator/ldap/directory/index.ts';
import { MEMORY_DIRECTORY_URL } from '../../src/emulator/secrets/seed.ts';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { type CliResult, converge } from './cli.ts';

/** An LDAP engine configured on the directory the target's `LDAP_URL` and `LDAP_BINDPASS` name. */
export const LDAP_CONFIG = `kind: LDAPConfig
metadata: {mount: ldap}
spec:
  url: \${env:LDAP_URL}
  binddn: cn=admin,dc=example,dc=org
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=service,dc=example,dc=org
`;

/**
 * The extra environment of a test that does not look at what the fingerprint store does: without
 * a store, a CLI process derives no scrypt key for it, up to a quarter of a small plan's CPU
 * (docs/performance.md, "Test suite"). A test of secrets the plan recognises keeps the store.
 */
export const NO_FINGERPRINTS: Readonly<Record<string, string>> = { CONVERGE_FINGERPRINTS: 'off' };

/**
 * Gives a target made with NO_FINGERPRINTS a fingerprint store in its scratch directory, for the
 * test of a file without one that is about what the store does: the runs after it and the
 * in-process seed (test/helpers/cli-seed.ts) use it.
 */
export function keepFingerprints(target: CliTarget): void {
  target.env.CONVERGE_FINGERPRINTS = join(target.scratch, 'fingerprints.json');
}

export interface CliTarget {
  emulator: RunningEmulator;
  scratch: string;
  env: Record<string, string>;
  /** converge in the scratch directory with the target's environment, plus `extra`. */
  run(args: string[], extra?: Record<string, string>): Promise<CliResult>;
  close(): Promise<void>;
}

export async function cliTarget(
  name: string,
  extraEnv: Record<string, string> = {},
  options: Omit<EmulatorOptions, 'port'> = {},
): Promise<CliTarget> {
  const emulator = await startEmulator({ ...options, port: 0 });
  const scratch = await mkdtemp(join(tmpdir(), `converge-${name}-`));
  const env = {
    CONVERGE_PLATFORM_URL: emulator.url,
    CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
    CONVERGE_SECRETS_URL: emulator.url,
    CONVERGE_SECRETS_TOKEN: emulator.tokens.secrets,
    CONVERGE_FINGERPRINTS: join(scratch, 'fingerprints.json'),
    // what examples/base/ldap reads: the emulator's in-memory directory and its admin password
    LDAP_URL: MEMORY_DIRECTORY_URL,
    LDAP_BINDPASS: DEFAULT_ADMIN_PASSWORD,
    ...extraEnv,
  };
  const close = async () => {
    await emulator.close();
    await rm(scratch, { recursive: true, force: true });
  };
  const run = (args: string[], extra: Record<string, string> = {}) =>
    converge(args, { cwd: scratch, env: { ...env, ...extra } });
  return { emulator, scratch, env, run, close };
}
