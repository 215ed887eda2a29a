/**
 * The state a CLI test starts from, applied in-process: the engine's apply (test/helpers/engine.ts)
 * against the target's emulator, with the target's environment for interpolation and its
 * fingerprint store keyed as the CLI keys it (src/cli/clients.ts, `openFingerprints`). What the test then runs as a
 * process finds what an earlier `converge apply` would have left, fingerprints and the values
 * converge saw after a create included, without a process start for a step that is not under test.
 * The scratch directory's converge.config.yaml is not read (no ignore entries, ownership or file
 * roots beyond the manifests' and the example modules'): seed only what does not depend on it.
 */
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { API_NAMES, PROFILES } from '../../src/api/profiles.ts';
import { openFingerprints } from '../../src/cli/clients.ts';
import type { CliTarget } from './cli-target.ts';
import { apply, desiredFrom } from './engine.ts';

export interface SeedOptions {
  /** Added to the target's environment, as `target.run(args, env)` adds it. */
  env?: Record<string, string>;
  /** Keys of the actions expected to fail (a version the registry refuses); none by default. */
  failing?: string[];
}

/**
 * Applies the manifests at `paths` (relative to the scratch directory, where the CLI runs) and
 * returns the summary. The fingerprints go where the environment's CONVERGE_FINGERPRINTS says,
 * none when it says nothing or `off`: a test that names no store has no secret to remember.
 */
export async function seedApply(
  target: Pick<CliTarget, 'emulator' | 'scratch' | 'env'>,
  paths: string[],
  options: SeedOptions = {},
) {
  const env = { ...target.env, ...options.env };
  const desired = await desiredFrom(
    paths.map((path) => resolve(target.scratch, path)),
    env,
  );
  const { emulator } = target;
  // keyed as the CLI keys it: each API's namespace from the URL and token its environment variables give
  const path = env.CONVERGE_FINGERPRINTS;
  const connections = Object.fromEntries(
    API_NAMES.map((api) => [api, { url: env[PROFILES[api].env.url] ?? '', token: env[PROFILES[api].env.token] }]),
  );
  const fingerprints = path === undefined || path === 'off' ? undefined : await openFingerprints(path, connections);
  const { summary } = await apply(
    { url: emulator.url, token: emulator.tokens.admin, secretsToken: emulator.tokens.secrets },
    desired,
    { ...(fingerprints && { fingerprints }) },
  );
  expect(summary.failed.map((f) => f.key).sort(), JSON.stringify(summary.failed)).toEqual(
    [...(options.failing ?? [])].sort(),
  );
  return summary;
}
