/**
 * Configuration (docs/configuration.md): a file found by cosmiconfig, then the
 * CONVERGE_* environment variables, which win so that CI can run without a
 * file. Tokens only ever come from the environment. A configuration written as
 * code runs only when the user opts in (docs/security.md, "Configuration").
 */
import { dirname, extname, resolve } from 'node:path';
import { cosmiconfig, defaultLoaders, type Loader } from 'cosmiconfig';
import { parse as parseYaml } from 'yaml';
import { API_NAMES, type ApiName, type ApiProfile, PROFILES } from '../api/profiles.ts';
import { ConvergeError } from '../errors.ts';
import type { IgnoreRule, OwnershipRule } from '../reconcile/ownership.ts';
import { validate as validateConfig } from './config-validator.generated.js';

export interface Connection {
  url: string;
  token: string | undefined;
  /** Name of the environment variable the token came from (for messages). */
  tokenEnv: string;
  /** The header carrying the token, when not the API's usual one (docs/apis.md). */
  tokenHeader?: string;
  rateLimit: number | undefined;
  requestTimeoutMs: number | undefined;
}

/** The connection of each API family (src/api/profiles.ts), under the family's name. */
export type Connections = { [api in ApiName]: Connection | undefined };

export interface ConvergeConfig extends Connections {
  /** The file the configuration came from, if any. */
  file: string | undefined;
  /** Requests in flight per API at the start; the window adapts up to maxParallelism. */
  parallelism: number;
  maxParallelism: number;
  ownership: OwnershipRule[];
  /** Fields left to someone else, per kind or selection (docs/configuration.md, `ignore`). */
  ignore: IgnoreRule[];
  maxDeletes: number;
  /** Absolute path of the fingerprint store, or undefined when disabled. */
  fingerprints: string | undefined;
  interpolation: {
    /** Absolute directories `${file:}` may read besides the repository. */
    fileRoots: string[];
    /** Names or `PREFIX*` patterns `${env:}` may read; undefined: any but converge's tokens. */
    env: string[] | undefined;
    maxFileBytes: number | undefined;
  };
  /** Values of the manifests' variables (docs/configuration.md, `variables`); none when absent. */
  variables?: {
    /** Values files, absolute, in the order given (a later one wins). */
    files: string[];
    /** Values given in the configuration itself. */
    values: Record<string, unknown>;
  };
}

interface ConnectionFile {
  url?: string;
  tokenEnv?: string;
  tokenHeader?: string;
  rateLimit?: number;
  requestTimeoutMs?: number;
}

interface ConfigFile extends Partial<Record<ApiName, ConnectionFile>> {
  parallelism?: number;
  maxParallelism?: number;
  ownership?: OwnershipRule[];
  ignore?: IgnoreRule[];
  guard?: { maxDeletes?: number };
  fingerprints?: false | { path: string };
  interpolation?: { fileRoots?: string[]; env?: string[]; maxFileBytes?: number };
  variables?: { files?: string[] } & Record<string, unknown>;
}

/** The environment variable that allows a configuration written as code to run. */
export const ALLOW_CODE_CONFIG = 'CONVERGE_ALLOW_CODE_CONFIG';
const CODE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];

export const DEFAULT_PARALLELISM = 10;
export const DEFAULT_MAX_DELETES = 10;
export const DEFAULT_FINGERPRINTS = '.converge/fingerprints.json';
/** How far the adaptive window may grow (`parallelism` is where it starts). */
export const DEFAULT_MAX_PARALLELISM = 64;

export async function loadConfig(options: {
  cwd: string;
  file?: string;
  env: Record<string, string | undefined>;
  /** `--allow-code-config`: run a configuration written as code. */
  allowCode?: boolean;
}): Promise<ConvergeConfig> {
  const allowCode = options.allowCode === true || options.env[ALLOW_CODE_CONFIG] === '1';
  const explorer = cosmiconfig('converge', {
    searchStrategy: 'project',
    loaders: { ...yamlLoaders, ...codeLoaders(allowCode) },
    searchPlaces: [
      'package.json',
      '.convergerc',
      '.convergerc.json',
      '.convergerc.yaml',
      '.convergerc.yml',
      '.convergerc.js',
      '.convergerc.cjs',
      'converge.config.yaml',
      'converge.config.yml',
      'converge.config.json',
      'converge.config.js',
      'converge.config.cjs',
      'converge.config.mjs',
      'converge.config.ts',
    ],
  });
  let found: { config: unknown; filepath: string } | null;
  try {
    found = options.file ? await explorer.load(resolve(options.cwd, options.file)) : await explorer.search(options.cwd);
  } catch (error) {
    if (ConvergeError.is(error)) throw error;
    const named = options.file ? ` ${resolve(options.cwd, options.file)}` : '';
    throw new ConvergeError('CONFIG_INVALID', `configuration${named} cannot be read: ${(error as Error).message}`, {
      hint: 'check the file named above',
    });
  }
  const raw = (found?.config ?? {}) as ConfigFile;
  await validate(raw, found?.filepath);
  const base = found ? dirname(found.filepath) : options.cwd;
  const env = options.env;
  return {
    file: found?.filepath,
    ...connections(raw, env, found?.filepath),
    parallelism: raw.parallelism ?? DEFAULT_PARALLELISM,
    maxParallelism: Math.max(raw.maxParallelism ?? DEFAULT_MAX_PARALLELISM, raw.parallelism ?? DEFAULT_PARALLELISM),
    ownership: raw.ownership ?? [],
    ignore: raw.ignore ?? [],
    maxDeletes: raw.guard?.maxDeletes ?? DEFAULT_MAX_DELETES,
    fingerprints: fingerprintsPath(raw, env, base, options.cwd),
    interpolation: {
      fileRoots: (raw.interpolation?.fileRoots ?? []).map((dir) => resolve(base, dir)),
      env: raw.interpolation?.env,
      maxFileBytes: raw.interpolation?.maxFileBytes,
    },
    variables: variablesOf(raw.variables, base),
  };
}

/** `variables`: `files` is the list of values files; every other key gives a variable its value. */
function variablesOf(raw: ConfigFile['variables'], base: string): NonNullable<ConvergeConfig['variables']> {
  const { files, ...values } = raw ?? {};
  return { files: (files ?? []).map((file) => resolve(base, file)), values };
}

/**
 * YAML read by the manifests' parser (yaml, YAML 1.2), not cosmiconfig's own (js-yaml): one
 * reading of YAML for every file converge reads, and one parser loaded instead of two
 * (docs/performance.md, "Start-up").
 */
const loadYaml: Loader = (filepath, content) => {
  try {
    return parseYaml(content);
  } catch (error) {
    // yaml's message ends with the offending lines; the position goes in front, as for manifests
    const { message, linePos } = error as { message: string; linePos?: Array<{ line: number; col: number }> };
    const at = linePos?.[0] ? `:${linePos[0].line}:${linePos[0].col}` : '';
    throw new ConvergeError('CONFIG_INVALID', `${filepath}${at}: ${message.split(' at line ')[0]}`, {
      hint: 'fix the YAML of the configuration file',
    });
  }
};
const yamlLoaders: Record<string, Loader> = { '.yaml': loadYaml, '.yml': loadYaml, noExt: loadYaml };

/**
 * A configuration file written as code runs when loaded, so a pull request
 * could run code in a plan job that holds the tokens. Such files are loaded
 * only with --allow-code-config or CONVERGE_ALLOW_CODE_CONFIG=1; otherwise
 * finding one is an error, never a silent skip.
 */
function codeLoaders(allowCode: boolean): Record<string, Loader> {
  const refuse: Loader = (filepath) => {
    throw new ConvergeError(
      'CONFIG_INVALID',
      `${filepath}: a configuration written as code runs when loaded, and is loaded only when allowed`,
      {
        hint: `pass --allow-code-config or set ${ALLOW_CODE_CONFIG}=1 if you trust it, or write the configuration as YAML or JSON`,
      },
    );
  };
  const loaders: Record<string, Loader> = {};
  for (const ext of CODE_EXTENSIONS) {
    const load = defaultLoaders[ext as keyof typeof defaultLoaders];
    if (load) loaders[ext] = allowCode ? load : refuse;
  }
  return loaders;
}

/** Whether a path names a configuration written as code. */
export function isCodeConfig(path: string): boolean {
  return CODE_EXTENSIONS.includes(extname(path));
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

function connections(raw: ConfigFile, env: Record<string, string | undefined>, path: string | undefined): Connections {
  const entries = API_NAMES.map(
    (api) => [api, connection(raw[api], env, PROFILES[api], `${api}.url in ${path ?? 'the configuration'}`)] as const,
  );
  return Object.fromEntries(entries) as Connections;
}

function connection(
  file: ConnectionFile | undefined,
  env: Record<string, string | undefined>,
  family: ApiProfile,
  /** Where the file's URL is, for a message about it. */
  fileUrl: string,
): Connection | undefined {
  const fromEnv = env[family.env.url];
  const url = fromEnv || file?.url;
  if (!url) return undefined;
  if (fromEnv) checkUrl(fromEnv, family.env.url, `set ${family.env.url} to the server's root`);
  // the schema checks its scheme only: `http://` or `http://[bad` would fail on the first request
  else checkUrl(url, fileUrl, "write the server's root");
  const tokenEnv = file?.tokenEnv ?? family.env.token;
  const tokenFrom = env[family.env.token] ? family.env.token : tokenEnv;
  const token = checkToken(env[tokenFrom] || undefined, tokenFrom);
  return {
    url: url.replace(/\/+$/, ''),
    token,
    tokenEnv,
    ...(file?.tokenHeader !== undefined && { tokenHeader: file.tokenHeader }),
    // no default here: until the server advertises its limit, the client assumes the platform's
    // documented minimum (30/s); a configured value would cap it even on a server that allows more
    rateLimit: file?.rateLimit,
    requestTimeoutMs: file?.requestTimeoutMs,
  };
}

/** A server URL, from the environment or the file: one an HTTP client can send to. */
function checkUrl(url: string, where: string, fix: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol === 'http:' || parsed?.protocol === 'https:') return;
  // a user and password written into the URL are credentials (docs/security.md): never shown
  const shown = url.replace(/^([^:/?#]*:\/\/)[^/?#]*@/, '$1***@');
  throw new ConvergeError('CONFIG_INVALID', `${where} must be an http:// or https:// URL (got "${shown}")`, {
    hint: `${fix}, for example https://tfe.example.com`,
  });
}

/**
 * A token copied with its line end (`$(cat token)` keeps none, a file read by
 * other means may) loses it; a token with a line break inside is refused, as
 * no server issues one and HTTP could not send it.
 */
function checkToken(token: string | undefined, variable: string): string | undefined {
  if (token === undefined) return undefined;
  const trimmed = token.replace(/[\r\n]+$/, '');
  if (trimmed === '') return undefined;
  if (/[\r\n]/.test(trimmed)) {
    throw new ConvergeError('CONFIG_INVALID', `${variable} holds a line break inside the token`, {
      hint: `set ${variable} to the token alone, on one line`,
    });
  }
  return trimmed;
}

async function validate(raw: unknown, file: string | undefined): Promise<void> {
  // compiled from ./schema.ts at build time (scripts/build-validators.ts): compiling it on every run cost ~20 ms
  if (validateConfig(raw)) return;
  const [{ configProblems }, { configPositions }] = await Promise.all([
    import('./problems.ts'),
    import('./positions.ts'),
  ]);
  const positions = file && !isCodeConfig(file) ? configPositions(file) : undefined;
  const lines = configProblems(validateConfig.errors ?? [], file ?? 'configuration', positions);
  throw new ConvergeError('CONFIG_INVALID', lines.join('\n'), {
    hint: 'see docs/configuration.md for the configuration format',
  });
}
