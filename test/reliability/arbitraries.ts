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
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import sshpk from 'sshpk';
import { DEFAULT_ADMIN_DN, DEFAULT_ADMIN_PASSWORD } from '../../src/emulator/ldap/directory/default-seed.ts';
import { MEMORY_DIRECTORY_URL } from '../../src/emulator/secrets/seed.ts';

/** One YAML document, before it is written out. */
export interface ManifestDoc {
  kind: string;
  /**
   * `name` for named objects; `mount` for the secrets API's kinds (`ssh` when
   * left out); `organization`, `provider`, `registry`, `namespace` and
   * `module` for the registry's kinds.
   */
  metadata?: {
    name?: string;
    mount?: string;
    organization?: string;
    provider?: string;
    registry?: 'private' | 'public';
    namespace?: string;
    module?: string;
    labels?: Record<string, string>;
  };
  ensure?: 'present' | 'absent';
  spec?: Record<string, unknown>;
}

/** Documents of one kind, and the environment their placeholders read. */
export interface Generated {
  docs: ManifestDoc[];
  env: Record<string, string>;
  /** Files `${file:...}` placeholders read (and module directories), by path relative to the manifest's directory. */
  files?: Record<string, string>;
  /**
   * Gzip tarballs to make before loading (a version's `archive:`): the
   * archive's path -> the module directory packed into it (src/registry/pack.ts),
   * both relative to the manifest's directory (or absolute), written after `files`.
   */
  archives?: Record<string, string>;
}

export interface KindArbitrary {
  kind: string;
  /**
   * What the kind is, for the table of what is covered: `mounted` for the
   * secrets API's kinds (named objects or one object per mount, under the
   * mounts listed in `mounts`).
   */
  shape: 'singleton' | 'collection' | 'existing-objects' | 'mounted';
  /** For a collection: its JSON:API type, emptied between cases so that each starts from nothing. */
  collection?: string;
  /**
   * For a secrets kind: the SSH mounts its cases use, which the emulator is
   * seeded with and which are emptied between cases (roles, CA, zero-address list).
   */
  mounts?: readonly string[];
  /**
   * For an LDAP kind: the LDAP mounts its cases use, which the emulator is
   * seeded with and which are emptied between cases (roles, static roles,
   * library sets, then the config).
   */
  ldapMounts?: readonly string[];
  /**
   * For the registry's kinds: the organizations whose modules (with their
   * versions and test variables) are deleted between cases.
   */
  registryOrganizations?: readonly string[];
  /** Other kinds a case declares too (the roles a zero-address list names); only `kind` is exported. */
  companions?: readonly string[];
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

/**
 * A URL path (RFC 3986 `path-abempty`): `/`-separated segments, maybe empty, of the characters a
 * path may hold as they are (unreserved, sub-delims, `:` and `@`) and of UTF-8 percent-encoded
 * text. The grammar of `fc.webPath()`, which maps every code point once made: 1.7 s of CPU in
 * each test process that generates a URL, against some 80 ms for this one.
 */
const webPath: fc.Arbitrary<string> = fc
  .array(
    fc
      .array(
        fc.oneof(
          { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@]{1,6}$/) },
          fc.string({ minLength: 1, maxLength: 2, unit: 'grapheme' }).map(encodeURIComponent),
        ),
        { maxLength: 3 },
      )
      .map((parts) => parts.join('')),
    { maxLength: 5 },
  )
  .map((segments) => segments.map((segment) => `/${segment}`).join(''));

const hostname = fc.domain();
const webUrl = (schemes: readonly string[]) =>
  fc.tuple(fc.constantFrom(...schemes), hostname, webPath).map(([scheme, host, path]) => `${scheme}://${host}${path}`);
const httpsUrl = webUrl(['https']);
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
      webUrl(['https', 'http']),
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

// ---------------------------------------------------------------- SSH engine (secrets API)

/** The SSH mounts of the SSH kinds' cases: the emulator's default one and one more the emulator is seeded with. */
export const SSH_MOUNTS = ['ssh', 'ssh-prod'] as const;
type SshMount = (typeof SSH_MOUNTS)[number];

/** Part of a case: documents with what their placeholders read. */
interface Part {
  docs: ManifestDoc[];
  env?: Record<string, string>;
  files?: Record<string, string>;
}

/** Parts as one case, its documents in any order (the engine orders roles before the lists that name them). */
function caseOf(parts: fc.Arbitrary<readonly Part[]>): fc.Arbitrary<Generated> {
  return parts
    .map((list): Generated => {
      const out = { docs: [] as ManifestDoc[], env: {} as Record<string, string>, files: {} as Record<string, string> };
      for (const part of list) {
        out.docs.push(...part.docs);
        Object.assign(out.env, part.env);
        Object.assign(out.files, part.files);
      }
      return out;
    })
    .chain((g) => fc.shuffledSubarray(g.docs, { minLength: g.docs.length }).map((docs) => ({ ...g, docs })));
}

/** Some of the mounts (at least one), each giving a part. */
function perMountOf<M extends string>(
  mounts: readonly M[],
  part: (mount: M) => fc.Arbitrary<Part>,
): fc.Arbitrary<Generated> {
  return caseOf(fc.subarray([...mounts], { minLength: 1 }).chain((chosen) => fc.tuple(...chosen.map(part))));
}

function perMount(part: (mount: SshMount) => fc.Arbitrary<Part>): fc.Arbitrary<Generated> {
  return perMountOf(SSH_MOUNTS, part);
}

/** `metadata` of an object in `mount`: the default mount is sometimes left for the schema to fill in (`metadata: {}`). */
function inMountOf(
  defaultMount: string,
  mount: string,
  implicit: boolean,
  name?: string,
): Pick<ManifestDoc, 'metadata'> {
  return { metadata: { ...((mount !== defaultMount || !implicit) && { mount }), ...(name !== undefined && { name }) } };
}

function inMount(mount: SshMount, implicit: boolean, name?: string): Pick<ManifestDoc, 'metadata'> {
  return inMountOf('ssh', mount, implicit, name);
}

/** A set the API keeps as one comma string, as people write it: a YAML list or a comma string, in any order, with duplicates and spaces. */
function commaForm(items: readonly string[]): fc.Arbitrary<string | string[]> {
  return fc
    .tuple(
      fc.shuffledSubarray([...items], { minLength: items.length }),
      fc.subarray([...items], { maxLength: Math.min(2, items.length) }),
      fc.constantFrom('list', ',', ', ', ' , ', ',  '),
      fc.constantFrom('', ' ', ','),
    )
    .map(([ordered, duplicates, form, around]) => {
      const all = [...ordered, ...duplicates];
      if (form === 'list') return all;
      const text = all.join(form);
      return around === ',' ? `${text},` : `${around}${text}${around}`;
    });
}

const uniqueForm = (item: fc.Arbitrary<string>, options: { minLength?: number; maxLength?: number } = {}) =>
  fc.uniqueArray(item, { maxLength: 4, ...options }).chain(commaForm);

const ipv4Cidr = fc
  .tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 }))
  .map(([address, prefix]) => `${address}/${prefix}`);
const ipv6Cidr = fc
  .tuple(
    fc.oneof(fc.ipV6(), fc.constantFrom('2001:db8::', 'fd00::', 'fe80::', '::', '2001:DB8:0:0:8:800:200C:417A')),
    fc.integer({ min: 0, max: 128 }),
  )
  .map(([address, prefix]) => `${address}/${prefix}`);
const cidr = fc.oneof({ weight: 3, arbitrary: ipv4Cidr }, { weight: 2, arbitrary: ipv6Cidr });
const cidrList = (minLength: number) => uniqueForm(cidr, { minLength, maxLength: 5 });

/** The one identity template the tests use: only where the matching `*_template` flag is true. */
export const IDENTITY_TEMPLATE = '{{identity.entity.name}}';

const unixUser = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,11}$/);
const roleName = fc.stringMatching(/^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,14}[A-Za-z0-9_])?$/);
const port = fc.oneof(fc.constant(22), fc.integer({ min: 1, max: 65535 }));

/** `allowed_users`: `*`, or users (and the identity template when allowed). */
function allowedUsers(template: boolean): fc.Arbitrary<string | string[]> {
  return fc.oneof(
    fc.constantFrom('*', ['*'], ''),
    uniqueForm(template ? fc.oneof(unixUser, fc.constant(IDENTITY_TEMPLATE)) : unixUser, { minLength: 1 }),
  );
}

/** A number of seconds, written as whole seconds (number or string), or with units: `30m`, `1h30m`, `90s`, `1.5m`, `1.5h`. */
function writtenDuration(seconds: number): fc.Arbitrary<string | number> {
  const forms: Array<string | number> = [seconds, `${seconds}s`, String(seconds)];
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  // decimals that still make whole seconds: `1.5m` is 90 seconds (a fraction of a second is not a duration the API keeps)
  if (seconds > 0 && seconds % 30 === 0) forms.push(`${seconds / 60}m`);
  if (seconds > 0 && seconds % 1800 === 0) forms.push(`${seconds / 3600}h`);
  if (h > 0 && m + s > 0) forms.push(`${h}h${m > 0 ? `${m}m` : ''}${s > 0 ? `${s}s` : ''}`);
  if (h === 0 && m > 0 && s > 0) forms.push(`${m}m${s}s`);
  return fc.constantFrom(...forms);
}

const durationSeconds = fc.oneof(
  fc.constantFrom(0, 30, 60, 90, 1800, 3600, 5400, 43_200, 86_400),
  fc.integer({ min: 1, max: 30 * 86_400 }),
);

/** `ttl` and `max_ttl`: either, both (ttl <= max_ttl) or none. */
const ttls: fc.Arbitrary<Record<string, string | number>> = fc
  .tuple(durationSeconds, durationSeconds, fc.constantFrom('both', 'ttl', 'max', 'none'))
  .chain(([a, b, which]) => {
    const [ttl, max] = a <= b ? [a, b] : [b, a];
    return fc.tuple(writtenDuration(ttl), writtenDuration(max)).map(([t, m]) => ({
      ...((which === 'both' || which === 'ttl') && { ttl: t }),
      ...((which === 'both' || which === 'max') && { max_ttl: m }),
    }));
  });

const CRITICAL_OPTIONS = ['force-command', 'source-address', 'verify-required'];
const EXTENSIONS = [
  'permit-pty',
  'permit-port-forwarding',
  'permit-agent-forwarding',
  'permit-X11-forwarding',
  'permit-user-rc',
  'no-touch-required',
  'login@example.com',
];
const KEY_ID_VARIABLES = ['token_display_name', 'role_name', 'public_key_hash'];

/** Sizes per key type that `allowed_user_key_lengths` accepts (src/providers/ssh-role/checks.ts). */
const KEY_SIZES: Record<string, readonly number[]> = {
  rsa: [1024, 2048, 3072, 4096, 8192],
  'ssh-rsa': [2048, 3072, 4096],
  ecdsa: [256, 384, 521],
  ec: [256, 384],
  'ecdsa-sha2-nistp256': [256],
  'ecdsa-sha2-nistp384': [384],
  'ecdsa-sha2-nistp521': [521],
  dsa: [1024],
  'ssh-dss': [1024],
  ed25519: [0, 256],
  'ssh-ed25519': [0],
};

/** Sizes of one key type: a size, a list (maybe with duplicates), or a comma string. */
function sizesForm(sizes: readonly number[]): fc.Arbitrary<number | number[] | string> {
  return fc
    .subarray([...sizes], { minLength: 1 })
    .chain((chosen) =>
      fc.tuple(
        fc.shuffledSubarray(chosen, { minLength: chosen.length }),
        fc.constantFrom('one', 'list', 'dup', ', ', ','),
      ),
    )
    .map(([ordered, form]) => {
      if (form === 'one' && ordered.length === 1) return ordered[0] as number;
      if (form === 'list' || form === 'one') return ordered;
      if (form === 'dup') return [...ordered, ordered[0] as number];
      return ordered.join(form);
    });
}

const keyLengths: fc.Arbitrary<Record<string, unknown>> = fc
  .subarray(Object.keys(KEY_SIZES), { maxLength: 4 })
  .chain((types) =>
    types.length === 0
      ? fc.constant([] as Array<[string, unknown]>)
      : fc.tuple(...types.map((type) => sizesForm(KEY_SIZES[type] ?? [0]).map((v): [string, unknown] => [type, v]))),
  )
  .map((entries) => Object.fromEntries(entries));

const keyIdFormat = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[a-z0-9_.:-]{1,8}$/),
      fc.constantFrom(...KEY_ID_VARIABLES.map((v) => `{{${v}}}`), '{{ role_name }}'),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));

/** `algorithm_signer`: RSA signatures only when the mount declares no CA with another key type. */
const algorithmSigner = (rsa: boolean) =>
  rsa ? fc.constantFrom('default', '', 'rsa-sha2-256', 'rsa-sha2-512', 'ssh-rsa') : fc.constantFrom('default', '');

/** The fields that apply only to otp roles, and those only to ca roles: set on the other key type, they are plan notes. */
export const SSH_OTP_ONLY_FIELDS = ['cidr_list', 'exclude_cidr_list', 'port'] as const;

/** Fields of the other key type, set with valid values: they get a plan note, never a change. */
function caFieldsOnOtp(rsa: boolean): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      partial({
        ttl: fc.constant('1h'),
        max_ttl: fc.constant(7200),
        allow_user_certificates: fc.boolean(),
        allow_host_certificates: fc.boolean(),
        allowed_domains: fc.constant('example.com, example.org'),
        default_user_template: fc.boolean(),
        key_id_format: fc.constant('{{role_name}}-x'),
        allowed_extensions: fc.constant(['permit-pty']),
        default_extensions: fc.constant({ 'permit-pty': '' }),
        allowed_user_key_lengths: fc.constant({ rsa: 2048 }),
        not_before_duration: fc.constant('1m'),
        algorithm_signer: algorithmSigner(rsa),
      }),
      fc.nat({ max: 3 }),
    )
    .map(([fields, keep]) => (keep === 0 ? fields : {}));
}

const otpFieldsOnCa: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(partial({ cidr_list: cidrList(1), exclude_cidr_list: cidrList(0), port }), fc.nat({ max: 3 }))
  .map(([fields, keep]) => (keep === 0 ? fields : {}));

/** An otp role: a default user, CIDR blocks (optional for a role on the zero-address list), maybe a port. */
function otpRole(options: { rsa: boolean; zeroAddress: boolean }): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      unixUser,
      options.zeroAddress ? fc.option(cidrList(1), { nil: undefined }) : cidrList(1),
      partial({ exclude_cidr_list: cidrList(0), port, allowed_users: allowedUsers(false) }),
      caFieldsOnOtp(options.rsa),
    )
    .map(([user, cidrs, rest, inapplicable]) => ({
      key_type: 'otp',
      default_user: user,
      ...(cidrs !== undefined && { cidr_list: cidrs }),
      ...rest,
      ...inapplicable,
    }));
}

/** A ca role: every flag, templates only where allowed, ttl <= max_ttl, maps, key lengths, key ID format, signer. */
function caRole(options: { rsa: boolean }): fc.Arbitrary<Record<string, unknown>> {
  const flags = fc.record({
    default_user_template: fc.boolean(),
    allowed_users_template: fc.boolean(),
    allowed_domains_template: fc.boolean(),
    default_extensions_template: fc.boolean(),
  });
  return flags.chain((t) =>
    fc
      .tuple(
        // a flag that is false is written `false` or left out
        fc.subarray(Object.keys(t)),
        fc.constantFrom<string[]>(['user'], ['host'], ['user', 'host']),
        partial({
          allow_bare_domains: fc.boolean(),
          allow_subdomains: fc.boolean(),
          allow_user_key_ids: fc.boolean(),
          allow_empty_principals: fc.boolean(),
          default_user: t.default_user_template
            ? fc.oneof(fc.constant(IDENTITY_TEMPLATE), fc.constant(`${IDENTITY_TEMPLATE}-admin`), unixUser)
            : unixUser,
          allowed_users: allowedUsers(t.allowed_users_template),
          allowed_domains: fc.oneof(
            fc.constant('*'),
            uniqueForm(
              t.allowed_domains_template
                ? fc.oneof(fc.domain(), fc.constant(`${IDENTITY_TEMPLATE}.example.com`))
                : fc.domain(),
            ),
          ),
          allowed_critical_options: uniqueForm(fc.constantFrom(...CRITICAL_OPTIONS)),
          allowed_extensions: fc.oneof(fc.constant('*'), uniqueForm(fc.constantFrom(...EXTENSIONS))),
          default_critical_options: partial({
            'force-command': fc.constantFrom('/usr/bin/true', 'echo "hello, world"', ''),
            'source-address': fc.uniqueArray(ipv4Cidr, { minLength: 1, maxLength: 3 }).map((l) => l.join(',')),
          }),
          default_extensions: fc.dictionary(
            fc.constantFrom(...EXTENSIONS),
            t.default_extensions_template
              ? fc.oneof(fc.constant(''), unixUser, fc.constant(IDENTITY_TEMPLATE))
              : fc.oneof(fc.constant(''), unixUser),
            { maxKeys: 4 },
          ),
          key_id_format: keyIdFormat,
          allowed_user_key_lengths: keyLengths,
          algorithm_signer: algorithmSigner(options.rsa),
          not_before_duration: durationSeconds.chain(writtenDuration),
        }),
        ttls,
        otpFieldsOnCa,
      )
      .map(([written, certificates, rest, lifetimes, inapplicable]) => {
        const spec: Record<string, unknown> = { key_type: 'ca' };
        for (const [flag, value] of Object.entries(t)) if (value || written.includes(flag)) spec[flag] = value;
        // the API wants user or host certificates allowed; the other is written `false` or left out
        spec.allow_user_certificates = certificates.includes('user');
        spec.allow_host_certificates = certificates.includes('host');
        if (!certificates.includes('user') && written.length % 2 === 0) delete spec.allow_user_certificates;
        if (!certificates.includes('host') && written.length % 2 === 0) delete spec.allow_host_certificates;
        return { ...spec, ...rest, ...lifetimes, ...inapplicable };
      }),
  );
}

// ---- SSH certificate authorities

/** A key pair for a CA whose keys are given: the private key in OpenSSH and PKCS#8 PEM, the public key line. */
export interface SshKeyPair {
  algorithm: 'rsa' | 'ec' | 'ed25519';
  openssh: string;
  pkcs8: string;
  /** `type base64`, no comment. */
  publicKey: string;
}

/** What the pool holds: generated once per process, on first use (RSA key generation is slow). */
const POOL_SPEC: ReadonlyArray<{ algorithm: SshKeyPair['algorithm']; size?: number | string }> = [
  { algorithm: 'ed25519' },
  { algorithm: 'ed25519' },
  { algorithm: 'ed25519' },
  { algorithm: 'ec', size: 'P-256' },
  { algorithm: 'ec', size: 'P-256' },
  { algorithm: 'ec', size: 'P-384' },
  { algorithm: 'ec', size: 'P-521' },
  { algorithm: 'rsa', size: 2048 },
  { algorithm: 'rsa', size: 2048 },
];

let pool: SshKeyPair[] | undefined;

/** Real SSH key pairs for CAs with given keys: made once, not per case. */
export function sshKeyPool(): readonly SshKeyPair[] {
  pool ??= POOL_SPEC.map(({ algorithm, size }) => {
    const { privateKey } =
      algorithm === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: Number(size) })
        : algorithm === 'ec'
          ? generateKeyPairSync('ec', { namedCurve: String(size) })
          : generateKeyPairSync('ed25519');
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const parsed = sshpk.parsePrivateKey(pkcs8, 'pkcs8');
    parsed.comment = '';
    const blob = parsed.toPublic().toBuffer('rfc4253');
    const type = blob.subarray(4, 4 + blob.readUInt32BE(0)).toString('latin1');
    return { algorithm, openssh: parsed.toString('openssh'), pkcs8, publicKey: `${type} ${blob.toString('base64')}` };
  });
  return pool;
}

/** A CA of one mount, and the key algorithm it has (for the roles' `algorithm_signer`). */
interface CaPart extends Part {
  algorithm: SshKeyPair['algorithm'];
}

const envSuffix = (mount: string) => mount.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/** A CA whose keys are given: the private key from `${env:}` or `${file:}`, the public key line maybe with a comment. */
function givenCa(mount: SshMount, algorithms?: ReadonlyArray<SshKeyPair['algorithm']>): fc.Arbitrary<CaPart> {
  const indexes = POOL_SPEC.flatMap((p, i) => (!algorithms || algorithms.includes(p.algorithm) ? [i] : []));
  return fc
    .record({
      index: fc.constantFrom(...indexes),
      form: fc.constantFrom('openssh', 'openssh', 'pkcs8'),
      via: fc.constantFrom('env', 'env', 'file'),
      comment: fc.constantFrom('', ' ca@example.com', '  converge test CA', ' ', '\n'),
      lead: fc.constantFrom('', ' '),
      implicit: fc.boolean(),
    })
    .map(({ index, form, via, comment, lead, implicit }): CaPart => {
      const pair = sshKeyPool()[index] as SshKeyPair;
      const key = form === 'pkcs8' ? pair.pkcs8 : pair.openssh;
      const env = `SSH_CA_KEY_${envSuffix(mount)}`;
      const file = `keys/${mount}-ca`;
      return {
        algorithm: pair.algorithm,
        docs: [
          {
            kind: 'SSHCertificateAuthority',
            ...inMount(mount, implicit),
            spec: {
              private_key: via === 'env' ? `\${env:${env}}` : `\${file:${file}}`,
              public_key: `${lead}${pair.publicKey}${comment}`,
            },
          },
        ],
        ...(via === 'env' ? { env: { [env]: key } } : { files: { [file]: key } }),
      };
    });
}

const FAST_GENERATED: ReadonlyArray<Record<string, unknown>> = [
  { key_type: 'ed25519' },
  { key_type: 'ssh-ed25519' },
  { key_type: 'ecdsa-sha2-nistp256' },
  { key_type: 'ecdsa-sha2-nistp256', key_bits: 256 },
  { key_type: 'ecdsa-sha2-nistp384' },
  { key_type: 'ecdsa-sha2-nistp521', key_bits: 521 },
  { key_type: 'ec' },
  { key_type: 'ec', key_bits: 0 },
  { key_type: 'ec', key_bits: 384 },
  { key_type: 'ec', key_bits: 521 },
];

/** A CA the service generates: mostly ed25519 and EC; RSA 2048 sometimes, the default RSA 4096 rarely (it is slow). */
function generatedCa(mount: SshMount, options: { rsa: boolean }): fc.Arbitrary<CaPart> {
  const choices = [
    { weight: 30, arbitrary: fc.constantFrom(...FAST_GENERATED) },
    ...(options.rsa
      ? [
          {
            weight: 3,
            arbitrary: fc.constantFrom<Record<string, unknown>>(
              { key_type: 'rsa', key_bits: 2048 },
              { key_type: 'ssh-rsa', key_bits: 2048 },
              { key_bits: 2048 },
            ),
          },
          { weight: 1, arbitrary: fc.constantFrom<Record<string, unknown>>({}, { key_type: 'ssh-rsa', key_bits: 0 }) },
        ]
      : []),
  ];
  return fc.tuple(fc.oneof(...choices), fc.boolean(), fc.boolean()).map(([params, say, implicit]): CaPart => {
    const type = String(params.key_type ?? 'ssh-rsa');
    const algorithm = type.includes('ed25519') ? 'ed25519' : type.startsWith('ec') ? 'ec' : 'rsa';
    const spec = { ...(say || Object.keys(params).length === 0 ? { generate_signing_key: true } : {}), ...params };
    return { algorithm, docs: [{ kind: 'SSHCertificateAuthority', ...inMount(mount, implicit), spec }] };
  });
}

const sshCertificateAuthority: KindArbitrary = {
  kind: 'SSHCertificateAuthority',
  shape: 'mounted',
  mounts: SSH_MOUNTS,
  generate: perMount((mount) => fc.oneof(givenCa(mount), generatedCa(mount, { rsa: true }))),
};

const sshRole: KindArbitrary = {
  kind: 'SSHRole',
  shape: 'mounted',
  mounts: SSH_MOUNTS,
  // a CA in the same mount decides which signers a role may name
  companions: ['SSHCertificateAuthority'],
  generate: perMount((mount) =>
    fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: givenCa(mount) },
          { weight: 1, arbitrary: generatedCa(mount, { rsa: false }) },
        ),
        fc.uniqueArray(fc.tuple(roleName, fc.boolean(), fc.boolean()), {
          minLength: 1,
          maxLength: 4,
          selector: ([name]) => name.toLowerCase(),
        }),
      )
      .chain(([ca, roles]) => {
        const rsa = ca === undefined || ca.algorithm === 'rsa';
        return fc
          .tuple(...roles.map(([, isOtp]) => (isOtp ? otpRole({ rsa, zeroAddress: false }) : caRole({ rsa }))))
          .map((specs): Part => {
            const docs = specs.map(
              (spec, i): ManifestDoc => ({
                kind: 'SSHRole',
                ...inMount(mount, roles[i]?.[2] ?? false, roles[i]?.[0]),
                spec,
              }),
            );
            return { docs: [...(ca?.docs ?? []), ...docs], env: ca?.env ?? {}, files: ca?.files ?? {} };
          });
      }),
  ),
};

const sshZeroAddress: KindArbitrary = {
  kind: 'SSHZeroAddress',
  shape: 'mounted',
  mounts: SSH_MOUNTS,
  // the otp roles the list names
  companions: ['SSHRole'],
  generate: perMount((mount) =>
    fc
      .tuple(
        fc.uniqueArray(roleName, { minLength: 1, maxLength: 4, selector: (name) => name.toLowerCase() }),
        fc.boolean(),
      )
      .chain(([names, implicit]) =>
        fc
          .tuple(
            fc.tuple(...names.map(() => otpRole({ rsa: true, zeroAddress: true }))),
            // a list (the schema wants one, of unique names) in any order
            fc.shuffledSubarray(names, { minLength: 1 }),
          )
          .map(
            ([specs, roles]): Part => ({
              docs: [
                ...specs.map(
                  (spec, i): ManifestDoc => ({ kind: 'SSHRole', ...inMount(mount, implicit, names[i]), spec }),
                ),
                { kind: 'SSHZeroAddress', ...inMount(mount, !implicit), spec: { roles } },
              ],
            }),
          ),
      ),
  ),
};

// ---------------------------------------------------------------- LDAP engine (secrets API)

/** The LDAP mounts of the LDAP kinds' cases: the emulator's default one and one more the emulator is seeded with. */
export const LDAP_MOUNTS = ['ldap', 'ldap-prod'] as const;
type LdapMount = (typeof LDAP_MOUNTS)[number];

/** The emulator's in-memory directory (src/emulator/ldap/directory/default-seed.ts), which both mounts' configs name. */
export const LDAP_URL = MEMORY_DIRECTORY_URL;
export const LDAP_ADMIN_DN = DEFAULT_ADMIN_DN;
/** The administrator's password: every config's `bindpass`, or the engine would be locked out of the directory. */
export const LDAP_ADMIN_PASSWORD = DEFAULT_ADMIN_PASSWORD;

/** Service accounts the tests' seed adds under `ou=service` (support.ts writes their entries). */
export const LDAP_EXTRA_ACCOUNTS: readonly string[] = Array.from({ length: 20 }, (_, i) => `svc-p${i}`);
/** Every service account under `ou=service`: the directory's own and the seed's. */
export const LDAP_SERVICE_ACCOUNTS: readonly string[] = [
  'svc-app1',
  'svc-batch1',
  'svc-batch2',
  'svc-batch3',
  ...LDAP_EXTRA_ACCOUNTS,
];

function perLdapMount(part: (mount: LdapMount) => fc.Arbitrary<Part>): fc.Arbitrary<Generated> {
  return perMountOf(LDAP_MOUNTS, part);
}

/** A secret read from `${env:}` or `${file:}`, with what the placeholder reads. */
function sourced(env: string, file: string, value: string): fc.Arbitrary<Part & { placeholder: string }> {
  return fc
    .constantFrom('env', 'file')
    .map((via) =>
      via === 'env'
        ? { docs: [], placeholder: `\${env:${env}}`, env: { [env]: value } }
        : { docs: [], placeholder: `\${file:${file}}`, files: { [file]: value } },
    );
}

/** The directory's URL as people write it: any case, a trailing `/`, spaces, a list with fallbacks after it. */
const workingUrl = fc.constantFrom(
  LDAP_URL,
  `${LDAP_URL}/`,
  'ldap://LDAP.Emulator.Test',
  ` ${LDAP_URL} `,
  `${LDAP_URL},ldaps://ldap-backup.example.org:636`,
  `${LDAP_URL} , ldap://10.0.0.7:389`,
  `${LDAP_URL}, ${LDAP_URL}`,
);
const anyUrl = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom('ldap', 'ldaps'), fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 }))), {
      minLength: 1,
      maxLength: 3,
    }),
    fc.constantFrom(',', ', ', ' , '),
  )
  .map(([urls, sep]) => urls.map(([scheme, host, p]) => `${scheme}://${host}${p === null ? '' : `:${p}`}`).join(sep));

/** The administrator's DN, as the directory matches it (attribute names in any case, spaces after commas). */
const adminDn = fc.constantFrom(LDAP_ADMIN_DN, 'CN=admin,DC=example,DC=org', 'cn=admin, dc=example, dc=org');
const anyDn = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), fc.constantFrom('dc=example,dc=org', 'ou=ops,dc=corp,dc=local'))
  .map(([cn, base]) => `cn=${cn},${base}`);

/** Where accounts are searched, and by which attribute: what finds `svc-*` under `ou=service` by name. */
const workingSearch: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record(
    {
      schema: fc.constant('openldap'),
      userattr: fc.constantFrom('cn', 'uid'),
      userdn: fc.constantFrom('ou=service,dc=example,dc=org', 'dc=example,dc=org', 'OU=service, DC=example, DC=org'),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      schema: fc.constantFrom('ad', 'racf'),
      userattr: fc.constantFrom('cn', 'uid'),
      userdn: fc.constantFrom('ou=service,dc=example,dc=org', 'dc=example,dc=org'),
    },
    { requiredKeys: ['schema', 'userattr'] },
  ),
);
const anySearch: fc.Arbitrary<Record<string, unknown>> = partial({
  schema: fc.constantFrom('openldap', 'ad', 'racf'),
  userattr: fc.constantFrom('cn', 'uid', 'sAMAccountName', 'userPrincipalName', 'racfid'),
  userdn: fc.oneof(fc.constant(''), anyDn, fc.constant('ou=people,dc=example,dc=org')),
});

/** Generated passwords: a policy or a length (never both above 0), or neither. */
const passwordRules: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({}),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/).map((policy) => ({ password_policy: policy })),
  fc.integer({ min: 8, max: 128 }).map((length) => ({ length })),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/).map((policy) => ({ password_policy: policy, length: 0 })),
  fc.integer({ min: 8, max: 64 }).map((length) => ({ password_policy: '', length })),
);

const cron = fc.constantFrom('0 * * * *', '*/15 2 * * 1-5', '30 3 1 * *', '0  4 * * SUN', ' 0 0 * * 0 ');

/** (commercial) root rotation: a period of 0 or at least 10 s, or a schedule with a window of at least 1h, or nothing. */
const rootRotation: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({}),
  writtenDuration(0).map((p) => ({ rotation_period: p })),
  fc
    .oneof(fc.constantFrom(10, 60, 3600, 86_400), fc.integer({ min: 10, max: 90 * 86_400 }))
    .chain(writtenDuration)
    .chain((p) =>
      partial({ disable_automated_rotation: fc.boolean() }).map((rest) => ({ rotation_period: p, ...rest })),
    ),
  fc
    .tuple(
      cron,
      fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 3600, max: 7 * 86_400 })).chain(writtenDuration), {
        nil: undefined,
      }),
      partial({ disable_automated_rotation: fc.boolean(), rotation_period: fc.constantFrom(0, '0s') }),
    )
    .map(([schedule, window, rest]) => ({
      rotation_schedule: schedule,
      ...(window !== undefined && { rotation_window: window }),
      ...rest,
    })),
  fc.constant({ rotation_period: 0, rotation_schedule: '', rotation_window: '0s' }),
);

/** A client certificate and key: the key from `${env:}` or `${file:}`, the certificate written in or read too. */
function clientTls(mount: LdapMount): fc.Arbitrary<Part & { spec: Record<string, unknown> }> {
  const key = pem.map((text) => text.replaceAll('CERTIFICATE', 'PRIVATE KEY'));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<Part & { spec: Record<string, unknown> }>({ docs: [], spec: {} }) },
    fc.tuple(pem, key, fc.boolean()).chain(([cert, k, literalCert]) =>
      fc
        .tuple(
          sourced(`LDAP_TLS_KEY_${envSuffix(mount)}`, `keys/${mount}-client.key`, k),
          sourced(`LDAP_TLS_CERT_${envSuffix(mount)}`, `keys/${mount}-client.crt`, cert),
        )
        .map(([keyPart, certPart]) => ({
          docs: [],
          spec: { client_tls_key: keyPart.placeholder, client_tls_cert: literalCert ? cert : certPart.placeholder },
          env: { ...keyPart.env, ...(literalCert ? {} : certPart.env) },
          files: { ...keyPart.files, ...(literalCert ? {} : certPart.files) },
        })),
    ),
  );
}

const timeoutSeconds = fc.oneof(fc.constantFrom(1, 30, 90, 120, 3600), fc.integer({ min: 1, max: 86_400 }));

/**
 * The config of a mount. `working`: one the engine can use (the in-memory
 * directory, its administrator, a search that finds the service accounts);
 * otherwise any valid config, which the engine keeps without binding.
 */
function ldapConfig(mount: LdapMount, working: boolean): fc.Arbitrary<Part> {
  return fc
    .record({
      bind: sourced(`LDAP_BINDPASS_${envSuffix(mount)}`, `secrets/${mount}-bindpass`, LDAP_ADMIN_PASSWORD),
      implicit: fc.boolean(),
      url: working ? workingUrl.map((u) => u as string | undefined) : fc.option(anyUrl, { nil: undefined }),
      binddn: working ? adminDn : fc.oneof(adminDn, anyDn),
      search: working ? workingSearch : anySearch,
      rest: partial({
        upndomain: fc.oneof(fc.constant(''), fc.domain()),
        request_timeout: timeoutSeconds.chain(writtenDuration),
        connection_timeout: timeoutSeconds.chain(writtenDuration),
        starttls: fc.boolean(),
        insecure_tls: fc.boolean(),
        certificate: fc.oneof(fc.constant(''), pem),
        skip_static_role_import_rotation: fc.boolean(),
      }),
      passwords: passwordRules,
      rotation: rootRotation,
      tls: clientTls(mount),
    })
    .map(
      ({ bind, implicit, url, binddn, search, rest, passwords, rotation, tls }): Part => ({
        docs: [
          {
            kind: 'LDAPConfig',
            ...inMountOf('ldap', mount, implicit),
            spec: {
              ...(url !== undefined && { url }),
              binddn,
              bindpass: bind.placeholder,
              ...search,
              ...rest,
              ...passwords,
              ...rotation,
              ...tls.spec,
            },
          },
        ],
        env: { ...bind.env, ...tls.env },
        files: { ...bind.files, ...tls.files },
      }),
    );
}

/**
 * One segment of a hierarchical name. Not `.` or `..` (a URL path would
 * resolve them), and not `status`, `check-in`, `check-out` or `manage`,
 * which are the engine's own paths under `library/`.
 */
function nameSegment(upper: boolean): fc.Arbitrary<string> {
  const free = upper ? /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,7}$/ : /^[a-z0-9_-][a-z0-9_.-]{0,7}$/;
  return fc
    .oneof(
      fc.constantFrom('apps', 'team', 'prod', 'a', 'b.c', 'x-1', 'svc_2', ...(upper ? ['Apps', 'TEAM'] : [])),
      fc.stringMatching(free),
    )
    .filter((s) => !['status', 'check-in', 'check-out', 'manage'].includes(s.toLowerCase()));
}

/** Names with `/` hierarchies, a folder and a leaf of the same name side by side sometimes (`apps` and `apps/x`). */
function hierarchicalNames(upper: boolean, maxLength: number): fc.Arbitrary<string[]> {
  return fc.uniqueArray(
    fc.array(nameSegment(upper), { minLength: 1, maxLength: 3 }).map((segments) => segments.join('/')),
    { minLength: 1, maxLength, selector: (name) => name },
  );
}

/** A case of one mount: its working config and the objects that need it. */
function withConfig(mount: LdapMount, objects: fc.Arbitrary<ManifestDoc[]>): fc.Arbitrary<Part> {
  return fc
    .tuple(ldapConfig(mount, true), objects)
    .map(([config, docs]) => ({ ...config, docs: [...config.docs, ...docs] }));
}

const ldapConfigKind: KindArbitrary = {
  kind: 'LDAPConfig',
  shape: 'mounted',
  ldapMounts: LDAP_MOUNTS,
  generate: perLdapMount((mount) => fc.boolean().chain((working) => ldapConfig(mount, working))),
};

/** Configs the engine can use, of one mount or both: the rotate-root property points them at directories of its own. */
export const LDAP_WORKING_CONFIGS: fc.Arbitrary<Generated> = perLdapMount((mount) => ldapConfig(mount, true));

/**
 * Whether static roles' `dn` is also written in other spellings of the same
 * DN: the engine reads back the directory's spelling, and the provider
 * compares DNs normalized (src/providers/ldap-static-role), so none plans a
 * replace.
 */
const LDAP_DN_SPELLINGS = true;

/** The DN of a service account, as written by hand: attribute names in any case, spaces after commas (see above). */
function accountDn(account: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    `cn=${account},ou=service,dc=example,dc=org`,
    ...(LDAP_DN_SPELLINGS
      ? [`CN=${account},OU=service,DC=example,DC=org`, `cn=${account}, ou=service, dc=example, dc=org`]
      : []),
  );
}

/** A rotation period of at least 5 s, in whole seconds, in any form. */
const rotationPeriod = fc
  .oneof(fc.constantFrom(5, 10, 60, 90, 3600, 5400, 86_400), fc.integer({ min: 5, max: 90 * 86_400 }))
  .chain(writtenDuration);

const ldapStaticRole: KindArbitrary = {
  kind: 'LDAPStaticRole',
  shape: 'mounted',
  ldapMounts: LDAP_MOUNTS,
  companions: ['LDAPConfig'],
  generate: perLdapMount((mount) =>
    withConfig(
      mount,
      fc
        .tuple(
          hierarchicalNames(false, 4),
          fc.shuffledSubarray([...LDAP_SERVICE_ACCOUNTS], { minLength: 4, maxLength: 4 }),
        )
        .chain(([names, accounts]) =>
          fc.tuple(
            ...names.map((name, i) => {
              const account = accounts[i] as string;
              return fc
                .record({
                  implicit: fc.boolean(),
                  dn: fc.option(accountDn(account), { nil: undefined }),
                  rotation_period: rotationPeriod,
                  skip: fc.option(fc.boolean(), { nil: undefined }),
                })
                .map(
                  ({ implicit, dn, rotation_period, skip }): ManifestDoc => ({
                    kind: 'LDAPStaticRole',
                    ...inMountOf('ldap', mount, implicit, name),
                    spec: {
                      username: account,
                      ...(dn !== undefined && { dn }),
                      rotation_period,
                      ...(skip !== undefined && { skip_import_rotation: skip }),
                    },
                  }),
                );
            }),
          ),
        ),
    ),
  ),
};

// ---- dynamic roles: templated LDIF

/** Lines of a creation LDIF's entry that use the template's fields and functions. */
const CREATION_EXTRAS = [
  'description: {{printf "%s until %s (%d)" .DisplayName .ExpirationTime .ExpirationTimeSeconds}}',
  'employeeNumber: {{.IssueTimeSeconds}}',
  'title: {{sha256 .Password | truncate 16}}',
  'l: {{timestamp "2006-01-02T15:04:05Z07:00"}} {{unix_time}} {{unix_time_millis}}',
  'st: {{.IssueTime}}',
  'carLicense: {{uuid}}',
  'displayName: {{ .RoleName | replace "/" "-" | lowercase }}',
  'initials: {{random 4 | uppercase}}',
  'street: {{truncate_sha256 20 .Username}}',
  'postalCode: {{base64 .RoleName}}',
  '# a comment the engine skips',
  'ou: {{printf "%q" .RoleName}}',
];

const creationLdif = fc
  .tuple(
    fc.constantFrom('ou=people,dc=example,dc=org', 'OU=people,DC=example,DC=org'),
    fc.subarray(CREATION_EXTRAS),
    fc.constantFrom('plain', 'add', 'version', 'group', 'ad'),
  )
  .map(([base, extras, form]) => {
    const dn = `dn: cn={{.Username}},${base}`;
    if (form === 'ad') {
      return [
        dn,
        'changetype: add',
        'objectClass: user',
        'sAMAccountName: {{truncate 20 .Username}}',
        'unicodePwd:: {{ printf "%q" .Password | utf16le | base64 }}',
        ...extras.filter((l) => l.startsWith('#')),
      ].join('\n');
    }
    const entry = [
      dn,
      ...(form === 'add' ? ['changetype: add'] : []),
      'objectClass: inetOrgPerson',
      'cn: {{.Username}}',
      'sn: {{.RoleName | uppercase}}',
      'userPassword: {{.Password}}',
      ...extras,
    ];
    const lines = form === 'version' ? ['version: 1', '', ...entry] : entry;
    if (form !== 'group') return lines.join('\n');
    return [
      ...lines,
      '',
      'dn: cn=dev,ou=groups,dc=example,dc=org',
      'changetype: modify',
      'add: member',
      `member: cn={{.Username}},${base}`,
      '-',
    ].join('\n');
  });

const deletionLdif = fc
  .tuple(fc.constantFrom('ou=people,dc=example,dc=org', 'OU=people,DC=example,DC=org'), fc.boolean())
  .map(([base, group]) =>
    [
      ...(group
        ? [
            'dn: cn=dev,ou=groups,dc=example,dc=org',
            'changetype: modify',
            'delete: member',
            `member: cn={{.Username}},${base}`,
            '-',
            '',
          ]
        : []),
      `dn: cn={{.Username}},${base}`,
      'changetype: delete',
    ].join('\n'),
  );

/** LDIF as written: LF or CRLF, trailing spaces and blank lines; `encoded` maybe base64 as a whole (wrapped or not). */
function ldifForm(text: string): fc.Arbitrary<{ plain: string; encoded: string }> {
  return fc
    .record({
      eol: fc.constantFrom('\n', '\r\n'),
      trailing: fc.constantFrom('', '\n', '\n\n', '\n\n\n', '\n \n'),
      spaces: fc.boolean(),
      base64: fc.constantFrom('no', 'no', 'line', 'wrapped'),
    })
    .map(({ eol, trailing, spaces, base64 }) => {
      const lines = text
        .split('\n')
        .map((line, i) => (spaces && i % 3 === 1 && !line.startsWith('#') ? `${line} ` : line));
      const plain = (lines.join('\n') + trailing).replaceAll('\n', eol);
      if (base64 === 'no') return { plain, encoded: plain };
      const encoded = Buffer.from(plain).toString('base64');
      return { plain, encoded: base64 === 'line' ? encoded : (encoded.match(/.{1,76}/g) ?? []).join('\n') };
    });
}

const USERNAME_TEMPLATES = [
  '{{.RoleName}}_{{random 8}}',
  '{{printf "v_%s_%s" (.DisplayName | truncate 10) (unix_time)}}',
  '{{ .RoleName | replace "/" "_" | lowercase | truncate_sha256 20 }}',
  '{{uuid}}',
  '{{sha256 .RoleName | truncate 12}}',
  '{{base64 .DisplayName}}',
  '{{timestamp "20060102150405"}}_{{unix_time_millis}}',
  '{{uppercase .RoleName}}-{{random 4 | lowercase}}',
  'fixed-prefix_{{random 20}}',
];

/** An LDIF field: written in, or read with `${file:}`, or with `${file.base64:}` from a plain file. */
function ldifField(
  field: string,
  mount: LdapMount,
  index: number,
  text: fc.Arbitrary<string>,
): fc.Arbitrary<Part & { value: string }> {
  return fc
    .tuple(text.chain(ldifForm), fc.constantFrom('inline', 'inline', 'file', 'file.base64'))
    .map(([{ plain, encoded }, via]) => {
      if (via === 'inline') return { docs: [], value: literal(encoded) };
      const file = `ldif/${mount}-${index}-${field}.ldif.tmpl`;
      return { docs: [], value: `\${${via}:${file}}`, files: { [file]: via === 'file' ? encoded : plain } };
    });
}

/**
 * Whether `rollback_ldif: ""` (the schema's default, which the engine takes
 * for "none") is written out sometimes, and roles without a rollback LDIF
 * are generated; their export writes `rollback_ldif: ""`, which loads.
 */
const EMPTY_ROLLBACK = true;

const ldapDynamicRole: KindArbitrary = {
  kind: 'LDAPDynamicRole',
  shape: 'mounted',
  ldapMounts: LDAP_MOUNTS,
  companions: ['LDAPConfig'],
  generate: perLdapMount((mount) =>
    fc.tuple(ldapConfig(mount, true), hierarchicalNames(true, 3)).chain(([config, names]) =>
      fc
        .tuple(
          ...names.map((name, i) =>
            fc
              .record({
                implicit: fc.boolean(),
                creation: ldifField('creation', mount, i, creationLdif),
                deletion: ldifField('deletion', mount, i, deletionLdif),
                // always there while EMPTY_ROLLBACK is off: export writes `rollback_ldif: ""` for a role without one
                rollback: EMPTY_ROLLBACK
                  ? fc.option(ldifField('rollback', mount, i, deletionLdif), { nil: undefined })
                  : ldifField('rollback', mount, i, deletionLdif),
                rollbackEmpty: fc.boolean(),
                username: fc.option(fc.oneof(fc.constantFrom(...USERNAME_TEMPLATES), fc.constant('')), {
                  nil: undefined,
                }),
                ttls: ttls.map(({ ttl, max_ttl }) => ({
                  ...(ttl !== undefined && { default_ttl: ttl }),
                  ...(max_ttl !== undefined && { max_ttl }),
                })),
              })
              .map(
                ({ implicit, creation, deletion, rollback, rollbackEmpty, username, ttls: lifetimes }): Part => ({
                  docs: [
                    {
                      kind: 'LDAPDynamicRole',
                      ...inMountOf('ldap', mount, implicit, name),
                      spec: {
                        creation_ldif: creation.value,
                        deletion_ldif: deletion.value,
                        ...(rollback !== undefined
                          ? { rollback_ldif: rollback.value }
                          : rollbackEmpty && EMPTY_ROLLBACK
                            ? { rollback_ldif: '' }
                            : {}),
                        ...(username !== undefined && { username_template: username }),
                        ...lifetimes,
                      },
                    },
                  ],
                  files: { ...creation.files, ...deletion.files, ...rollback?.files },
                }),
              ),
          ),
        )
        .map(
          (parts): Part => ({
            docs: [...config.docs, ...parts.flatMap((p) => p.docs)],
            env: config.env ?? {},
            files: Object.assign({}, config.files, ...parts.map((p) => p.files)),
          }),
        ),
    ),
  ),
};

/** A library set's `ttl` and `max_ttl`: either, both (ttl <= max_ttl, the 24h defaults kept in mind) or none. */
const libraryTtls: fc.Arbitrary<Record<string, string | number>> = fc
  .tuple(
    fc.oneof(fc.constantFrom(60, 3600, 36_000, 86_400), fc.integer({ min: 1, max: 30 * 86_400 })),
    fc.oneof(fc.constantFrom(60, 3600, 36_000, 86_400), fc.integer({ min: 1, max: 30 * 86_400 })),
    fc.constantFrom('both', 'ttl', 'max', 'none', 'zeros'),
  )
  .chain(([a, b, which]) => {
    const [ttl, max] = a <= b ? [a, b] : [b, a];
    if (which === 'zeros')
      return fc.tuple(writtenDuration(0), writtenDuration(0)).map(([t, m]) => ({ ttl: t, max_ttl: m }));
    if (which === 'ttl') return writtenDuration(Math.min(ttl, 86_400)).map((t) => ({ ttl: t }));
    if (which === 'max') return writtenDuration(Math.max(max, 86_400)).map((m) => ({ max_ttl: m }));
    if (which === 'none') return fc.constant({});
    return fc.tuple(writtenDuration(ttl), writtenDuration(max)).map(([t, m]) => ({ ttl: t, max_ttl: m }));
  });

/**
 * Whether library set names have upper case too. Off: the engine lower-cases
 * set names, so the schema asks for lower case (an upper-case name is a
 * validation error, in the bad-input corpus).
 */
const LIBRARY_UPPER_CASE = false;

const ldapLibrarySet: KindArbitrary = {
  kind: 'LDAPLibrarySet',
  shape: 'mounted',
  ldapMounts: LDAP_MOUNTS,
  companions: ['LDAPConfig'],
  generate: perLdapMount((mount) =>
    withConfig(
      mount,
      // lower case: the engine lower-cases set names, and the schema asks for it
      fc
        .tuple(
          hierarchicalNames(LIBRARY_UPPER_CASE, 3),
          fc.shuffledSubarray([...LDAP_SERVICE_ACCOUNTS], { minLength: LDAP_SERVICE_ACCOUNTS.length }),
        )
        .chain(([names, accounts]) =>
          // each account in one set only: consecutive slices of a shuffled pool, 1 to 4 each
          fc.tuple(...names.map(() => fc.integer({ min: 1, max: 4 }))).chain((sizes) => {
            let at = 0;
            const sets = sizes.map((size) => {
              const slice = accounts.slice(at, at + size);
              at += size;
              return slice;
            });
            return fc.tuple(
              ...names.map((name, i) => {
                const own = sets[i] ?? [];
                return fc
                  .record({
                    implicit: fc.boolean(),
                    ordered: fc.shuffledSubarray(own, { minLength: own.length }),
                    lifetimes: libraryTtls,
                    rest: partial({ disable_check_in_enforcement: fc.boolean() }),
                  })
                  .map(
                    ({ implicit, ordered, lifetimes, rest }): ManifestDoc => ({
                      kind: 'LDAPLibrarySet',
                      ...inMountOf('ldap', mount, implicit, name),
                      spec: { service_account_names: ordered, ...lifetimes, ...rest },
                    }),
                  );
              }),
            );
          }),
        ),
    ),
  ),
};

// ---------------------------------------------------------------- the module registry (platform API)

/** The organization whose registry the emulator serves (admin, whose token runs converge, is in its owners team). */
export const REGISTRY_ORG = 'example-org';

/** The realistic modules of examples/modules, by absolute path (never changed by a test). */
export const FIXTURE_MODULES: readonly string[] = ['network', 'storage', 'dns'].map((name) =>
  fileURLToPath(new URL(`../../examples/modules/${name}`, import.meta.url)),
);

/** A pre-release or build identifier: alphanumerics and `-`, a number without leading zeros. */
const semverIdentifier = fc.oneof(
  fc.stringMatching(/^[A-Za-z][0-9A-Za-z-]{0,6}$/),
  fc.nat({ max: 99 }).map(String),
  fc.constantFrom('alpha', 'beta', 'rc', 'pre-1', 'x-y-z'),
);

/**
 * A semantic version as the registry takes it: `N.N.N`, maybe a pre-release
 * (`-rc.1`) and build metadata (`+build.5`). Versions of one module are
 * unique without their build metadata (`moduleVersionKey`), which semver ignores.
 */
export const moduleVersion: fc.Arbitrary<string> = fc
  .tuple(
    fc.nat({ max: 20 }),
    fc.nat({ max: 120 }),
    fc.nat({ max: 300 }),
    fc.option(fc.array(semverIdentifier, { minLength: 1, maxLength: 3 }), { nil: undefined, freq: 3 }),
    fc.option(fc.array(fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/), { minLength: 1, maxLength: 2 }), {
      nil: undefined,
      freq: 6,
    }),
  )
  .map(
    ([major, minor, patch, pre, build]) =>
      `${major}.${minor}.${patch}${pre ? `-${pre.join('.')}` : ''}${build ? `+${build.join('.')}` : ''}`,
  );

/** What makes two versions the same one for the registry: the version without its build metadata. */
export const moduleVersionKey = (version: string) => version.split('+')[0] ?? version;

/** Text that is safe in an HCL string (no quotes, backslashes or template sequences). */
const hclText = fc.stringMatching(/^[A-Za-z0-9 ,.:()_-]{0,30}$/);
const TF_TYPES: Record<string, string> = {
  string: '"example"',
  number: '3',
  bool: 'true',
  'list(string)': '["a", "b"]',
  'map(string)': '{ team = "platform" }',
};

/** A module's `main.tf` (variables, maybe a local and an output), `outputs.tf` and README: a small module the registry parses. */
export const moduleContent: fc.Arbitrary<Record<string, string>> = fc
  .record({
    nonce: fc.stringMatching(/^[0-9a-f]{8}$/),
    variables: fc.uniqueArray(
      fc.record({
        name: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
        type: fc.constantFrom(...Object.keys(TF_TYPES)),
        description: fc.option(hclText, { nil: undefined }),
        withDefault: fc.boolean(),
        sensitive: fc.boolean(),
      }),
      { maxLength: 4, selector: (v) => v.name },
    ),
    outputs: fc.boolean(),
    readme: fc.option(fc.string({ maxLength: 60, unit: 'grapheme' }), { nil: undefined }),
  })
  .map(({ nonce, variables, outputs, readme }) => {
    const blocks = variables.map((v) =>
      [
        `variable "${v.name}" {`,
        `  type = ${v.type}`,
        ...(v.description !== undefined ? [`  description = "${v.description}"`] : []),
        ...(v.withDefault ? [`  default = ${TF_TYPES[v.type]}`] : []),
        ...(v.sensitive ? ['  sensitive = true'] : []),
        '}',
      ].join('\n'),
    );
    const files: Record<string, string> = {
      'main.tf': [`# content ${nonce}`, ...blocks, `locals {\n  nonce = "${nonce}"\n}`, ''].join('\n\n'),
    };
    if (outputs) {
      const first = variables[0];
      files['outputs.tf'] = `output "value" {\n  value = ${first ? `var.${first.name}` : 'local.nonce'}\n}\n`;
    }
    if (readme !== undefined) files['README.md'] = `# A module\n\n${readme}\n`;
    return files;
  });

/** A version item of a module's `spec.versions`, and the content it needs on disk. */
interface VersionPart {
  item: Record<string, unknown>;
  files: Record<string, string>;
  archives: Record<string, string>;
  /** The directory the content is made from (relative: generated; absolute: a fixture). */
  dir: string;
}

/**
 * One version under `base` (a directory relative to the manifest): its own
 * module directory as `source:` (written `./` first sometimes), packed into
 * `archive:`, or a fixture module as either (absolute paths).
 */
function versionPart(base: string, version: string): fc.Arbitrary<VersionPart> {
  const dir = `${base}/${version}`;
  return fc
    .tuple(
      fc.constantFrom('source', 'source', 'dotted-source', 'archive', 'archive', 'fixture-source', 'fixture-archive'),
      moduleContent,
      fc.constantFrom(...FIXTURE_MODULES),
    )
    .map(([form, content, fixture]): VersionPart => {
      const files = Object.fromEntries(Object.entries(content).map(([name, text]) => [`${dir}/${name}`, text]));
      const archive = `${dir}.tar.gz`;
      switch (form) {
        case 'source':
          return { item: { version, source: dir }, files, archives: {}, dir };
        case 'dotted-source':
          return { item: { version, source: `./${dir}/` }, files, archives: {}, dir };
        case 'archive':
          return { item: { version, archive }, files, archives: { [archive]: dir }, dir };
        case 'fixture-source':
          return { item: { version, source: fixture }, files: {}, archives: {}, dir: fixture };
        default:
          return { item: { archive, version }, files: {}, archives: { [archive]: fixture }, dir: fixture };
      }
    });
}

const moduleNameArb = fc.oneof(
  fc.constantFrom('network', 'storage', 'dns', 'vpc', 'k8s-cluster', 'db_primary', 'Net2', 'a', `m${'x'.repeat(62)}`),
  fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,14}[A-Za-z0-9])?$/),
);
const providerNameArb = fc.oneof(
  fc.constantFrom('aws', 'azurerm', 'google', 'null', 'random', 'tls'),
  fc.stringMatching(/^[a-z0-9]{1,10}$/),
);
const namespaceArb = fc.oneof(
  fc.constantFrom('hashicorp', 'terraform-aws-modules', 'Azure', 'cloudposse'),
  fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,10}[A-Za-z0-9])?$/),
);

/** `test-config`: on, off, left out, or an empty object. */
const testConfig = fc.constantFrom<Record<string, unknown>>(
  { 'test-config': { 'tests-enabled': true } },
  { 'test-config': { 'tests-enabled': false } },
  {},
  { 'test-config': {} },
);

/** A module's part of a case: its document, the content of its versions, the archives to make. */
interface ModulePart {
  docs: ManifestDoc[];
  files: Record<string, string>;
  archives: Record<string, string>;
  env?: Record<string, string>;
}

/** A private module without VCS: 0-`maxVersions` versions, test-config on/off/absent, no-code maybe. */
function privateModule(
  name: string,
  provider: string,
  options: { maxVersions: number; sourceOnly?: boolean },
): fc.Arbitrary<ModulePart> {
  return fc
    .record({
      tests: testConfig,
      noCode: fc.option(fc.boolean(), { nil: undefined }),
      explicitRegistry: fc.boolean(),
      emptyList: fc.boolean(),
      versions: fc.uniqueArray(moduleVersion, { maxLength: options.maxVersions, selector: moduleVersionKey }),
    })
    .chain(({ tests, noCode, explicitRegistry, emptyList, versions }) => {
      const base = `modules/${name}-${provider}`;
      const parts =
        versions.length === 0
          ? fc.constant([] as VersionPart[])
          : fc.tuple(...versions.map((v) => versionPart(base, v)));
      return parts.map((list): ModulePart => {
        const items = options.sourceOnly
          ? list.map((p) => ({ version: p.item.version, source: p.dir }))
          : list.map((p) => p.item);
        const spec: Record<string, unknown> = {
          ...tests,
          ...(noCode !== undefined && { 'no-code': noCode }),
          ...((items.length > 0 || emptyList) && { versions: items }),
        };
        return {
          docs: [
            {
              kind: 'RegistryModule',
              metadata: {
                organization: REGISTRY_ORG,
                name,
                provider,
                ...(explicitRegistry && { registry: 'private' as const }),
              },
              spec,
            },
          ],
          files: Object.assign({}, ...list.map((p) => p.files)),
          archives: Object.assign({}, ...list.map((p) => (options.sourceOnly ? {} : p.archives))),
        };
      });
    });
}

/** A record of a publicly curated module: its identity, maybe no-code, nothing else. */
function publicRecord(namespace: string, name: string, provider: string): fc.Arbitrary<ModulePart> {
  return fc.option(fc.boolean(), { nil: undefined }).map((noCode) => ({
    docs: [
      {
        kind: 'RegistryModule',
        metadata: { organization: REGISTRY_ORG, name, provider, registry: 'public', namespace },
        spec: noCode === undefined ? {} : { 'no-code': noCode },
      },
    ],
    files: {},
    archives: {},
  }));
}

/** Module parts as one case, documents shuffled. */
function registryCase(parts: fc.Arbitrary<readonly ModulePart[]>): fc.Arbitrary<Generated> {
  return parts
    .map((list): Generated => {
      const out: Generated = { docs: [], env: {}, files: {}, archives: {} };
      for (const part of list) {
        out.docs.push(...part.docs);
        Object.assign(out.env, part.env);
        Object.assign(out.files ?? {}, part.files);
        Object.assign(out.archives ?? {}, part.archives);
      }
      return out;
    })
    .chain((g) => fc.shuffledSubarray(g.docs, { minLength: g.docs.length }).map((docs) => ({ ...g, docs })));
}

/** Module identities, unique the way the registry sees them (names are compared without case). */
const moduleIdentities = fc.uniqueArray(
  fc.record({
    registry: fc.constantFrom('private', 'private', 'private', 'public'),
    namespace: namespaceArb,
    name: moduleNameArb,
    provider: providerNameArb,
  }),
  {
    minLength: 1,
    maxLength: 3,
    selector: (m) =>
      `${m.registry}/${m.registry === 'public' ? m.namespace.toLowerCase() : ''}/${m.name.toLowerCase()}/${m.provider}`,
  },
);

/**
 * Whether public records are generated: the emulator curates public modules
 * by default (seed `registry.publicCuration`), as the hosted service does.
 */
const PUBLIC_RECORDS = true;

const registryModuleKind: KindArbitrary = {
  kind: 'RegistryModule',
  shape: 'collection',
  registryOrganizations: [REGISTRY_ORG],
  generate: registryCase(
    moduleIdentities.chain((identities) =>
      fc.tuple(
        ...identities.map((m) =>
          m.registry === 'public' && PUBLIC_RECORDS
            ? publicRecord(m.namespace, m.name, m.provider)
            : privateModule(m.name, m.provider, { maxVersions: 4 }),
        ),
      ),
    ),
  ),
};

/** Private modules and their versions, each version's content generated (never a fixture): their content can be changed. */
export const OWN_CONTENT_MODULES: fc.Arbitrary<Generated> = registryCase(
  fc
    .uniqueArray(fc.tuple(moduleNameArb, providerNameArb), {
      minLength: 1,
      maxLength: 2,
      selector: ([name, provider]) => `${name.toLowerCase()}/${provider}`,
    })
    .chain((identities) =>
      fc.tuple(
        ...identities.map(([name, provider]) =>
          fc
            .record({
              tests: testConfig,
              versions: fc.uniqueArray(fc.tuple(moduleVersion, fc.boolean(), moduleContent), {
                minLength: 1,
                maxLength: 3,
                selector: ([v]) => moduleVersionKey(v),
              }),
            })
            .map(({ tests, versions }): ModulePart => {
              const base = `modules/${name}-${provider}`;
              const files: Record<string, string> = {};
              const archives: Record<string, string> = {};
              const items = versions.map(([version, asArchive, content]) => {
                const dir = `${base}/${version}`;
                for (const [file, text] of Object.entries(content)) files[`${dir}/${file}`] = text;
                if (!asArchive) return { version, source: dir };
                archives[`${dir}.tar.gz`] = dir;
                return { version, archive: `${dir}.tar.gz` };
              });
              return {
                docs: [
                  {
                    kind: 'RegistryModule',
                    metadata: { organization: REGISTRY_ORG, name, provider },
                    spec: { ...tests, versions: items },
                  },
                ],
                files,
                archives,
              };
            }),
        ),
      ),
    ),
);

/** Test variable keys: a letter or `_` first, then letters, digits and `_`. */
const variableKey = fc.oneof(
  fc.constantFrom('TF_VAR_region', 'AWS_REGION', '_private', 'x', 'TF_LOG', 'A1_b2', '_', 'TF_VAR_cidr_block'),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/),
);

/** One variable's spec: a value (maybe empty, maybe left out), a description, `category: env`, sensitive from `${env:}`. */
function testVariable(envName: string): fc.Arbitrary<{ spec: Record<string, unknown>; env: Record<string, string> }> {
  return fc
    .record({
      sensitive: fc.constantFrom('true', 'true', 'false', 'absent'),
      value: fc.option(freeText, { nil: undefined, freq: 5 }),
      secretValue: fc.oneof(secretValue, fc.constant(''), fc.string({ maxLength: 20, unit: 'grapheme' })),
      viaEnv: fc.nat({ max: 5 }),
      description: fc.option(freeText, { nil: undefined }),
      category: fc.option(fc.constant('env'), { nil: undefined }),
    })
    .map(({ sensitive, value, secretValue: secretText, viaEnv, description, category }) => {
      const env: Record<string, string> = {};
      const spec: Record<string, unknown> = {};
      if (sensitive === 'true' || viaEnv === 0) {
        // a sensitive value comes from the environment (and sometimes a plain one does too)
        spec.value = `\${env:${envName}}`;
        // an empty secret is refused at validate (it would blank the live one): a plain value may be empty
        env[envName] = sensitive === 'true' && secretText === '' ? 'a-sensitive-value' : secretText;
      } else if (value !== undefined) {
        spec.value = value;
      }
      if (sensitive !== 'absent') spec.sensitive = sensitive === 'true';
      if (description !== undefined) spec.description = description;
      if (category !== undefined) spec.category = category;
      return { spec, env };
    });
}

const moduleTestVariableKind: KindArbitrary = {
  kind: 'ModuleTestVariable',
  shape: 'collection',
  registryOrganizations: [REGISTRY_ORG],
  companions: ['RegistryModule'],
  generate: registryCase(
    fc
      .uniqueArray(fc.tuple(moduleNameArb, providerNameArb), {
        minLength: 1,
        maxLength: 2,
        selector: ([name, provider]) => `${name.toLowerCase()}/${provider}`,
      })
      .chain((modules) =>
        fc.tuple(
          ...modules.map(([name, provider], m) =>
            fc
              .tuple(
                privateModule(name, provider, { maxVersions: 1, sourceOnly: true }),
                fc.uniqueArray(variableKey, { minLength: 1, maxLength: 4, selector: (k) => k.toLowerCase() }),
              )
              .chain(([module, keys]) =>
                fc.tuple(...keys.map((_, k) => testVariable(`MTV_${m}_${k}`))).map((variables): ModulePart => {
                  const docs: ManifestDoc[] = variables.map(({ spec }, k) => ({
                    kind: 'ModuleTestVariable',
                    metadata: { organization: REGISTRY_ORG, module: `${name}/${provider}`, name: keys[k] ?? '' },
                    spec,
                  }));
                  return {
                    ...module,
                    docs: [...module.docs, ...docs],
                    env: Object.assign({}, ...variables.map((v) => v.env)),
                  };
                }),
              ),
          ),
        ),
      ),
  ),
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
  sshRole,
  sshCertificateAuthority,
  sshZeroAddress,
  ldapConfigKind,
  ldapStaticRole,
  ldapDynamicRole,
  ldapLibrarySet,
  registryModuleKind,
  moduleTestVariableKind,
];
