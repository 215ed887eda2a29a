/**
 * The registry's part of the seed (src/emulator/registry/seed.ts): every
 * problem at once, as `where: what`, including the public registry's catalog
 * (`registry.publicModules`) and the content paths its versions name.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registrySeedProblems } from '../../src/emulator/registry/seed.ts';
import { FIXTURES } from './registry-ingest/tarballs.ts';

describe('the registry seed', () => {
  it('accepts nothing, the modes, repositories and a catalog whose content exists', () => {
    expect(registrySeedProblems(undefined)).toEqual([]);
    expect(
      registrySeedProblems({
        publicCuration: true,
        selfManaged: false,
        repositories: { 'acme/terraform-aws-network': '/some/repository' },
        publicModules: [
          {
            namespace: 'terraform-aws-modules',
            name: 'vpc',
            provider: 'aws',
            description: 'VPC',
            source: 'https://example.com/vpc',
            owner: 'someone',
            verified: true,
            downloads: 3,
            versions: [
              { version: '1.0.0', source: join(FIXTURES, 'network'), publishedAt: '2024-01-01T00:00:00Z' },
              { version: '1.1.0-rc.1' },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });

  it('reports every problem of the modes, repositories and catalog at once', () => {
    expect(
      registrySeedProblems({
        publicCuration: 'yes',
        mirror: true,
        repositories: { 'acme/x': '' },
        publicModules: [
          {
            namespace: '-bad',
            name: 'vpc',
            provider: 'AWS',
            verified: 'no',
            downloads: -1,
            versions: [
              { version: 'v1.0.0' },
              { version: '1.0.0', source: join(FIXTURES, 'network'), archive: join(FIXTURES, 'network') },
              { version: '1.0.0', source: join(FIXTURES, 'no-such-module') },
              { version: '2.0.0', archive: FIXTURES, publishedAt: 'yesterday', tag: 'v2' },
            ],
          },
          { namespace: 'a', name: 'b', provider: 'c', versions: [] },
          { namespace: 'a', name: 'b', provider: 'c', versions: [{ version: '1.0.0' }] },
          'not a module',
        ],
      }),
    ).toEqual([
      'registry.mirror: unknown field (known: publicCuration, selfManaged, repositories, publicModules)',
      'registry.publicCuration: expected true or false',
      'registry.repositories.acme/x: expected a path',
      'registry.publicModules[0].namespace: expected a name of at most 64 characters matching ^[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?$',
      'registry.publicModules[0].provider: expected a name of at most 64 characters matching ^[a-z0-9]+$',
      'registry.publicModules[0].verified: expected true or false',
      'registry.publicModules[0].downloads: expected a whole number of at least 0',
      'registry.publicModules[0].versions[0].version: expected a semantic version',
      'registry.publicModules[0].versions[1]: source (a directory) or archive (a .tar.gz), not both',
      `registry.publicModules[0].versions[1].archive: ${join(FIXTURES, 'network')} is not a file`,
      'registry.publicModules[0].versions[2].version: 1.0.0 is listed twice',
      `registry.publicModules[0].versions[2].source: ${join(FIXTURES, 'no-such-module')} does not exist`,
      'registry.publicModules[0].versions[3].tag: unknown field (known: version, publishedAt, source, archive)',
      'registry.publicModules[0].versions[3].publishedAt: expected an ISO 8601 time',
      `registry.publicModules[0].versions[3].archive: ${FIXTURES} is not a file`,
      'registry.publicModules[1].versions: expected a list of at least one version',
      'registry.publicModules[2]: a/b/c is already in the catalog',
      'registry.publicModules[3]: expected a mapping',
    ]);
    expect(registrySeedProblems([])).toEqual(['registry: expected a mapping']);
    expect(registrySeedProblems({ publicModules: {} })).toEqual(['registry.publicModules: expected a list']);
  });
});
