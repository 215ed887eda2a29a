/** Registry records as the management API renders them (JSON:API; docs/apis.md). */
import type { Attributes, ResourceObject } from '../jsonapi.ts';
import { compareVersions } from './semver.ts';
import type { ModuleRecord, VersionRecord } from './state.ts';

export const MODULES_PATH = '/api/v2/organizations';

export function modulePath(m: ModuleRecord): string {
  return `${MODULES_PATH}/${m.organization}/registry-modules/${m.registryName}/${m.namespace}/${m.name}/${m.provider}`;
}

export function moduleResource(m: ModuleRecord, versions: readonly VersionRecord[]): ResourceObject {
  const own = versions.filter((v) => v.moduleId === m.id).sort((a, b) => compareVersions(b.version, a.version));
  const attributes: Attributes = {
    name: m.name,
    namespace: m.namespace,
    provider: m.provider,
    'registry-name': m.registryName,
    status: m.status,
    'version-statuses': own.map((v) => ({ version: v.version, status: v.status, ...(v.error && { error: v.error }) })),
    'created-at': m.createdAt,
    'updated-at': m.updatedAt,
    'no-code': m.noCode,
    'publishing-mechanism': m.vcsRepo ? (m.vcsRepo.branch ? 'branch' : 'git_tag') : 'non_vcs',
    permissions: { 'can-delete': true, 'can-resync': m.vcsRepo !== null, 'can-retry': m.vcsRepo !== null },
    'test-config': m.testConfig ? { id: m.testConfig.id, 'tests-enabled': m.testConfig.testsEnabled } : null,
    ...(m.vcsRepo && { 'vcs-repo': { ...m.vcsRepo } }),
  };
  return {
    id: m.id,
    type: 'registry-modules',
    attributes,
    relationships: { organization: { data: { id: m.organization, type: 'organizations' } } },
    links: { self: modulePath(m) },
  };
}

export function versionResource(v: VersionRecord, uploadUrl?: string): ResourceObject {
  return {
    id: v.id,
    type: 'registry-module-versions',
    attributes: {
      source: v.source,
      status: v.status,
      version: v.version,
      'created-at': v.createdAt,
      'updated-at': v.updatedAt,
      ...(v.error && { error: v.error }),
    },
    relationships: { 'registry-module': { data: { id: v.moduleId, type: 'registry-modules' } } },
    links: uploadUrl ? { upload: uploadUrl } : {},
  };
}
