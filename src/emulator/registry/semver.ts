/** Semantic versions of module versions and VCS tags (with or without a leading `v`), via the semver package. */
import semver from 'semver';

/** Exactly a semantic version: semver.valid also takes `v1.0.0` and ` 1.0.0 `, which do not name versions. */
export function validVersion(version: string): boolean {
  return /^\d/.test(version) && version.trim() === version && semver.valid(version) !== null;
}

/** A tag that names a version (`v1.2.0`, `1.2.0`), as the version; undefined otherwise. */
export function versionOfTag(tag: string): string | undefined {
  const bare = tag.startsWith('v') ? tag.slice(1) : tag;
  return semver.valid(bare) === bare ? bare : undefined;
}

export function compareVersions(a: string, b: string): number {
  if (semver.valid(a) && semver.valid(b)) return semver.compare(a, b);
  return a.localeCompare(b);
}

/** The latest of some versions: the highest release, else the highest pre-release. */
export function latest(versions: readonly string[]): string | undefined {
  const releases = versions.filter((v) => semver.prerelease(v) === null);
  const pool = releases.length > 0 ? releases : versions;
  return [...pool].sort(compareVersions).at(-1);
}
