/**
 * Export then plan is a no-op, for every kind: the manifest toManifest writes
 * reads back (canonicalDesired) exactly as the live object reads
 * (canonicalLive), whatever forms the API returned its values in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { providerFor } from '../../../src/providers/index.ts';
import { formatDuration } from '../../../src/providers/shared/normalize.ts';
import { diffFields } from '../../../src/reconcile/diff.ts';
import type { Fields, Json } from '../../../src/reconcile/types.ts';

type Arb = fc.Arbitrary<Json>;

const text = fc.string({ maxLength: 20 });
const seconds = fc.nat(3_000_000);
const durationString: Arb = seconds.chain((s) =>
  fc.constantFrom(formatDuration(s), `${s}s`, `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m${s % 60}s`),
);
const body = fc.array(fc.stringMatching(/^[A-Za-z0-9+/]{1,64}$/), { minLength: 1, maxLength: 4 });
const pem: Arb = fc
  .tuple(body, fc.constantFrom('\n', '\r\n'), fc.constantFrom('', '\n', '  \n'))
  .map(([lines, eol, tail]) => ['-----BEGIN CERTIFICATE-----', ...lines, '-----END CERTIFICATE-----'].join(eol) + tail);
const sha: Arb = fc.stringMatching(/^[0-9a-fA-F]{64}$/);
const readOnly = { 'created-at': fc.constant('2026-01-01T00:00:00Z'), usage: fc.nat() };

/** Live attributes of each kind, in forms the API may return, with read-only and echoed write-only extras. */
const liveAttributes: Record<string, fc.Arbitrary<Fields>> = {
  GeneralSettings: fc.record({
    'limit-user-organization-creation': fc.boolean(),
    'api-rate-limiting-enabled': fc.boolean(),
    'api-rate-limit': fc.integer({ min: 30, max: 10_000 }),
    'plan-timeout': durationString,
    'apply-timeout': durationString,
    'send-passing-statuses-for-untriggered-speculative-plans': fc.boolean(),
    'allow-speculative-plans-on-pull-requests-from-forks': fc.boolean(),
    'default-remote-state-access': fc.boolean(),
    'engine-build-worker-plan-timeout': fc.oneof(durationString, fc.constant('2h')),
    'engine-build-worker-apply-timeout': fc.oneof(durationString, fc.constant('24h')),
  }),
  CostEstimationSettings: fc.record({ enabled: fc.boolean(), 'cloud-a-secret-key': text, 'cloud-c-tenant-id': text }),
  SAMLSettings: fc.record({
    enabled: fc.boolean(),
    debug: fc.boolean(),
    'idp-cert': pem,
    'old-idp-cert': fc.oneof(fc.constant(null), pem),
    'slo-endpoint-url': fc.webUrl(),
    'sso-endpoint-url': fc.webUrl(),
    'attr-username': text,
    'attr-groups': text,
    'attr-site-admin': text,
    'site-admin-role': text,
    'sso-api-token-session-timeout': seconds,
    'acs-consumer-url': fc.webUrl(),
    'metadata-url': fc.webUrl(),
  }),
  SMTPSettings: fc.record({
    enabled: fc.boolean(),
    host: text,
    port: fc.integer({ min: 1, max: 65535 }),
    sender: text,
    auth: fc.constantFrom('none', 'plain', 'login'),
    username: text,
  }),
  SMSSettings: fc.record({ enabled: fc.boolean(), 'account-sid': text, 'from-number': text }),
  CustomizationSettings: fc.record({
    'support-email-address': fc.emailAddress(),
    'login-help': text,
    footer: text,
    error: text,
    'new-user': text,
  }),
  ToolVersion: versionAttributes(),
  PolicyVersion: versionAttributes(),
  AdminUser: fc.record({
    username: text,
    email: fc.emailAddress(),
    'is-admin': fc.boolean(),
    'is-suspended': fc.boolean(),
    'is-service-account': fc.boolean(),
  }),
};

function versionAttributes(): fc.Arbitrary<Fields> {
  return fc.record({
    version: fc.constant('1.9.8'),
    url: fc.webUrl(),
    sha,
    deprecated: fc.boolean(),
    'deprecated-reason': fc.oneof(fc.constant(null), fc.constant(''), text),
    official: fc.boolean(),
    enabled: fc.boolean(),
    beta: fc.boolean(),
    ...readOnly,
  });
}

/** Deprecated aliases are exported only when they differ from the field that replaced them. */
const aliases: Record<string, string> = {
  'engine-build-worker-plan-timeout': 'plan-timeout',
  'engine-build-worker-apply-timeout': 'apply-timeout',
};

describe.each(Object.entries(liveAttributes))('%s', (kind, attributes) => {
  const provider = providerFor(kind)!;
  const exported = (fields: Fields) =>
    provider.toManifest!({
      kind,
      address: { kind, name: provider.cardinality === 'one' ? '' : 'x' },
      ref: 'ref',
      fields,
    });

  it('exports a manifest that reads back equal to the live object', () => {
    fc.assert(
      fc.property(attributes, (fields) => {
        const live = provider.canonicalLive(fields);
        const expected = Object.fromEntries(
          Object.entries(live).filter(([key, value]) => !(key in aliases && value === live[aliases[key]!])),
        );
        expect(provider.canonicalDesired(exported(fields).spec)).toEqual(expected);
      }),
    );
  });

  it('plans no change after an export', () => {
    fc.assert(
      fc.property(attributes, (fields) => {
        const changes = diffFields(provider.canonicalDesired(exported(fields).spec), provider.canonicalLive(fields), {
          writeOnly: new Set(provider.writeOnly(fields)),
          immutable: new Set(provider.immutable),
          secret: new Set(),
          sendSecrets: new Map(),
        });
        expect(changes).toEqual([]);
      }),
    );
  });

  it('never exports a write-only field', () => {
    fc.assert(
      fc.property(attributes, (fields) => {
        const spec = exported(fields).spec;
        for (const field of provider.writeOnly(fields)) expect(spec).not.toHaveProperty(field);
      }),
    );
  });
});

describe('exported values', () => {
  it('write string durations in a unit form a person reads', () => {
    const spec = providerFor('GeneralSettings')!.toManifest!({
      kind: 'GeneralSettings',
      address: { kind: 'GeneralSettings', name: '' },
      ref: 'general',
      fields: { 'plan-timeout': '7200s', 'apply-timeout': '24h', 'engine-build-worker-plan-timeout': '90m' },
    }).spec;
    expect(spec).toEqual({ 'plan-timeout': '2h', 'apply-timeout': '24h', 'engine-build-worker-plan-timeout': '90m' });
  });
});
