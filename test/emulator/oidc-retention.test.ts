import { describe, expect, it } from 'vitest';
import { details, start } from './helpers.ts';

describe('OIDC signing key', () => {
  it('rotates (204), trims after a rotation (204), and has nothing to trim twice (422)', async () => {
    const { call } = await start();
    const trim = () => call('POST', '/api/v2/admin/oidc-settings/actions/trim-key');
    const nothing = await trim();
    expect(nothing.status).toBe(422);
    expect(details(nothing)[0]).toMatch(/no old key versions/);
    const rotated = await call('POST', '/api/v2/admin/oidc-settings/actions/rotate-key');
    expect(rotated.status).toBe(204);
    expect(rotated.body).toEqual({});
    expect((await call('POST', '/api/v2/admin/oidc-settings/actions/rotate-key')).status).toBe(204);
    expect((await trim()).status).toBe(204);
    expect((await trim()).status).toBe(422);
  });
});

describe('data retention policy', () => {
  const path = '/api/v2/admin/data-retention-policy-settings';
  const policy = (days: unknown, type = 'data-retention-policy-delete-olders') => ({
    data: { type, attributes: { 'delete-older-than-n-days': days } },
  });

  it('has none at first (200, data null), creates (201), updates (200) and deletes (204)', async () => {
    const { call } = await start();
    const none = await call('GET', path);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: null });
    const created = await call('POST', path, { body: policy(30) });
    expect(created.status).toBe(201);
    const data = created.body.data as { id: string; type: string; attributes: unknown };
    expect(data.id).toMatch(/^drp-/);
    expect(data.type).toBe('data-retention-policy-delete-olders');
    expect(data.attributes).toEqual({ 'delete-older-than-n-days': 30 });
    const updated = await call('POST', path, { body: policy(90) });
    expect(updated.status).toBe(200);
    expect((updated.body.data as { id: string }).id).toBe(data.id);
    expect((await call('GET', path)).body.data).toMatchObject({ attributes: { 'delete-older-than-n-days': 90 } });
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('GET', path)).body).toEqual({ data: null });
    expect((await call('DELETE', path)).status).toBe(204);
  });

  it('supports only delete-olders policies with at least one day', async () => {
    const { call } = await start();
    const otherType = await call('POST', path, { body: policy(30, 'data-retention-policy-dont-deletes') });
    expect(otherType.status).toBe(422);
    expect(details(otherType)[0]).toMatch(/only supported policy type is data-retention-policy-delete-olders/);
    for (const days of [0, 1.5, '30', null]) {
      const answer = await call('POST', path, { body: policy(days) });
      expect(answer.status).toBe(422);
      expect(answer.body.errors?.[0]?.source).toEqual({ pointer: '/data/attributes/delete-older-than-n-days' });
    }
    expect((await call('GET', path)).body).toEqual({ data: null });
  });
});
