/**
 * What export says it wrote (src/export/summary.ts, src/export/document.ts): every file, the
 * module archives and `.env.example` with the manifests, and a count for every kind it read, a
 * module's versions included, in the lines for people as in the `--json` document.
 */
import { describe, expect, it } from 'vitest';
import { buildExport, type ExportedChild, type ExportProvider, type SkippedObject } from '../../../src/export/build.ts';
import { exportDocument } from '../../../src/export/document.ts';
import { kindCounts, summaryLines } from '../../../src/export/summary.ts';
import { providerFor } from '../../../src/providers/index.ts';
import { addressKey, childAddress } from '../../../src/reconcile/address.ts';
import type { LiveState } from '../../../src/reconcile/read.ts';
import type { Address, LiveObject } from '../../../src/reconcile/types.ts';

const live = (address: Address): LiveObject => ({ kind: address.kind, address, ref: addressKey(address), fields: {} });
const modules = ['dns/aws', 'network/aws'].map((name) => live({ kind: 'RegistryModule', scope: 'example-org', name }));
const versions = [
  childAddress(modules[0]!.address, 'RegistryModuleVersion', '2.0.0'),
  childAddress(modules[0]!.address, 'RegistryModuleVersion', '2.1.0'),
  childAddress(modules[1]!.address, 'RegistryModuleVersion', '1.0.0'),
].map(live);
const versionProvider = providerFor('RegistryModuleVersion')!;
/** 2.1.0 has no content: it is skipped before the build, as src/export/children.ts skips it. */
const skippedObjects: SkippedObject[] = [
  { object: addressKey(versions[1]!.address), kind: 'RegistryModuleVersion', why: 'it has no content to download' },
];
const item = (version: LiveObject): ExportedChild => ({
  field: 'versions',
  live: version,
  export: versionProvider.exportItem!,
  provider: versionProvider,
});
const children = new Map([
  [addressKey(modules[0]!.address), [item(versions[0]!)]],
  [addressKey(modules[1]!.address), [item(versions[2]!)]],
]);
const registryModule = providerFor('RegistryModule')!;
const result = buildExport([{ provider: registryModule as ExportProvider, objects: modules, children }], {
  split: false,
  schemaRef: (kind) => `${kind}.schema.json`,
});
const state: LiveState = new Map([
  ['RegistryModule', new Map(modules.map((m) => [addressKey(m.address), m]))],
  ['RegistryModuleVersion', new Map(versions.map((v) => [addressKey(v.address), v]))],
]);
const counts = kindCounts([registryModule], state);

describe('what export says it wrote', () => {
  it("counts every kind read, a module's versions after their modules", () => {
    expect(counts).toEqual([
      { kind: 'RegistryModule', objects: 2 },
      { kind: 'RegistryModuleVersion', objects: 3, child: true },
    ]);
  });

  it('counts the archives among the files, and the versions read and skipped', () => {
    const lines = summaryLines({
      dir: 'imported',
      counts,
      result,
      skippedObjects,
      envExample: 'imported/.env.example',
    });
    expect(lines).toEqual([
      'Exported 2 object(s) of 1 kind(s) to imported in 3 file(s) (1 manifest(s), 2 archive(s)).',
      '  RegistryModule: 2',
      '  RegistryModuleVersion: 3, 1 skipped, with their content beside the manifests',
    ]);
  });

  it('counts .env.example among the files, and says nothing more of manifests alone', () => {
    const smtp = buildExport(
      [
        {
          provider: providerFor('SMTPSettings') as ExportProvider,
          objects: [{ ...live({ kind: 'SMTPSettings', name: '' }), fields: { enabled: true, auth: 'login' } }],
        },
      ],
      { split: false, schemaRef: (kind) => kind },
    );
    const [headline, , placeholders] = summaryLines({
      dir: 'out',
      counts: [{ kind: 'SMTPSettings', objects: 1 }],
      result: smtp,
      skippedObjects: [],
      envExample: 'out/.env.example',
    });
    expect(headline).toBe('Exported 1 object(s) of 1 kind(s) to out in 2 file(s) (1 manifest(s), .env.example).');
    expect(placeholders).toContain('set the variables listed in out/.env.example');
    const bare = { ...smtp, placeholders: [], envExample: undefined };
    expect(summaryLines({ dir: 'out', counts: [], result: bare, skippedObjects: [], envExample: '' })).toEqual([
      'Exported 1 object(s) of 1 kind(s) to out in 1 file(s).',
    ]);
  });

  it('counts the values that were secret apart from the write-only fields among the placeholders', () => {
    const smtp = buildExport(
      [
        {
          provider: providerFor('SMTPSettings') as ExportProvider,
          objects: [
            { ...live({ kind: 'SMTPSettings', name: '' }), fields: { enabled: true, auth: 'login', host: 'h' } },
          ],
        },
      ],
      { split: false, schemaRef: (kind) => kind, wasSecret: (_key, field) => field === 'host' },
    );
    const lines = summaryLines({
      dir: 'out',
      counts: [{ kind: 'SMTPSettings', objects: 1 }],
      result: smtp,
      skippedObjects: [],
      envExample: 'out/.env.example',
    });
    expect(lines.at(-1)).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax, as the summary says it
      '1 write-only field(s) and 1 value(s) that were secret when converge applied them written as ${env:NAME} placeholders; set the variables listed in out/.env.example before plan or apply.',
    );
  });

  it('--json lists each archive with the object it holds, and counts the versions as a kind', () => {
    const doc = JSON.parse(exportDocument({ out: '/x', counts, result, skipped: [], skippedObjects, converge: '0' }));
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual(['registry-module.yaml']);
    // each archive by the version it holds, with the kind of that version
    const archives = doc.archives as Array<{ path: string; kind: string; object: string }>;
    expect(archives.map((a) => [a.object, a.path])).toEqual([
      ['RegistryModuleVersion/example-org/dns/aws/2.0.0', 'modules/example-org/dns-aws/2.0.0.tar.gz'],
      ['RegistryModuleVersion/example-org/network/aws/1.0.0', 'modules/example-org/network-aws/1.0.0.tar.gz'],
    ]);
    expect(new Set(archives.map((a) => a.kind))).toEqual(new Set(['RegistryModuleVersion']));
    expect(doc.kinds).toEqual([
      { kind: 'RegistryModule', objects: 2 },
      { kind: 'RegistryModuleVersion', objects: 3 },
    ]);
    expect(doc.skippedObjects).toEqual(skippedObjects);
  });
});
