import { describe, expect, it } from 'vitest';
import { formatDriftJson } from '../../../../src/ui/drift/json.ts';
import { action, CANARY, mixedPlan, plan, report } from './builders.ts';

describe('drift as JSON', () => {
  const doc = JSON.parse(formatDriftJson(report(mixedPlan())));

  it('is a versioned document with the time, the version and the servers', () => {
    expect(doc).toMatchObject({
      format: 'converge-drift',
      version: 2,
      generatedAt: '2026-03-01T12:00:00.000Z',
      converge: '0.1.0',
      servers: { platform: 'https://tfe.example.com' },
      inSync: false,
      counts: { objects: 7, inSync: 2, drifted: 3, missing: 1, toDelete: 1, unmanaged: 2 },
    });
  });

  it('lists the objects that differ, with their field changes', () => {
    expect(doc.objects.map((o: { key: string }) => o.key)).toEqual([
      'GeneralSettings',
      'SMTPSettings',
      'ToolVersion/1.10.0',
      'ToolVersion/1.2.0',
      'ToolVersion/1.3.0',
    ]);
    expect(doc.objects[0]).toEqual({
      key: 'GeneralSettings',
      kind: 'GeneralSettings',
      address: { kind: 'GeneralSettings', name: '' },
      action: 'update',
      state: 'drifted',
      changes: [
        { path: 'api-rate-limit', secret: false, before: 250, after: 60 },
        { path: 'plan-timeout', secret: false, before: 18000, after: 10800 },
      ],
    });
    expect(doc.objects[3]).toMatchObject({
      action: 'delete',
      state: 'to-delete',
      reason: 'ensure: absent',
      changes: [],
    });
    expect(doc.unmanaged).toEqual([
      {
        key: 'ToolVersion/0.9.0',
        kind: 'ToolVersion',
        address: { kind: 'ToolVersion', name: '0.9.0' },
        prunable: true,
      },
      {
        key: 'PolicyVersion/0.1.0',
        kind: 'PolicyVersion',
        address: { kind: 'PolicyVersion', name: '0.1.0' },
        prunable: false,
      },
    ]);
    expect(doc.notes).toEqual([{ key: 'SMSSettings', note: expect.stringContaining('auth-token is write-only') }]);
  });

  it('marks a secret change without any value', () => {
    const secret = doc.objects[1].changes.find((c: { path: string }) => c.path === 'password');
    expect(secret).toEqual({ path: 'password', secret: true, note: 'changed since last apply' });
    expect(formatDriftJson(report(mixedPlan()))).not.toContain(CANARY);
  });

  it('has no objects and inSync true when nothing differs', () => {
    const d = JSON.parse(formatDriftJson(report(plan([action('ToolVersion', '1.9.8', 'noop')]))));
    expect(d.inSync).toBe(true);
    expect(d.objects).toEqual([]);
    expect(d.counts.inSync).toBe(1);
  });
});
