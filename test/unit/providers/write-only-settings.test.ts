import { describe, expect, it } from 'vitest';
import { costEstimationSettings } from '../../../src/providers/cost-estimation-settings/index.ts';
import { smsSettings } from '../../../src/providers/sms-settings/index.ts';
import { smtpSettings } from '../../../src/providers/smtp-settings/index.ts';
import { desired, live } from '../reconcile/builders.ts';
import { contextFor, FakeClient, settingsServer } from './fake-client.ts';

const credentials = {
  'cloud-a-access-key-id': 'AKIAEXAMPLE',
  'cloud-a-secret-key': 'secret-a',
  'cloud-b-credentials': '{"type":"service_account"}',
  'cloud-c-client-id': 'client',
  'cloud-c-client-secret': 'secret-c',
  'cloud-c-subscription-id': 'sub',
  'cloud-c-tenant-id': 'tenant',
};

describe('write-only settings fields', () => {
  it('are declared write-only for every kind that has them', () => {
    expect([...costEstimationSettings.writeOnly({})].sort()).toEqual(Object.keys(credentials).sort());
    expect(smtpSettings.writeOnly({})).toEqual(['password', 'test-email-address']);
    expect(smsSettings.writeOnly({})).toEqual(['auth-token']);
  });

  it('stay on the desired side, so the engine can decide to send them', () => {
    expect(costEstimationSettings.canonicalDesired({ enabled: true, ...credentials })).toEqual({
      enabled: true,
      ...credentials,
    });
    expect(smtpSettings.canonicalDesired({ password: 'pw', 'test-email-address': 'ops@example.com' })).toEqual({
      enabled: false,
      auth: 'none',
      password: 'pw',
      'test-email-address': 'ops@example.com',
    });
    expect(smsSettings.canonicalDesired({ 'auth-token': 'tok' })).toEqual({ enabled: false, 'auth-token': 'tok' });
  });

  it('never reach the live side, even from a server that echoes them', () => {
    expect(costEstimationSettings.canonicalLive({ enabled: true, ...credentials })).toEqual({ enabled: true });
    expect(smtpSettings.canonicalLive({ host: 'smtp.example.com', password: 'pw' })).toEqual({
      host: 'smtp.example.com',
    });
    expect(smsSettings.canonicalLive({ 'account-sid': 'AC1', 'auth-token': 'tok' })).toEqual({ 'account-sid': 'AC1' });
  });

  it('are dropped from listed objects and exports', async () => {
    const client = new FakeClient();
    settingsServer(client, 'cost-estimation-settings', 'cost-estimation', { enabled: true, ...credentials });
    const [listed] = await costEstimationSettings.list(contextFor(client), {});
    expect(JSON.stringify(listed)).not.toMatch(/secret-|AKIA|tenant/);
    expect(
      costEstimationSettings.toManifest!(live('CostEstimationSettings', '', { ...credentials }, 'cost-estimation')),
    ).toEqual({
      kind: 'CostEstimationSettings',
      metadata: {},
      spec: {},
    });
  });

  it('are sent when the engine passes them, next to the changed readable fields', async () => {
    const client = new FakeClient();
    settingsServer(client, 'smtp-settings', 'smtp', { enabled: false, auth: 'none' }, ['password']);
    const d = desired('SMTPSettings', '', { enabled: true, auth: 'login', username: 'u', password: 'pw' });
    const [current] = await smtpSettings.list(contextFor(client), {});
    await smtpSettings.update!(contextFor(client), d, current!, { enabled: true, auth: 'login', password: 'pw' });
    expect(client.requests[1]).toMatchObject({
      method: 'PATCH',
      path: '/api/v2/admin/smtp-settings',
      body: { data: { type: 'smtp-settings', attributes: { enabled: true, auth: 'login', password: 'pw' } } },
    });
  });
});
