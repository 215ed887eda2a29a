/**
 * The six site settings as tables (the site-admin API, "Resources and
 * their fields"): defaults, write-only and read-only attributes, checks,
 * and the rules that span attributes ("when enabled, all must be valid").
 */
import { type Attributes, httpFailure, type Json, type Problem } from '../jsonapi.ts';
import {
  atLeast,
  between,
  type Check,
  duration,
  emailAddress,
  httpsUrl,
  jsonObject,
  oneOf,
  pemCertificate,
  present,
} from '../validate.ts';
import type { AttributeRule, SettingConfig } from './settings.ts';

const flag = (value: boolean): AttributeRule => ({ kind: 'boolean', default: value });
const integer = (value: number | undefined, ...checks: Check[]): AttributeRule => ({
  kind: 'integer',
  ...(value !== undefined && { default: value }),
  checks,
});
const text = (value: string | undefined, ...checks: Check[]): AttributeRule => ({
  kind: 'string',
  ...(value !== undefined && { default: value }),
  checks,
});
const secret = (...checks: Check[]): AttributeRule => ({ kind: 'string', writeOnly: true, checks });

/** "when enabled is true, these must be set": one problem per missing attribute. */
function requiredWhenEnabled(next: Attributes, required: readonly string[], what: string): Problem[] {
  if (next.enabled !== true) return [];
  return required
    .filter((attribute) => !present(next[attribute]))
    .map((attribute) => ({ attribute, message: `can't be blank when ${what} is enabled` }));
}

/** Deprecated attribute -> the attribute it mirrors. */
const TIMEOUT_ALIASES: Record<string, string> = {
  'engine-build-worker-plan-timeout': 'plan-timeout',
  'engine-build-worker-apply-timeout': 'apply-timeout',
};

export const general: SettingConfig = {
  name: 'general',
  attributes: {
    'limit-user-organization-creation': flag(true),
    'api-rate-limiting-enabled': flag(true),
    'api-rate-limit': integer(30, atLeast(30)),
    'plan-timeout': text('2h', duration),
    'apply-timeout': text('24h', duration),
    'send-passing-statuses-for-untriggered-speculative-plans': flag(false),
    'allow-speculative-plans-on-pull-requests-from-forks': flag(false),
    'default-remote-state-access': flag(true),
    'engine-build-worker-plan-timeout': text('2h', duration),
    'engine-build-worker-apply-timeout': text('24h', duration),
  },
  // a deprecated alias and its successor are one setting: writing either sets both;
  // when a request writes both, the current name wins
  derive(current, changes) {
    const next = { ...current, ...changes };
    for (const [alias, name] of Object.entries(TIMEOUT_ALIASES)) {
      const value = changes[name] ?? changes[alias];
      if (value !== undefined) {
        next[name] = value;
        next[alias] = value;
      }
    }
    return next;
  },
};

/** Credential sets, any complete one of which lets cost estimation be enabled. */
const COST_CREDENTIALS = [
  ['cloud-a-access-key-id', 'cloud-a-secret-key'],
  ['cloud-b-credentials'],
  ['cloud-c-client-id', 'cloud-c-client-secret', 'cloud-c-subscription-id', 'cloud-c-tenant-id'],
];

export const costEstimation: SettingConfig = {
  name: 'cost-estimation',
  attributes: {
    enabled: flag(false),
    'cloud-a-access-key-id': text(undefined),
    // the secrets are stored and never echoed: converge treats them as write-only
    'cloud-a-secret-key': secret(),
    'cloud-b-credentials': secret(jsonObject),
    'cloud-c-client-id': text(undefined),
    'cloud-c-client-secret': secret(),
    'cloud-c-subscription-id': text(undefined),
    'cloud-c-tenant-id': text(undefined),
  },
  validate(next) {
    if (next.enabled !== true) return [];
    const complete = COST_CREDENTIALS.some((set) => set.every((attribute) => present(next[attribute])));
    if (complete) return [];
    return [
      {
        attribute: 'enabled',
        message:
          'requires one complete set of credentials (both cloud-a keys, cloud-b credentials, or all four cloud-c values)',
      },
    ];
  },
};

/** PEM blocks that differ only in line breaks and spaces are the same certificate. */
const samePem = (a: Json | undefined, b: Json | undefined) =>
  typeof a === 'string' && typeof b === 'string' && a.replace(/\s+/g, '') === b.replace(/\s+/g, '');

export const saml: SettingConfig = {
  name: 'saml',
  attributes: {
    enabled: flag(false),
    debug: flag(false),
    'idp-cert': text(undefined, pemCertificate),
    'old-idp-cert': { kind: 'string', readOnly: true },
    'slo-endpoint-url': text(undefined, httpsUrl),
    'sso-endpoint-url': text(undefined, httpsUrl),
    'attr-username': text('Username'),
    'attr-groups': text('MemberOf'),
    'attr-site-admin': text('SiteAdmin'),
    'site-admin-role': text('site-admins'),
    'sso-api-token-session-timeout': integer(1209600, atLeast(1)),
    'acs-consumer-url': { kind: 'string', readOnly: true, computed: true },
    'metadata-url': { kind: 'string', readOnly: true, computed: true },
  },
  validate: (next) =>
    requiredWhenEnabled(
      next,
      [
        'idp-cert',
        'slo-endpoint-url',
        'sso-endpoint-url',
        'attr-username',
        'attr-groups',
        'attr-site-admin',
        'site-admin-role',
      ],
      'SAML',
    ),
  // rotation: a new certificate keeps the one it replaces in old-idp-cert until it is revoked
  derive(current, changes) {
    const next = { ...current, ...changes };
    const incoming = changes['idp-cert'];
    const previous = current['idp-cert'];
    if (incoming !== undefined && present(previous) && !samePem(incoming, previous))
      next['old-idp-cert'] = previous ?? null;
    return next;
  },
  computed: (ctx) => ({
    'acs-consumer-url': `${ctx.url()}/users/saml/auth`,
    'metadata-url': `${ctx.url()}/users/saml/metadata`,
  }),
};

/**
 * Hosts that make the emulated test message fail, so that each documented
 * SMTP failure can be tried: the platform would learn these from the server.
 */
const SMTP_FAILING_HOSTS: Record<string, { status: number; title: string; detail: string }> = {
  'unauthorized.invalid': { status: 401, title: 'unauthorized', detail: 'SMTP credentials are invalid' },
  'fail.invalid': { status: 500, title: 'internal server error', detail: 'the SMTP server answered with an error' },
  'timeout.invalid': { status: 504, title: 'gateway timeout', detail: 'the SMTP server timed out' },
};

export const smtp: SettingConfig = {
  name: 'smtp',
  attributes: {
    enabled: flag(false),
    host: text(undefined),
    port: integer(undefined, between(1, 65535)),
    sender: text(undefined, emailAddress),
    auth: text('none', oneOf('none', 'plain', 'login')),
    username: text(undefined),
    password: secret(),
    'test-email-address': { kind: 'string', transient: true, checks: [emailAddress] },
  },
  validate(next, changes) {
    const problems = requiredWhenEnabled(next, ['host', 'port', 'sender'], 'SMTP');
    if (next.enabled === true && (next.auth === 'plain' || next.auth === 'login')) {
      for (const attribute of ['username', 'password']) {
        if (!present(next[attribute]))
          problems.push({ attribute, message: `can't be blank when auth is ${next.auth}` });
      }
    }
    if (present(changes['test-email-address']) && !present(next.host)) {
      problems.push({ attribute: 'host', message: "can't be blank to send a test message" });
    }
    return problems;
  },
  // the test message "is sent" unless the host is one of the failing ones; a failure leaves the settings unchanged
  effect(next, changes) {
    if (!present(changes['test-email-address'])) return;
    const failure = SMTP_FAILING_HOSTS[String(next.host)];
    if (failure) throw httpFailure(failure.status, failure.title, failure.detail);
  },
};

const phoneNumber: Check = (value) =>
  typeof value === 'string' && value !== '' && !/^\+?[0-9][0-9 ()-]{3,19}$/.test(value)
    ? 'is not a phone number'
    : undefined;

export const sms: SettingConfig = {
  name: 'sms',
  attributes: {
    enabled: flag(false),
    'account-sid': text(undefined),
    'auth-token': secret(),
    'from-number': text(undefined, phoneNumber),
  },
  validate: (next) => requiredWhenEnabled(next, ['account-sid', 'auth-token', 'from-number'], 'SMS'),
};

export const customization: SettingConfig = {
  name: 'customization',
  attributes: {
    // deprecated; the platform's default is a fixed non-functional address
    'support-email-address': text('support@example.com', emailAddress),
    'login-help': text(''),
    footer: text(''),
    error: text(''),
    'new-user': text(''),
  },
};

export const SETTINGS: readonly SettingConfig[] = [general, costEstimation, saml, smtp, sms, customization];
