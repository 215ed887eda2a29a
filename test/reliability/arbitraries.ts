/**
 * Valid manifests for every kind, as fast-check arbitraries: the table the
 * reliability tests iterate over. A kind added later is covered by adding one
 * entry here (idempotence.test.ts fails until every provider has one).
 *
 * "Valid" means what the platform accepts too, not only what the schema
 * allows: settings that are enabled carry what the API then requires (SMTP
 * host, port and sender; SAML certificate and endpoints; a complete set of
 * cost-estimation credentials), and write-only values come from `${env:...}`
 * placeholders whose values are generated alongside.
 */
import fc from 'fast-check';

/** One YAML document, before it is written out. */
export interface ManifestDoc {
  kind: string;
  metadata?: { name: string; labels?: Record<string, string> };
  ensure?: 'present' | 'absent';
  spec?: Record<string, unknown>;
}

/** Documents of one kind, and the environment their placeholders read. */
export interface Generated {
  docs: ManifestDoc[];
  env: Record<string, string>;
}

export interface KindArbitrary {
  kind: string;
  /** What the kind is, for the table of what is covered. */
  shape: 'singleton' | 'collection' | 'existing-objects';
  /** For a collection: its JSON:API type, emptied between cases so that each starts from nothing. */
  collection?: string;
  /** Valid manifests of this kind: each case is applied on top of what the previous one left. */
  generate: fc.Arbitrary<Generated>;
}

/** Users the emulator is seeded with for AdminUser cases (never the admin whose token runs converge). */
export const MANAGED_USERS = ['alice', 'bob', 'carol', 'dave'] as const;

// ---------------------------------------------------------------- values

/** A value with its own env variable: the spec gets the placeholder, `env` the value. */
interface Secret {
  placeholder: string;
  name: string;
  value: string;
}

const secretValue = fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme-ascii' }).map((s) => `s-${s}`);

function secret(name: string, value: fc.Arbitrary<string> = secretValue): fc.Arbitrary<Secret> {
  return value.map((v) => ({ placeholder: `\${env:${name}}`, name, value: v }));
}

/** Literal `${` in generated text must be written `$${`, or it would be taken for a placeholder. */
export function literal(text: string): string {
  return text.replaceAll('${', () => '$${');
}

/** Free text as people write it: unicode, HTML, quotes, YAML-significant characters. */
export const freeText: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ maxLength: 30, unit: 'grapheme' }),
    fc.constantFrom(
      'Use <b>SSO</b> & your badge',
      '<script>alert("x")</script>',
      'Zoë’s café — ☕ 日本語 🚀',
      'line one\nline two',
      '  leading and trailing  ',
      'yes',
      'null',
      '~',
      '123',
      '0x1F',
      '# not a comment',
      'key: value',
      '- item',
      '\'single\' "double"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal that looks like a placeholder, escaped by the generator
      '${env:NOT_A_PLACEHOLDER}',
      '$${ already escaped',
      '',
    ),
  )
  .map(literal);

/** A duration in seconds (> 0, as the API wants) and a way of writing it. */
const duration: fc.Arbitrary<string | number> = fc
  .tuple(fc.integer({ min: 1, max: 72 }), fc.integer({ min: 0, max: 6 }))
  .map(([hours, form]): string | number => {
    const seconds = hours * 3600;
    switch (form) {
      case 0:
        return `${hours}h`;
      case 1:
        return `${hours * 60}m`;
      case 2:
        return `${seconds}s`;
      case 3:
        return seconds;
      case 4:
        return String(seconds);
      case 5:
        return `${hours - 1 + 0.5}h`.replace(/^0\.5h$/, '30m');
      default:
        return hours > 1 ? `${hours - 1}h60m` : '30m1800s';
    }
  });

const minuteDuration: fc.Arbitrary<string | number> = fc
  .tuple(fc.integer({ min: 1, max: 600 }), fc.constantFrom('m', 's', 'n', 'q'))
  .map(([minutes, unit]) => (unit === 'm' ? `${minutes}m` : unit === 's' ? `${minutes * 60}s` : minutes * 60));

const hostname = fc.domain();
const httpsUrl = fc.tuple(hostname, fc.webPath()).map(([host, path]) => `https://${host}${path}`);
const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,10}(?:[._-][a-z0-9]{1,5}){0,2}$/), hostname)
  .map(([user, host]) => `${user}@${host}`);
const phone = fc.stringMatching(/^\+[1-9][0-9]{6,14}$/);
const nonEmptyText = fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).map(literal);
const hex64 = fc.stringMatching(/^[0-9a-fA-F]{64}$/);

/** A PEM certificate block: base64 of random bytes, lines of 64 (or other widths), maybe indented. */
const pem: fc.Arbitrary<string> = fc
  .tuple(fc.uint8Array({ minLength: 30, maxLength: 300 }), fc.constantFrom(64, 76, 40), fc.constantFrom('\n', '\r\n'))
  .map(([bytes, width, eol]) => {
    const base64 = Buffer.from(bytes).toString('base64');
    const lines = base64.match(new RegExp(`.{1,${width}}`, 'g')) ?? [];
    return ['-----BEGIN CERTIFICATE-----', ...lines, '-----END CERTIFICATE-----', ''].join(eol);
  });

/** `fc.record` where every key is optional. */
function partial<T extends Record<string, unknown>>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) {
  return fc.record(model, { requiredKeys: [] });
}

function singleton(kind: string, spec: fc.Arbitrary<Record<string, unknown>>, secrets: fc.Arbitrary<Secret[]>) {
  return fc.tuple(spec, secrets).map(([s, list]): Generated => {
    const env: Record<string, string> = {};
    const withSecrets: Record<string, unknown> = { ...s };
    for (const item of list) {
      const field = item.name.split('__')[1] ?? item.name;
      withSecrets[field] = item.placeholder;
      env[item.name] = item.value;
    }
    return { docs: [{ kind, spec: withSecrets }], env };
  });
}

/** Env names carry the field after `__`, so one helper can place them. */
const envName = (kind: string, field: string) => `${kind.toUpperCase()}__${field}`;

// ---------------------------------------------------------------- kinds

const generalSettings: KindArbitrary = {
  kind: 'GeneralSettings',
  shape: 'singleton',
  generate: fc
    .tuple(
      partial({
        'limit-user-organization-creation': fc.boolean(),
        'api-rate-limiting-enabled': fc.boolean(),
        'api-rate-limit': fc.integer({ min: 30, max: 100_000 }),
        'send-passing-statuses-for-untriggered-speculative-plans': fc.boolean(),
        'allow-speculative-plans-on-pull-requests-from-forks': fc.boolean(),
        'default-remote-state-access': fc.boolean(),
      }),
      // a timeout by its name, by its deprecated alias alone, or by both written in different units
      fc
        .constantFrom('plan', 'apply')
        .chain((which) =>
          fc.tuple(fc.constant(which), fc.constantFrom('name', 'alias', 'both', 'none'), duration, duration),
        ),
    )
    .map(([flags, [which, how, value, other]]) => {
      const spec: Record<string, unknown> = { ...flags };
      const name = `${which}-timeout`;
      const alias = `engine-build-worker-${which}-timeout`;
      if (how === 'name' || how === 'both') spec[name] = value;
      if (how === 'alias') spec[alias] = value;
      if (how === 'both') spec[alias] = sameDurationOtherUnit(value);
      if (how === 'none') spec[name] = other;
      return { docs: [{ kind: 'GeneralSettings', spec }], env: {} };
    }),
};

/** The same number of seconds, written differently (`3h` -> `10800s`). */
function sameDurationOtherUnit(value: string | number): string {
  if (typeof value === 'number' || /^\d+$/.test(value)) return `${Number(value)}s`;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)([hms])/g)];
  const total = parts.reduce((sum, [, n, u]) => sum + Number(n) * (u === 'h' ? 3600 : u === 'm' ? 60 : 1), 0);
  return `${total}s`;
}

const COST = 'CostEstimationSettings';
const costEstimationSettings: KindArbitrary = {
  kind: COST,
  shape: 'singleton',
  generate: fc.oneof(
    // enabled: one complete set of credentials, as the API requires
    fc
      .constantFrom(
        ['cloud-a-access-key-id', 'cloud-a-secret-key'],
        ['cloud-b-credentials'],
        ['cloud-c-client-id', 'cloud-c-client-secret', 'cloud-c-subscription-id', 'cloud-c-tenant-id'],
      )
      .chain((fields) =>
        singleton(
          COST,
          fc.constant({ enabled: true }),
          fc.tuple(
            ...fields.map((f) =>
              secret(
                envName(COST, f),
                f === 'cloud-b-credentials' ? fc.json().map((j) => JSON.stringify({ key: j })) : secretValue,
              ),
            ),
          ),
        ),
      ),
    // disabled, with or without some credentials
    singleton(
      COST,
      partial({ enabled: fc.constant(false) }),
      fc
        .subarray(['cloud-a-access-key-id', 'cloud-c-client-secret'])
        .chain((fields) =>
          fields.length === 0 ? fc.constant([]) : fc.tuple(...fields.map((f) => secret(envName(COST, f)))),
        ),
    ),
  ),
};

const samlSettings: KindArbitrary = {
  kind: 'SAMLSettings',
  shape: 'singleton',
  generate: fc
    .tuple(
      fc.boolean(),
      partial({
        debug: fc.boolean(),
        'attr-username': nonEmptyText,
        'attr-groups': nonEmptyText,
        'attr-site-admin': nonEmptyText,
        'site-admin-role': nonEmptyText,
        'sso-api-token-session-timeout': fc.oneof(duration, minuteDuration),
      }),
      fc.record({ 'idp-cert': pem, 'sso-endpoint-url': httpsUrl, 'slo-endpoint-url': httpsUrl }),
    )
    .map(([enabled, rest, endpoints]) => ({
      // an enabled SAML needs its certificate and endpoints; a disabled one may leave them as they are
      docs: [{ kind: 'SAMLSettings', spec: { enabled, ...rest, ...(enabled ? endpoints : {}) } }],
      env: {},
    })),
};

const SMTP = 'SMTPSettings';
const smtpSettings: KindArbitrary = {
  kind: SMTP,
  shape: 'singleton',
  generate: fc.oneof(
    fc
      .tuple(
        fc.record({
          enabled: fc.constant(true),
          host: hostname,
          port: fc.integer({ min: 1, max: 65535 }),
          sender: email,
          auth: fc.constantFrom('none', 'plain', 'login'),
        }),
        fc.stringMatching(/^[a-z][a-z0-9._-]{0,15}$/),
        secret(envName(SMTP, 'password')),
      )
      .map(([spec, username, password]): Generated => {
        // plain and login need a username and password; with none they may still be set
        if (spec.auth === 'none' && username.length % 2 === 0) return { docs: [{ kind: SMTP, spec }], env: {} };
        return {
          docs: [{ kind: SMTP, spec: { ...spec, username, password: password.placeholder } }],
          env: { [password.name]: password.value },
        };
      }),
    singleton(
      SMTP,
      partial({
        enabled: fc.constant(false),
        host: hostname,
        port: fc.integer({ min: 1, max: 65535 }),
        sender: email,
        auth: fc.constant('none'),
      }),
      fc.constant([]),
    ),
  ),
};

const SMS = 'SMSSettings';
const smsSettings: KindArbitrary = {
  kind: SMS,
  shape: 'singleton',
  generate: fc.oneof(
    singleton(
      SMS,
      fc.record({
        enabled: fc.constant(true),
        'account-sid': fc.stringMatching(/^AC[0-9a-f]{8,32}$/),
        'from-number': phone,
      }),
      fc.tuple(secret(envName(SMS, 'auth-token'))),
    ),
    singleton(SMS, partial({ enabled: fc.constant(false), 'from-number': phone }), fc.constant([])),
  ),
};

const customizationSettings: KindArbitrary = {
  kind: 'CustomizationSettings',
  shape: 'singleton',
  generate: partial({
    'support-email-address': email,
    'login-help': freeText,
    footer: freeText,
    error: freeText,
    'new-user': freeText,
  }).map((spec) => ({ docs: [{ kind: 'CustomizationSettings', spec }], env: {} })),
};

/** Semantic versions as the API takes them: `N.N.N` or `N.N.N-bundle`. */
export const versionName: fc.Arbitrary<string> = fc
  .tuple(
    fc.nat({ max: 30 }),
    fc.nat({ max: 200 }),
    fc.nat({ max: 999 }),
    fc.option(fc.stringMatching(/^[0-9A-Za-z][0-9A-Za-z.-]{0,12}$/), { nil: undefined }),
  )
  .map(([major, minor, patch, bundle]) => `${major}.${minor}.${patch}${bundle ? `-${bundle}` : ''}`);

function versions(kind: string, collection: string): KindArbitrary {
  const spec = fc
    .tuple(
      fc.webUrl({ validSchemes: ['https', 'http'] }),
      hex64,
      partial({ official: fc.boolean(), enabled: fc.boolean(), beta: fc.boolean() }),
      // deprecated with or without a reason, and a reason without deprecation (the API clears it)
      fc.constantFrom('none', 'deprecated', 'deprecated+reason', 'reason-only', 'not-deprecated+reason', 'null-reason'),
      fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }).map(literal),
    )
    .map(([url, sha, flags, deprecation, reason]) => {
      const out: Record<string, unknown> = { url, sha, ...flags };
      if (deprecation === 'deprecated') out.deprecated = true;
      if (deprecation === 'deprecated+reason') Object.assign(out, { deprecated: true, 'deprecated-reason': reason });
      if (deprecation === 'reason-only') out['deprecated-reason'] = reason;
      if (deprecation === 'not-deprecated+reason')
        Object.assign(out, { deprecated: false, 'deprecated-reason': reason });
      if (deprecation === 'null-reason') Object.assign(out, { deprecated: true, 'deprecated-reason': null });
      return out;
    });
  return {
    kind,
    shape: 'collection',
    collection,
    generate: fc
      .uniqueArray(fc.tuple(versionName, spec), { minLength: 1, maxLength: 6, selector: ([name]) => name })
      .map((list) => ({ docs: list.map(([name, s]) => ({ kind, metadata: { name }, spec: s })), env: {} })),
  };
}

const adminUser: KindArbitrary = {
  kind: 'AdminUser',
  shape: 'existing-objects',
  generate: fc
    .subarray([...MANAGED_USERS], { minLength: 1 })
    .chain((users) =>
      fc.tuple(
        ...users.map((name) =>
          partial({ 'is-admin': fc.boolean(), 'is-suspended': fc.boolean() }).map((spec) => ({ name, spec })),
        ),
      ),
    )
    .map((list) => ({
      docs: list.map(({ name, spec }): ManifestDoc => ({ kind: 'AdminUser', metadata: { name }, spec })),
      env: {},
    })),
};

/** Every kind: the list the reliability tests iterate over. */
export const KIND_ARBITRARIES: readonly KindArbitrary[] = [
  generalSettings,
  costEstimationSettings,
  samlSettings,
  smtpSettings,
  smsSettings,
  customizationSettings,
  versions('ToolVersion', 'tool-versions'),
  versions('PolicyVersion', 'policy-versions'),
  adminUser,
];
