import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { KindCatalog } from '../../../src/manifest/catalog.ts';
import { loadManifests } from '../../../src/manifest/load.ts';

const dir = fileURLToPath(new URL('../../fixtures/manifests/schema-dir/', import.meta.url));
const widgets: KindCatalog = {
  kinds: ['Widget'],
  address: (kind, metadata) => ({ kind, scope: metadata.mount ?? '', name: metadata.name ?? '' }),
};

describe('schema defaults', () => {
  it('fills metadata defaults before identity, and never spec defaults', async () => {
    const objects = await loadManifests(['manifests'], widgets, { cwd: dir, schemaDir: 'schemas', env: {} });
    expect(objects.map((o) => `${o.address.scope}/${o.address.name}`)).toEqual(['ssh/a', 'other/a']);
    expect(objects[0]?.metadata).toEqual({ name: 'a', mount: 'ssh' });
    expect(objects[0]?.spec).toEqual({ note: 'defaults stay out of spec' });
    expect(objects[1]?.spec).toEqual({});
  });

  it('treats a kind without a schema file as a bug in converge, not as bad input', async () => {
    const gadgets: KindCatalog = { ...widgets, kinds: ['Widget', 'Gadget'] };
    const load = loadManifests(['manifests'], gadgets, { cwd: dir, schemaDir: 'manifests', env: {} });
    const error = (await load.catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^no schema for kind Widget: .*manifests\/Widget\.schema\.json$/);
  });
});
