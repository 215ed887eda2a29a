/**
 * Configuration (DESIGN §5): a file found by cosmiconfig, then the CONVERGE_*
 * environment variables, which win so that CI can run without a file. Tokens
 * only ever come from the environment.
 */
import { dirname, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { cosmiconfig } from 'cosmiconfig';
import { ConvergeError } from '../errors.ts';
import type { OwnershipRule } from '../reconcile/ownership.ts';
import { configSchema } from './schema.ts';

export interface Connection {
  url: string;
  token: string | undefined;
  /** Name of the environment variable the token came from (for messages). */
  tokenEnv: string;
  rateLimit: number | undefined;
  requestTimeoutMs: number | undefined;
}

export interface ConvergeConfig {
  /** The file the configuration came from, if any. */
  file: string | undefined;
  platform: Connection | undefined;
  secrets: Connection | undefined;
  /** Requests in flight per API at the start; the window adapts up to maxParallelism. */
  parallelism: number;
  maxParallelism: number;
  ownership: OwnershipRule[];
  maxDeletes: number;
  /** Absolute path of the fingerprint store, or undefined when disabled. */
  fingerprints: string | undefined;
}

interface ConnectionFile {
  url?: string;
  tokenEnv?: string;
  rateLimit?: number;
  requestTimeoutMs?: number;
}

interface ConfigFile {
  platform?: ConnectionFile;
  secrets?: ConnectionFile;
  parallelism?: number;
  maxParallelism?: number;
  ownership?: OwnershipRule[];
  guard?: { maxDeletes?: number };
  fingerprints?: false | { path: string };
}

export const DEFAULT_PARALLELISM = 10;
export const DEFAULT_MAX_DELETES = 10;
export const DEFAULT_FINGERPRINTS = '.converge/fingerprints.json';
/** How far the adaptive window may grow (`parallelism` is where it starts). */
export const DEFAULT_MAX_PARALLELISM = 64;

export async function loadConfig(options: {
  cwd: string;
  file?: string;
  env: Record<string, string | undefined>;
}): Promise<ConvergeConfig> {
  const explorer = cosmiconfig('converge', {
    searchStrategy: 'project',
    searchPlaces: [
      'package.json',
      '.convergerc',
      '.convergerc.json',
      '.convergerc.yaml',
      '.convergerc.yml',
      '.convergerc.js',
      'converge.config.yaml',
      'converge.config.yml',
      'converge.config.json',
      'converge.config.js',
      'converge.config.mjs',
      'converge.config.ts',
    ],
  });
  let found: { config: unknown; filepath: string } | null;
  try {
    found = options.file ? await explorer.load(resolve(options.cwd, options.file)) : await explorer.search(options.cwd);
  } catch (error) {
    throw new ConvergeError('CONFIG_INVALID', `configuration cannot be read: ${(error as Error).message}`, {
      hint: 'check the file named above',
    });
  }
  const raw = (found?.config ?? {}) as ConfigFile;
  validate(raw, found?.filepath);
  const base = found ? dirname(found.filepath) : options.cwd;
  const env = options.env;
  return {
    file: found?.filepath,
    platform: connection(raw.platform, env, 'PLATFORM'),
    secrets: connection(raw.secrets, env, 'SECRETS'),
    parallelism: raw.parallelism ?? DEFAULT_PARALLELISM,
    maxParallelism: Math.max(raw.maxParallelism ?? DEFAULT_MAX_PARALLELISM, raw.parallelism ?? DEFAULT_PARALLELISM),
    ownership: raw.ownership ?? [],
    maxDeletes: raw.guard?.maxDeletes ?? DEFAULT_MAX_DELETES,
    fingerprints: fingerprintsPath(raw, env, base, options.cwd),
  };
}

/** CONVERGE_FINGERPRINTS (a path, or `off`) wins over the file, for CI and the demo. */
function fingerprintsPath(
  raw: ConfigFile,
  env: Record<string, string | undefined>,
  base: string,
  cwd: string,
): string | undefined {
  const fromEnv = env.CONVERGE_FINGERPRINTS;
  if (fromEnv === 'off') return undefined;
  if (fromEnv) return resolve(cwd, fromEnv);
  if (raw.fingerprints === false) return undefined;
  return resolve(base, raw.fingerprints?.path ?? DEFAULT_FINGERPRINTS);
}

function connection(
  file: ConnectionFile | undefined,
  env: Record<string, string | undefined>,
  name: 'PLATFORM' | 'SECRETS',
): Connection | undefined {
  const url = env[`CONVERGE_${name}_URL`] || file?.url;
  if (!url) return undefined;
  const tokenEnv = file?.tokenEnv ?? `CONVERGE_${name}_TOKEN`;
  const token = env[`CONVERGE_${name}_TOKEN`] || env[tokenEnv] || undefined;
  return {
    url: url.replace(/\/+$/, ''),
    token,
    tokenEnv,
    // no default here: until the server advertises its limit, the client assumes the platform's
    // documented minimum (30/s); a configured value would cap it even on a server that allows more
    rateLimit: file?.rateLimit,
    requestTimeoutMs: file?.requestTimeoutMs,
  };
}

function validate(raw: unknown, file: string | undefined): void {
  // the schema is ours and fixed: checking it against the meta-schema on every run costs ~100 ms of start-up
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
  if (ajv.validate(configSchema, raw)) return;
  const where = file ?? 'configuration';
  const lines = (ajv.errors ?? []).map((e) => {
    const path = e.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(top level)';
    const extra = e.keyword === 'additionalProperties' ? ` "${String(e.params.additionalProperty)}"` : '';
    return `${where}: ${path} ${e.message ?? 'is invalid'}${extra}`;
  });
  throw new ConvergeError('CONFIG_INVALID', lines.join('\n'), {
    hint: 'see docs/configuration.md for the configuration format',
  });
}
