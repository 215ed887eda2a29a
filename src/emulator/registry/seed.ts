/**
 * The registry's part of the seed (`registry:`; docs/emulator.md,
 * "Registry"): how the registry behaves, the git repositories VCS
 * publishing reads, and the public registry's catalog that the public-module
 * proxy serves (./public-proxy.ts). Checked whole, every problem as
 * `where: what`, as the rest of the seed is.
 */
import { existsSync, statSync } from 'node:fs';
import { isPlainObject } from '../../reconcile/equal.ts';
import { MAX_NAME_LENGTH, MODULE_NAME, PROVIDER_NAME } from './names.ts';
import { validVersion } from './semver.ts';

export interface RegistrySeed {
  /** Records of publicly curated modules may be kept (default true); off, they are a 403. */
  publicCuration?: boolean;
  /** The self-managed edition: every `registry-name` must be `private` (default false). */
  selfManaged?: boolean;
  /** VCS repositories publishing can read: identifier (`org/repo`) -> a local git repository. */
  repositories?: Record<string, string>;
  /** The public registry's modules, as the public-module proxy serves them. */
  publicModules?: PublicModuleSeed[];
}

/** A module of the public registry. */
export interface PublicModuleSeed {
  namespace: string;
  name: string;
  provider: string;
  /** Default: the README's first line of prose. */
  description?: string;
  /** Where its code lives, e.g. a repository URL (default ''). */
  source?: string;
  owner?: string;
  /** A partner module (default false). */
  verified?: boolean;
  /** Downloads of all its versions (default 0). */
  downloads?: number;
  versions: PublicModuleVersionSeed[];
}

/**
 * One version. Its content, which gives `root`, `submodules` and
 * `providers`, is a module directory (`source`, packed as converge packs
 * one) or a gzip tarball (`archive`), read when first asked for; without
 * either the version has an empty root.
 */
export interface PublicModuleVersionSeed {
  version: string;
  /** ISO 8601; default: when the emulator started. */
  publishedAt?: string;
  source?: string;
  archive?: string;
}

const REGISTRY_KEYS = ['publicCuration', 'selfManaged', 'repositories', 'publicModules'];
const MODULE_KEYS = [
  'namespace',
  'name',
  'provider',
  'description',
  'source',
  'owner',
  'verified',
  'downloads',
  'versions',
];
const VERSION_KEYS = ['version', 'publishedAt', 'source', 'archive'];

/** Every problem with the seed's `registry` value; none when it is undefined. */
export function registrySeedProblems(registry: unknown): string[] {
  const problems: string[] = [];
  if (registry === undefined) return problems;
  if (!isPlainObject(registry)) return ['registry: expected a mapping'];
  unknownKeys(registry, 'registry', REGISTRY_KEYS, problems);
  for (const flag of ['publicCuration', 'selfManaged']) {
    if (registry[flag] !== undefined && typeof registry[flag] !== 'boolean')
      problems.push(`registry.${flag}: expected true or false`);
  }
  const repositories = registry.repositories;
  if (repositories !== undefined) {
    if (!isPlainObject(repositories)) problems.push('registry.repositories: expected a mapping');
    else
      for (const [id, path] of Object.entries(repositories)) {
        if (typeof path !== 'string' || path === '') problems.push(`registry.repositories.${id}: expected a path`);
      }
  }
  problems.push(...catalogProblems(registry.publicModules));
  return problems;
}

function catalogProblems(modules: unknown): string[] {
  const problems: string[] = [];
  if (modules === undefined) return problems;
  if (!Array.isArray(modules)) return ['registry.publicModules: expected a list'];
  const seen = new Set<string>();
  for (const [i, module] of modules.entries()) {
    const at = `registry.publicModules[${i}]`;
    if (!isPlainObject(module)) {
      problems.push(`${at}: expected a mapping`);
      continue;
    }
    unknownKeys(module, at, MODULE_KEYS, problems);
    name(module.namespace, `${at}.namespace`, MODULE_NAME, problems);
    name(module.name, `${at}.name`, MODULE_NAME, problems);
    name(module.provider, `${at}.provider`, PROVIDER_NAME, problems);
    const key = `${String(module.namespace)}/${String(module.name)}/${String(module.provider)}`;
    if (seen.has(key)) problems.push(`${at}: ${key} is already in the catalog`);
    seen.add(key);
    for (const field of ['description', 'source', 'owner']) {
      if (module[field] !== undefined && typeof module[field] !== 'string')
        problems.push(`${at}.${field}: expected a string`);
    }
    if (module.verified !== undefined && typeof module.verified !== 'boolean')
      problems.push(`${at}.verified: expected true or false`);
    const downloads = module.downloads;
    if (downloads !== undefined && !(Number.isInteger(downloads) && (downloads as number) >= 0))
      problems.push(`${at}.downloads: expected a whole number of at least 0`);
    problems.push(...versionProblems(module.versions, `${at}.versions`));
  }
  return problems;
}

function versionProblems(versions: unknown, at: string): string[] {
  if (!Array.isArray(versions) || versions.length === 0) return [`${at}: expected a list of at least one version`];
  const problems: string[] = [];
  const seen = new Set<unknown>();
  for (const [i, entry] of versions.entries()) {
    const vAt = `${at}[${i}]`;
    if (!isPlainObject(entry)) {
      problems.push(`${vAt}: expected a mapping`);
      continue;
    }
    unknownKeys(entry, vAt, VERSION_KEYS, problems);
    if (typeof entry.version !== 'string' || !validVersion(entry.version))
      problems.push(`${vAt}.version: expected a semantic version`);
    else if (seen.has(entry.version)) problems.push(`${vAt}.version: ${entry.version} is listed twice`);
    seen.add(entry.version);
    if (
      entry.publishedAt !== undefined &&
      (typeof entry.publishedAt !== 'string' || Number.isNaN(Date.parse(entry.publishedAt)))
    )
      problems.push(`${vAt}.publishedAt: expected an ISO 8601 time`);
    if (entry.source !== undefined && entry.archive !== undefined)
      problems.push(`${vAt}: source (a directory) or archive (a .tar.gz), not both`);
    if (entry.source !== undefined) path(entry.source, `${vAt}.source`, 'directory', problems);
    if (entry.archive !== undefined) path(entry.archive, `${vAt}.archive`, 'file', problems);
  }
  return problems;
}

function unknownKeys(value: Record<string, unknown>, at: string, known: readonly string[], problems: string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) problems.push(`${at}.${key}: unknown field (known: ${known.join(', ')})`);
  }
}

function name(value: unknown, at: string, pattern: RegExp, problems: string[]): void {
  if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH || !pattern.test(value))
    problems.push(`${at}: expected a name of at most ${MAX_NAME_LENGTH} characters matching ${pattern.source}`);
}

function path(value: unknown, at: string, kind: 'directory' | 'file', problems: string[]): void {
  if (typeof value !== 'string' || value === '') problems.push(`${at}: expected a path`);
  else if (!existsSync(value)) problems.push(`${at}: ${value} does not exist`);
  else if (kind === 'directory' ? !statSync(value).isDirectory() : !statSync(value).isFile())
    problems.push(`${at}: ${value} is not a ${kind}`);
}
