import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generalSettings as provider } from '../../../src/providers/general-settings/index.ts';
import { buildPlan } from '../../../src/reconcile/plan.ts';
import { desired, live } from '../reconcile/builders.ts';
import { contextFor, FakeClient, settingsServer } from './fake-client.ts';

const defaults = {
  'limit-user-organization-creation': true,
  'api-rate-limiting-enabled': true,
  'api-rate-limit': 30,
  'plan-timeout': 7200,
  'apply-timeout': 86400,
  'send-passing-statuses-for-untriggered-speculative-plans': false,
  'allow-speculative-plans-on-pull-requests-from-forks': false,
  'default-remote-state-access': true,
};

describe('GeneralSettings canonical forms', () => {
  it('applies every documented default, and no default to the deprecated timeouts', () => {
    expect(provider.canonicalDesired({})).toEqual(defaults);
  });

  it('compares the timeouts in seconds, whatever unit they are written in', () => {
    const durations = fc.constantFrom('3h', '180m', '10800s', '10800', 10800, '2h60m', '1.5h90m');
    fc.assert(
      fc.property(durations, durations, (a, b) => {
        const left = provider.canonicalDesired({ 'plan-timeout': a, 'apply-timeout': a });
        const right = provider.canonicalLive({ 'plan-timeout': b, 'apply-timeout': b });
        return left['plan-timeout'] === 10800 && right['plan-timeout'] === 10800 && right['apply-timeout'] === 10800;
      }),
    );
  });

  it('manages the deprecated engine-build-worker timeouts only when given', () => {
    const spec = { 'engine-build-worker-plan-timeout': '90m' };
    expect(provider.canonicalDesired(spec)['engine-build-worker-plan-timeout']).toBe(5400);
    expect(provider.canonicalDesired(spec)).not.toHaveProperty('engine-build-worker-apply-timeout');
  });

  it('reads live booleans and integers sent as strings, and drops attributes it does not manage', () => {
    const live = provider.canonicalLive({ 'api-rate-limit': '60', 'api-rate-limiting-enabled': 'false', unknown: 1 });
    expect(live).toEqual({ 'api-rate-limit': 60, 'api-rate-limiting-enabled': false });
  });
});

describe('GeneralSettings updates', () => {
  it('sends the timeout as the user wrote it, since the API keeps strings', async () => {
    const client = new FakeClient();
    const server = settingsServer(client, 'general-settings', 'general', { 'plan-timeout': '2h' });
    const d = desired('GeneralSettings', '', { 'plan-timeout': '180m', 'apply-timeout': 90000 });
    const fields = provider.canonicalDesired(d.spec);
    const [live] = await provider.list(contextFor(client), {});
    await provider.update!(contextFor(client), d, live!, {
      'plan-timeout': fields['plan-timeout']!,
      'apply-timeout': fields['apply-timeout']!,
    });
    expect(client.requests[1]?.body).toEqual({
      data: { type: 'general-settings', attributes: { 'plan-timeout': '180m', 'apply-timeout': '25h' } },
    });
    expect(server.attributes['plan-timeout']).toBe('180m');
  });

  it('sends a defaulted timeout in its documented form', async () => {
    const client = new FakeClient();
    settingsServer(client, 'general-settings', 'general', { 'plan-timeout': '3h' });
    const [live] = await provider.list(contextFor(client), {});
    await provider.update!(contextFor(client), desired('GeneralSettings', '', {}), live!, { 'plan-timeout': 7200 });
    expect(client.requests[1]?.body).toMatchObject({ data: { attributes: { 'plan-timeout': '2h' } } });
  });

  it('shows durations in a plan as people write them, while comparing seconds', () => {
    const { plan } = buildPlan(
      [
        {
          provider,
          desired: [desired('GeneralSettings', '', { 'plan-timeout': '180m' })],
          live: new Map([
            ['GeneralSettings', live('GeneralSettings', '', { ...defaults, 'plan-timeout': '5h' }, 'general')],
          ]),
        },
      ],
      { prune: false, ownership: [], secrets: { lookup: undefined, resend: false } },
    );
    expect(plan.actions[0]?.changes).toEqual([{ path: 'plan-timeout', before: '5h', after: '3h' }]);
  });
});
