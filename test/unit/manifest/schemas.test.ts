import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_DURATION_SECONDS } from '../../../src/manifest/duration.ts';
import { CompiledSchemas } from '../../../src/manifest/schema-compiler.ts';
import { DEFAULT_SCHEMA_DIR, schemaSet } from '../../../src/manifest/schemas.ts';

type Schema = { [key: string]: unknown };

const WRITABLE: Record<string, string[]> = {
  GeneralSettings: [
    'limit-user-organization-creation',
    'api-rate-limiting-enabled',
    'api-rate-limit',
    'plan-timeout',
    'apply-timeout',
    'send-passing-statuses-for-untriggered-speculative-plans',
    'allow-speculative-plans-on-pull-requests-from-forks',
    'default-remote-state-access',
    'engine-build-worker-plan-timeout',
    'engine-build-worker-apply-timeout',
  ],
  CostEstimationSettings: [
    'enabled',
    'cloud-a-access-key-id',
    'cloud-a-secret-key',
    'cloud-b-credentials',
    'cloud-c-client-id',
    'cloud-c-client-secret',
    'cloud-c-subscription-id',
    'cloud-c-tenant-id',
  ],
  SAMLSettings: [
    'enabled',
    'debug',
    'idp-cert',
    'slo-endpoint-url',
    'sso-endpoint-url',
    'attr-username',
    'attr-groups',
    'attr-site-admin',
    'site-admin-role',
    'sso-api-token-session-timeout',
  ],
  SMTPSettings: ['enabled', 'host', 'port', 'sender', 'auth', 'username', 'password', 'test-email-address'],
  SMSSettings: ['enabled', 'account-sid', 'auth-token', 'from-number'],
  CustomizationSettings: ['support-email-address', 'login-help', 'footer', 'error', 'new-user'],
  ToolVersion: ['url', 'sha', 'deprecated', 'deprecated-reason', 'official', 'enabled', 'beta'],
  PolicyVersion: ['url', 'sha', 'deprecated', 'deprecated-reason', 'official', 'enabled', 'beta'],
  AdminUser: ['is-admin', 'is-suspended'],
};

const WRITE_ONLY: Record<string, string[]> = {
  CostEstimationSettings: WRITABLE.CostEstimationSettings!.filter((f) => f !== 'enabled'),
  SMTPSettings: ['password', 'test-email-address'],
  SMSSettings: ['auth-token'],
};

function read(kind: string): Schema {
  return JSON.parse(readFileSync(join(DEFAULT_SCHEMA_DIR, `${kind}.schema.json`), 'utf8')) as Schema;
}

function specOf(schema: Schema): Schema {
  return (schema.properties as Schema).spec as Schema;
}

/** Every named property of every object schema, with its dotted place. */
function properties(node: unknown, where: string, out: Array<[string, Schema]> = []): Array<[string, Schema]> {
  if (node === null || typeof node !== 'object') return out;
  const schema = node as Schema;
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Schema)) {
    if (typeof child === 'object') out.push([`${where}.${name}`, child as Schema]);
    properties(child, `${where}.${name}`, out);
  }
  for (const [name, child] of Object.entries((schema.definitions ?? {}) as Schema)) properties(child, `#${name}`, out);
  return out;
}

describe('schemas/', () => {
  it('holds exactly one schema per admin kind', () => {
    const files = readdirSync(DEFAULT_SCHEMA_DIR).filter((f) => f.endsWith('.schema.json'));
    expect(files.map((f) => f.replace('.schema.json', '')).sort()).toEqual(
      expect.arrayContaining(Object.keys(WRITABLE).sort()),
    );
  });

  // one ajv for every kind, as a run compiles them (src/manifest/schema-compiler.ts): a fresh one per
  // kind compiled the meta-schema again each time, and would not see two kinds that clash
  const compiled = new CompiledSchemas(DEFAULT_SCHEMA_DIR);

  describe.each(Object.keys(WRITABLE))('%s', (kind) => {
    const schema = read(kind);

    it('names itself and describes the kind', () => {
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(schema.$id).toBe(`https://converge.dev/schemas/${kind}.schema.json`);
      expect(schema.title).toBe(kind);
      expect(String(schema.description).length).toBeGreaterThan(20);
      expect((schema.properties as Schema).kind).toMatchObject({ const: kind });
    });

    it('describes every field, for editor completion', () => {
      const fields = properties(schema, kind);
      expect(fields.length).toBeGreaterThan(3);
      for (const [where, field] of fields) expect(typeof field.description, where).toBe('string');
    });

    it('allows exactly the writable API attributes in spec', () => {
      const spec = specOf(schema);
      expect(spec.additionalProperties).toBe(false);
      expect(Object.keys(spec.properties as Schema)).toEqual(WRITABLE[kind]);
    });

    it('marks write-only attributes, so that problems never echo their values', () => {
      const spec = specOf(schema).properties as Record<string, Schema>;
      const writeOnly = Object.keys(spec).filter((name) => spec[name]?.writeOnly === true);
      expect(writeOnly).toEqual(WRITE_ONLY[kind] ?? []);
    });

    it('compiles under ajv strict mode', () => {
      expect(() => compiled.validator(kind)).not.toThrow();
    });
  });

  it('keeps the shared definitions identical in every schema', () => {
    const seen = new Map<string, string>();
    for (const kind of Object.keys(WRITABLE)) {
      for (const [name, definition] of Object.entries(read(kind).definitions as Schema)) {
        const text = JSON.stringify(definition);
        expect(seen.get(name) ?? text, `${kind} #/definitions/${name}`).toBe(text);
        seen.set(name, text);
      }
    }
    expect([...seen.keys()].sort()).toEqual(['duration', 'labels']);
  });

  it('gives every kind with durations one rule for them, its limit the one converge keeps', () => {
    // each schema stands alone (an editor reads one file), so the kinds' copies differ only in
    // their examples: what they accept, and the limit their message names, must be one
    const rules = new Set<string>();
    for (const file of readdirSync(DEFAULT_SCHEMA_DIR).filter((f) => f.endsWith('.schema.json'))) {
      const schema = JSON.parse(readFileSync(join(DEFAULT_SCHEMA_DIR, file), 'utf8')) as Schema;
      const duration = (schema.definitions as Schema | undefined)?.duration as Schema | undefined;
      if (!duration) continue;
      const { description: _, errorMessage, ...rule } = duration;
      expect(errorMessage, file).toMatch(/, at most 2562047h \(9223372036 seconds\)$/);
      rules.add(JSON.stringify(rule));
    }
    expect([...rules].map((rule) => JSON.parse(rule))).toEqual([
      {
        type: ['string', 'integer'],
        pattern: '^(?:[0-9]+(?:\\.[0-9]+)?(?:ns|us|µs|ms|h|m|s))+$|^[0-9]+$',
        minimum: 0,
        maximum: MAX_DURATION_SECONDS,
      },
    ]);
  });

  it('tells which JSON types a path wants, through $refs', async () => {
    const schemas = await schemaSet();
    expect(schemas.typesAt('SMTPSettings', 'spec.port')).toEqual(['integer']);
    expect(schemas.typesAt('GeneralSettings', 'spec.plan-timeout')).toEqual(['string', 'integer']);
    expect(schemas.typesAt('ToolVersion', 'spec.deprecated-reason')).toEqual(['string', 'null']);
    expect(schemas.typesAt('ToolVersion', 'metadata.labels.team')).toEqual(['string']);
    expect(schemas.typesAt('ToolVersion', 'spec.nope')).toBeUndefined();
  });

  it('is reachable from the modelines of the test manifests', () => {
    const good = fileURLToPath(new URL('../../fixtures/manifests/good/', import.meta.url));
    const files = readdirSync(good, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
    const modelines = files.flatMap((file) =>
      [...readFileSync(join(good, file), 'utf8').matchAll(/# yaml-language-server: \$schema=(\S+)/g)].map((m) =>
        resolve(dirname(join(good, file)), m[1]!),
      ),
    );
    expect(modelines.length).toBeGreaterThan(3);
    for (const target of modelines) expect(target.startsWith(resolve(DEFAULT_SCHEMA_DIR))).toBe(true);
    for (const target of modelines) expect(() => readFileSync(target)).not.toThrow();
  });
});
