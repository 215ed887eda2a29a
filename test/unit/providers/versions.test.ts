import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.ts';
import { policyVersion } from '../../../src/providers/policy-version/index.ts';
import { toolVersion } from '../../../src/providers/tool-version/index.ts';
import { capabilities } from '../../../src/reconcile/provider.ts';
import type { Fields } from '../../../src/reconcile/types.ts';
import { desired, live } from '../reconcile/builders.ts';
import { contextFor, FakeClient, pagedCollection, resource } from './fake-client.ts';

const sha = 'A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90';
const url = 'https://releases.example.com/tool_1.9.8_linux_amd64.zip';

describe.each([
  { provider: toolVersion, type: 'tool-versions' },
  { provider: policyVersion, type: 'policy-versions' },
])('$provider.kind', ({ provider, type }) => {
  const path = `/api/v2/admin/${type}`;
  const attributes = (version: string, extra: Fields = {}): Fields => ({
    version,
    url,
    sha: sha.toLowerCase(),
    deprecated: false,
    'deprecated-reason': null,
    official: false,
    enabled: true,
    beta: false,
    usage: 3,
    'created-at': '2026-01-01T00:00:00.000Z',
    ...extra,
  });

  it('is a prunable, creatable kind identified by its version', () => {
    expect(provider).toMatchObject({ cardinality: 'many', scoped: false });
    expect(capabilities(provider)).toEqual({ create: true, update: true, delete: 'prunable', export: true });
    expect(provider.address({ name: '1.9.8' })).toEqual({ kind: provider.kind, name: '1.9.8' });
  });

  describe('canonical forms', () => {
    it('applies the documented defaults and compares the checksum lower-case', () => {
      expect(provider.canonicalDesired({ url, sha })).toEqual({
        url,
        sha: sha.toLowerCase(),
        deprecated: false,
        'deprecated-reason': null,
        official: false,
        enabled: true,
        beta: false,
      });
      expect(provider.canonicalLive({ sha }).sha).toBe(sha.toLowerCase());
    });

    it('drops the read-only usage and created-at, and the version (it is the identity)', () => {
      expect(Object.keys(provider.canonicalLive(attributes('1.9.8'))).sort()).toEqual(
        ['beta', 'deprecated', 'deprecated-reason', 'enabled', 'official', 'sha', 'url'].sort(),
      );
    });

    it('holds a deprecation reason only while the version is deprecated', () => {
      const reason = 'use 1.9.9';
      expect(provider.canonicalDesired({ url, sha, deprecated: true, 'deprecated-reason': reason })).toMatchObject({
        'deprecated-reason': reason,
      });
      expect(provider.canonicalDesired({ url, sha, 'deprecated-reason': reason })).toMatchObject({
        'deprecated-reason': null,
      });
      expect(provider.canonicalLive({ deprecated: false, 'deprecated-reason': 'stale' })).toEqual({
        deprecated: false,
        'deprecated-reason': null,
      });
      expect(provider.canonicalLive({ deprecated: true, 'deprecated-reason': '' })['deprecated-reason']).toBeNull();
    });
  });

  describe('requests', () => {
    it('lists 250 versions in 3 requests, keyed by version with the resource id as ref', async () => {
      const all = Array.from({ length: 250 }, (_, i) => resource(type, `tool-${i}`, attributes(`1.0.${i}`)));
      const client = new FakeClient().on(
        'GET',
        path,
        pagedCollection(() => all),
      );
      const listed = await provider.list(contextFor(client), {});
      expect(listed).toHaveLength(250);
      expect(listed[249]).toMatchObject({
        kind: provider.kind,
        address: { kind: provider.kind, name: '1.0.249' },
        ref: 'tool-249',
      });
      expect(client.lines).toEqual([1, 2, 3].map((n) => `GET ${path}?page[number]=${n}&page[size]=100`));
    });

    it('creates with POST, the version from metadata.name, and returns the created object', async () => {
      const client = new FakeClient().on('POST', path, (request) => {
        const sent = (request.body as { data: { attributes: Fields } }).data.attributes;
        return { status: 201, body: { data: resource(type, 'tool-new', { ...attributes('1.9.8'), ...sent }) } };
      });
      const d = desired(provider.kind, '1.9.8', { url, sha });
      const created = await provider.create!(contextFor(client), d, provider.canonicalDesired(d.spec));
      expect(client.requests[0]).toMatchObject({
        method: 'POST',
        path,
        body: {
          data: {
            type,
            attributes: {
              version: '1.9.8',
              url,
              sha: sha.toLowerCase(),
              deprecated: false,
              'deprecated-reason': null,
              official: false,
              enabled: true,
              beta: false,
            },
          },
        },
      });
      expect(created).toMatchObject({
        kind: provider.kind,
        address: { kind: provider.kind, name: '1.9.8' },
        ref: 'tool-new',
      });
    });

    it('lets a failed create fail, so the engine can read back before deciding', async () => {
      const client = new FakeClient().on('POST', path, () => ({ status: 422 }));
      const d = desired(provider.kind, '1.9.8', { url, sha });
      await expect(provider.create!(contextFor(client), d, provider.canonicalDesired(d.spec))).rejects.toBeInstanceOf(
        ApiError,
      );
    });

    it('updates only the given fields with PATCH /:id', async () => {
      const client = new FakeClient().on('PATCH', `${path}/:id`, () => ({
        body: { data: resource(type, 'tool-1', {}) },
      }));
      const current = live(provider.kind, '1.9.8', attributes('1.9.8'), 'tool-1');
      const d = desired(provider.kind, '1.9.8', { url, sha, deprecated: true, 'deprecated-reason': 'eol' });
      await provider.update!(contextFor(client), d, current, { deprecated: true, 'deprecated-reason': 'eol' });
      expect(client.requests).toEqual([
        expect.objectContaining({
          method: 'PATCH',
          path: `${path}/tool-1`,
          body: { data: { type, id: 'tool-1', attributes: { deprecated: true, 'deprecated-reason': 'eol' } } },
        }),
      ]);
    });

    it('deletes with DELETE /:id', async () => {
      const client = new FakeClient().on('DELETE', `${path}/:id`, () => ({ status: 204 }));
      await provider.delete!(contextFor(client), live(provider.kind, '1.9.8', {}, 'tool-1'));
      expect(client.lines).toEqual([`DELETE ${path}/tool-1`]);
    });

    it('exports a manifest named by the version, without read-only fields', () => {
      const doc = provider.toManifest!(live(provider.kind, '1.9.8', attributes('1.9.8', { sha }), 'tool-1'));
      expect(doc).toEqual({
        kind: provider.kind,
        metadata: { name: '1.9.8' },
        spec: provider.canonicalLive(attributes('1.9.8')),
      });
    });
  });
});
