/**
 * The registry protocol's answers (plain JSON; the spec's "Registry-protocol
 * module object" and "Versions response"), built from what ingestion learnt
 * about each version (./ingest). Shared by the private registry
 * (./protocol.ts) and the public-module proxy (./public-proxy.ts), which
 * differ only in where modules and versions come from.
 */
import type { Json } from '../jsonapi.ts';
import { compareVersions, latest } from './semver.ts';

/** A module as the protocol describes it. */
export interface ProtocolModule {
  namespace: string;
  name: string;
  provider: string;
  owner: string;
  /** Where the module's code lives (a repository), '' when it was uploaded. */
  source: string;
  /** A partner module. */
  verified: boolean;
  /** Downloads of all its versions. */
  downloads: number;
  /** When unset, the README's first line of prose. */
  description?: string;
}

/** One version that can be used (`ok`). */
export interface ProtocolVersion {
  version: string;
  /** ISO 8601 with milliseconds. */
  publishedAt: string;
  /** The ingested module (root, submodules, providers), null when nothing is known about its content. */
  details: Json | null;
}

type Part = {
  path: string;
  readme?: string;
  empty?: boolean;
  inputs?: Json[];
  outputs?: Json[];
  dependencies?: Json[];
  resources?: Json[];
  providers?: Json[];
};

const rootOf = (v: ProtocolVersion): Part => (v.details as { root?: Part } | null)?.root ?? { path: '' };
const submodulesOf = (v: ProtocolVersion): Part[] => (v.details as { submodules?: Part[] } | null)?.submodules ?? [];

function part(p: Part): Json {
  return {
    path: p.path,
    readme: p.readme ?? '',
    empty: p.empty ?? false,
    inputs: p.inputs ?? [],
    outputs: p.outputs ?? [],
    dependencies: p.dependencies ?? [],
    resources: p.resources ?? [],
  };
}

/** Versions oldest first. */
export const sortedVersions = <T extends { version: string }>(versions: readonly T[]): T[] =>
  [...versions].sort((a, b) => compareVersions(a.version, b.version));

/** The latest of some versions: the highest release, else the highest pre-release. */
export function latestVersion<T extends { version: string }>(versions: readonly T[]): T | undefined {
  const newest = latest(versions.map((v) => v.version));
  return versions.find((v) => v.version === newest);
}

/**
 * The module object of one version; `detailed` adds `root`, `submodules`,
 * `providers` and `versions` (all of `versions`, oldest first), as the
 * single-module answers carry them.
 */
export function moduleObject(
  module: ProtocolModule,
  version: ProtocolVersion,
  versions: readonly ProtocolVersion[],
  detailed: boolean,
): Json {
  const readme = rootOf(version).readme ?? '';
  const description =
    module.description ??
    readme
      .split('\n')
      .find((line) => line.trim() !== '' && !line.startsWith('#'))
      ?.trim() ??
    '';
  const object: Record<string, Json> = {
    id: `${module.namespace}/${module.name}/${module.provider}/${version.version}`,
    owner: module.owner,
    namespace: module.namespace,
    name: module.name,
    version: version.version,
    provider: module.provider,
    description,
    source: module.source,
    // the protocol's timestamps have microseconds
    published_at: version.publishedAt.replace(/\.(\d{3})Z$/, '.$1000Z'),
    downloads: module.downloads,
    verified: module.verified,
  };
  if (!detailed) return object;
  return {
    ...object,
    root: part(rootOf(version)),
    submodules: submodulesOf(version).map(part),
    providers: ((version.details as { providers?: Json[] } | null)?.providers ?? []) as Json[],
    versions: sortedVersions(versions).map((v) => v.version),
  };
}

/** `GET …/:namespace/:name/:provider/versions`: the module alone (it has no optional dependencies to list). */
export function versionsAnswer(module: ProtocolModule, versions: readonly ProtocolVersion[]): Json {
  return {
    modules: [
      {
        source: `${module.namespace}/${module.name}/${module.provider}`,
        versions: sortedVersions(versions).map((v) => ({
          version: v.version,
          root: { dependencies: rootOf(v).dependencies ?? [], providers: rootOf(v).providers ?? [] },
          submodules: submodulesOf(v).map((s) => ({
            path: s.path,
            providers: s.providers ?? [],
            dependencies: s.dependencies ?? [],
          })),
        })),
      },
    ],
  };
}
