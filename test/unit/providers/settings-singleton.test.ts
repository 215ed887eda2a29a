import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { costEstimationSettings } from '../../../src/providers/cost-estimation-settings/index.ts';
import { customizationSettings } from '../../../src/providers/customization-settings/index.ts';
import { generalSettings } from '../../../src/providers/general-settings/index.ts';
import { samlSettings } from '../../../src/providers/saml-settings/index.ts';
import { smsSettings } from '../../../src/providers/sms-settings/index.ts';
import { smtpSettings } from '../../../src/providers/smtp-settings/index.ts';
import { diffFields, fieldsToSend } from '../../../src/reconcile/diff.ts';
import { planObject } from '../../../src/reconcile/plan.ts';
import { capabilities, type Provider } from '../../../src/reconcile/provider.ts';
import type { DesiredObject, Fields } from '../../../src/reconcile/types.ts';
import { desired } from '../reconcile/builders.ts';
import { contextFor, FakeClient, settingsServer } from './fake-client.ts';

const cert = readFileSync(new URL('../../fixtures/idp-rotated.pem', import.meta.url), 'utf8');

interface Case {
  provider: Provider;
  type: string;
  id: string;
  /** The live document before the apply, in the API's own forms. */
  before: Fields;
  /** A manifest spec using the natural forms a person writes. */
  spec: Fields;
}

const cases: Case[] = [
  {
    provider: generalSettings,
    type: 'general-settings',
    id: 'general',
    before: {
      'api-rate-limit': 30,
      'plan-timeout': '2h',
      'apply-timeout': '24h',
      'engine-build-worker-plan-timeout': '2h',
    },
    spec: {
      'api-rate-limit': '60',
      'plan-timeout': '1h30m',
      'apply-timeout': 36000,
      'engine-build-worker-plan-timeout': '5400',
    },
  },
  {
    provider: costEstimationSettings,
    type: 'cost-estimation-settings',
    id: 'cost-estimation',
    before: { enabled: false },
    spec: { enabled: true, 'cloud-a-access-key-id': 'AKIAEXAMPLE', 'cloud-a-secret-key': 'secret-a' },
  },
  {
    provider: samlSettings,
    type: 'saml-settings',
    id: 'saml',
    before: { enabled: false, 'old-idp-cert': null, 'acs-consumer-url': 'https://tfe.example.com/users/saml/auth' },
    spec: {
      enabled: true,
      'idp-cert': `${cert.replaceAll('\n', '\r\n')}\n`,
      'sso-endpoint-url': 'https://idp.example.com/sso',
      'sso-api-token-session-timeout': '168h',
    },
  },
  {
    provider: smtpSettings,
    type: 'smtp-settings',
    id: 'smtp',
    before: { enabled: false, auth: 'none', host: null, port: null },
    spec: { enabled: true, host: 'smtp.example.com', port: 587, auth: 'login', username: 'u', password: 'pw' },
  },
  {
    provider: smsSettings,
    type: 'sms-settings',
    id: 'sms',
    before: { enabled: false },
    spec: { enabled: true, 'account-sid': 'AC1', 'auth-token': 'tok', 'from-number': '+15550100' },
  },
  {
    provider: customizationSettings,
    type: 'customization-settings',
    id: 'customization',
    before: { 'support-email-address': 'support@example.com', footer: '' },
    spec: { footer: '<p>IT</p>', 'support-email-address': 'help@example.com' },
  },
];

function plan(provider: Provider, spec: Fields, liveFields: Fields, sendSecrets: Map<string, string>) {
  return diffFields(provider.canonicalDesired(spec), provider.canonicalLive(liveFields), {
    writeOnly: new Set(provider.writeOnly(spec)),
    immutable: new Set(),
    secret: new Set(),
    sendSecrets,
  });
}

describe.each(cases)('$provider.kind', ({ provider, type, id, before, spec }) => {
  it('is a singleton that is only updated', () => {
    expect(provider).toMatchObject({ cardinality: 'one', api: 'platform' });
    // it has no create nor delete: the planner refuses both (test/unit/reconcile/capabilities.test.ts)
    expect(capabilities(provider)).toEqual({ create: false, update: true, delete: 'never', export: true });
    expect(provider.address({})).toEqual({ kind: provider.kind, name: '' });
  });

  it('lists exactly one object, with an empty name and the settings id as ref, in one request', async () => {
    const client = new FakeClient();
    settingsServer(client, type, id, before);
    const listed = await provider.list(contextFor(client), {});
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ kind: provider.kind, address: { kind: provider.kind, name: '' }, ref: id });
    expect(client.lines).toEqual([`GET /api/v2/admin/${type}`]);
  });

  it('converges: after an apply, a plan shows no change', async () => {
    const client = new FakeClient();
    settingsServer(client, type, id, before, provider.writeOnly(spec));
    const ctx = contextFor(client);
    const d = desired(provider.kind, '', spec);
    const secrets = new Map(provider.writeOnly(spec).map((f): [string, string] => [f, 'sent']));

    const [current] = await provider.list(ctx, {});
    const changes = plan(provider, spec, current!.fields!, secrets);
    expect(changes.length).toBeGreaterThan(0);
    await provider.update!(ctx, d, current!, fieldsToSend(provider.canonicalDesired(spec), changes));

    const [after] = await provider.list(ctx, {});
    expect(plan(provider, spec, after!.fields!, new Map())).toEqual([]);
  });

  it('sends only the fields it is given, as a JSON:API document without an id', async () => {
    const client = new FakeClient();
    settingsServer(client, type, id, before);
    const [current] = await provider.list(contextFor(client), {});
    const field = Object.keys(provider.canonicalDesired(spec)).find((k) => !provider.writeOnly(spec).includes(k))!;
    const value = provider.canonicalDesired(spec)[field]!;
    await provider.update!(contextFor(client), desired(provider.kind, '', spec), current!, { [field]: value });
    const body = client.requests[1]?.body as { data: { type: string; attributes: Fields } };
    expect(body.data.type).toBe(type);
    expect(Object.keys(body.data.attributes)).toEqual([field]);
    expect(body.data).not.toHaveProperty('id');
  });

  it('has no create nor delete: a manifest that deletes it is a plan problem, found before any request', () => {
    expect(provider.create).toBeUndefined();
    expect(provider.delete).toBeUndefined();
    const absent: DesiredObject = { ...desired(provider.kind, '', spec), ensure: 'absent' };
    const secrets = { lookup: undefined, resend: false };
    expect(planObject(provider, absent, provider.kind, undefined, { prune: false, ownership: [], secrets })).toEqual({
      problem: {
        key: provider.kind,
        source: absent.source,
        message: `${provider.kind} cannot be deleted (update only)`,
      },
    });
  });
});

describe('settings updates', () => {
  it('send nothing when there is nothing to change', async () => {
    const client = new FakeClient();
    await generalSettings.update!(
      contextFor(client),
      desired('GeneralSettings', '', {}),
      { kind: 'GeneralSettings', address: { kind: 'GeneralSettings', name: '' }, ref: 'general' },
      {},
    );
    expect(client.requests).toEqual([]);
  });

  it('fail with a configuration error when no platform connection exists', async () => {
    const ctx = contextFor(undefined);
    await expect(generalSettings.list(ctx, {})).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
