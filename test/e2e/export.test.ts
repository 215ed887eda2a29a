// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * `converge export` as a process against the emulator: what it writes, and
 * the round trip that makes it useful: the exported manifests validate and
 * plan clean against the server they came from, for every kind.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_DIRECTORY_URL } from '../../src/emulator/secrets/seed.ts';
import type { RunningEmulator } from '../../src/emulator/server.ts';
import { providers } from '../../src/providers/index.ts';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { documentValidator } from '../helpers/document-schema.ts';
import { filesBelow } from '../helpers/files-below.ts';

/** The example repository's staging environment: what every environment shares, and its own objects. */
const EXAMPLES = ['base', 'environments/staging'].map((dir) =>
  fileURLToPath(new URL(`../../examples/${dir}/`, import.meta.url)),
);
const SMTP_PASSWORD = 'canary-export-smtp-password-4410';
const KINDS = providers.map((p) => p.kind);
/** Kinds whose objects live in organizations: exported only for the organizations named with --scope. */
const IN_ORGANIZATIONS = providers.filter((p) => p.scoped && !p.address({}).scope).map((p) => p.kind);
const EXPORTED_BY_DEFAULT = KINDS.filter((k) => !IN_ORGANIZATIONS.includes(k));
/** A module's versions: exported with their module, not a kind of their own. */
const VERSIONS = 'RegistryModuleVersion';

/**
 * The readable values the examples take from `${env:}` (examples/base/ldap/config.yaml's `url`), by
 * the variable export writes for each: the fingerprint store knows they were secrets, so export
 * writes a placeholder, which a round trip fills with the same value again.
 */
const HELD: Record<string, string> = { LDAP_CONFIG_LDAP_URL: MEMORY_DIRECTORY_URL };

let target: CliTarget;
let emulator: RunningEmulator;
let scratch: string;

const run: CliTarget['run'] = (args, extra) => target.run(args, extra);

const files = filesBelow;

/**
 * A value for every variable `.env.example` lists: any value for a write-only field (not compared
 * without a store), the value it stands for where a readable field held a secret (compared).
 */
async function placeholderEnv(dir: string): Promise<Record<string, string>> {
  // no write-only field exported, no .env.example
  const text = await readFile(join(dir, '.env.example'), 'utf8').catch(() => '');
  const names = [...text.matchAll(/^([A-Z0-9_]+)=$/gm)].map((m) => m[1]!);
  return Object.fromEntries(names.map((n) => [n, HELD[n] ?? `value-for-${n.toLowerCase()}`]));
}

/** plan --json of a directory: exit code and every action. */
async function planOf(dir: string, extra: Record<string, string>) {
  const result = await run(['plan', dir, '--json', '--detailed-exitcode'], { ...NO_FINGERPRINTS, ...extra });
  const actions =
    result.code === 1
      ? []
      : (JSON.parse(result.stdout).plan.actions as Array<{ key: string; kind: string; action: string }>);
  return { ...result, actions };
}

beforeAll(async () => {
  target = await cliTarget('export', { SMTP_PASSWORD });
  ({ emulator, scratch } = target);
  // what is exported: the examples, applied in-process (the state an apply leaves, not what is tested)
  await seedApply(target, EXAMPLES);
  // a live text holding `${`, which export must keep literal
  const response = await fetch(`${emulator.url}/api/v2/admin/customization-settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({
      data: { type: 'customization-settings', attributes: { footer: 'Costs ${HOME} nothing | `ok` <b>' } },
    }),
  });
  expect(response.status).toBe(200);
  // a duration in a unit the platform takes and converge writes otherwise: 1500ms is 1.5s
  const timeout = await fetch(`${emulator.url}/api/v2/admin/general-settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'general-settings', attributes: { 'apply-timeout': '1500ms' } } }),
  });
  expect(timeout.status).toBe(200);
});
afterAll(() => target?.close());

describe('converge export', () => {
  let out: string;
  let stdout: string;
  let stderr: string;

  beforeAll(async () => {
    out = join(scratch, 'exported');
    const result = await run(['export', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    ({ stdout, stderr } = result);
  });

  it('writes one file per kind with a schema modeline, and .env.example', async () => {
    expect(await files(out)).toEqual([
      '.env.example',
      'admin-user.yaml',
      'cost-estimation-settings.yaml',
      'customization-settings.yaml',
      'general-settings.yaml',
      'ldap-config.yaml',
      'ldap-dynamic-role.yaml',
      'ldap-library-set.yaml',
      'ldap-static-role.yaml',
      'policy-version.yaml',
      'saml-settings.yaml',
      'sms-settings.yaml',
      'smtp-settings.yaml',
      'ssh-certificate-authority.yaml',
      'ssh-role.yaml',
      'ssh-zero-address.yaml',
      'tool-version.yaml',
    ]);
    const tools = await readFile(join(out, 'tool-version.yaml'), 'utf8');
    const modeline = tools.split('\n')[0]!;
    expect(modeline).toMatch(/^# yaml-language-server: \$schema=(\.\.\/)+.*schemas\/ToolVersion\.schema\.json$/);
    // the relative path leads to the real schema
    const target = join(out, modeline.split('$schema=')[1]!);
    expect(JSON.parse(await readFile(target, 'utf8')).title).toBe('ToolVersion');
    // every file: the manifests and .env.example
    expect(stdout).toContain(
      'Exported 24 object(s) of 16 kind(s) to exported in 17 file(s) (16 manifest(s), .env.example).',
    );
    expect(stdout).toContain(
      '2 write-only field(s) and 1 value(s) that were secret when converge applied them written as ${env:NAME} placeholders',
    );
  });

  it('writes write-only fields as placeholders that .env.example lists, never a secret value', async () => {
    const smtp = await readFile(join(out, 'smtp-settings.yaml'), 'utf8');
    expect(smtp).toMatch(/^ {2}password: \$\{env:SMTP_SETTINGS_PASSWORD\} # write-only/m);
    expect(smtp).toContain('host: smtp.example.com');
    const example = await readFile(join(out, '.env.example'), 'utf8');
    for (const file of await files(out)) {
      const text = await readFile(join(out, file), 'utf8');
      expect(text).not.toContain(SMTP_PASSWORD);
      expect(text).not.toContain(emulator.tokens.admin);
      for (const m of text.matchAll(/\$\{env:([A-Z0-9_]+)\}/g)) expect(example).toMatch(new RegExp(`^${m[1]}=$`, 'm'));
    }
    expect(example).toContain('# SMTPSettings spec.password (smtp-settings.yaml)\nSMTP_SETTINGS_PASSWORD=');
  });

  it('--json prints a converge-export document that its schema accepts, naming what was written', async () => {
    const dir = join(scratch, 'exported-json');
    const result = await run(['export', '--out', dir, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout);
    const validate = await documentValidator('converge-export');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc).toMatchObject({
      format: 'converge-export',
      version: 1,
      out: dir,
      objects: 24,
      envExample: '.env.example',
    });
    // the same files as the text export's, each with its objects
    expect([...doc.files.map((f: { path: string }) => f.path), '.env.example'].sort()).toEqual(await files(dir));
    expect(doc.kinds.map((k: { kind: string }) => k.kind)).toEqual(EXPORTED_BY_DEFAULT);
    expect(doc.skipped).toEqual(IN_ORGANIZATIONS.map((kind) => ({ kind, reason: 'needs-scope' })));
    // every placeholder's variable, as .env.example lists them; names, never values
    const example = await readFile(join(dir, '.env.example'), 'utf8');
    expect(doc.placeholders.map((p: { name: string }) => p.name)).toEqual(
      [...example.matchAll(/^([A-Z0-9_]+)=$/gm)].map((m) => m[1]),
    );
    expect(doc.placeholders).toContainEqual({
      name: 'SMTP_SETTINGS_PASSWORD',
      object: 'SMTPSettings',
      field: 'password',
      file: 'smtp-settings.yaml',
    });
    expect(result.stdout).not.toContain(SMTP_PASSWORD);
    // progress stays on stderr
    expect(result.stderr).toMatch(/Read \d+ live object/);
    expect(validate({ ...doc, version: 2 })).toBe(false);
  });

  it('exports admin users as their two flags only', async () => {
    const users = await readFile(join(out, 'admin-user.yaml'), 'utf8');
    expect(users).toContain('name: owner\nspec:\n  is-admin: true\n  is-suspended: false');
    expect(users).not.toContain('email');
  });

  it('round trip: the export validates and plans no change against the same server, for every kind', async () => {
    const placeholders = await placeholderEnv(out);
    const valid = await run(['validate', out, '--json'], placeholders);
    expect(valid.code, valid.stderr).toBe(0);
    expect(Object.keys(JSON.parse(valid.stdout).kinds).sort()).toEqual([...EXPORTED_BY_DEFAULT].sort());

    const plan = await planOf(out, placeholders);
    expect(plan.code, plan.stderr).toBe(0);
    expect(new Set(plan.actions.map((a) => a.kind))).toEqual(new Set(EXPORTED_BY_DEFAULT));
    expect(plan.actions.filter((a) => a.action !== 'noop')).toEqual([]);
    expect(JSON.parse(plan.stdout).plan.unmanaged).toEqual([]);
  });

  it('says which kinds need --scope, and round-trips them for the organization named', async () => {
    expect(stdout + stderr).toContain(`Skipping ${IN_ORGANIZATIONS.join(', ')}: their objects live in organizations`);
    const dir = join(scratch, 'registry');
    const result = await run(['export', '--out', dir, '--kind', IN_ORGANIZATIONS.join(','), '--scope', 'example-org']);
    expect(result.code, result.stderr).toBe(0);
    const plan = await planOf(dir, await placeholderEnv(dir));
    expect(plan.code, plan.stderr).toBe(0);
    // the modules' versions come with them, their archives downloaded (test/e2e/export-modules.test.ts)
    expect(new Set(plan.actions.map((a) => a.kind))).toEqual(new Set([...IN_ORGANIZATIONS, VERSIONS]));
    expect(plan.actions.filter((a) => a.action !== 'noop')).toEqual([]);
  });

  it("writes a duration in a unit of the platform's that converge reads back the same", async () => {
    expect(await readFile(join(out, 'general-settings.yaml'), 'utf8')).toContain('apply-timeout: 1.5s');
  });

  it('keeps a literal ${ in a live value literal', async () => {
    const text = await readFile(join(out, 'customization-settings.yaml'), 'utf8');
    expect(text).toContain('Costs $${HOME} nothing');
  });

  it('refuses to overwrite existing files without --force, and overwrites with it', async () => {
    const file = join(out, 'tool-version.yaml');
    await writeFile(file, '# edited by hand\n');
    const refused = await run(['export', '--out', out, '--kind', 'ToolVersion']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('export would overwrite 1 existing file(s)');
    expect(refused.stderr).toContain('tool-version.yaml');
    expect(refused.stderr).toContain('--force');
    expect(await readFile(file, 'utf8')).toBe('# edited by hand\n');

    const forced = await run(['export', '--out', out, '--kind', 'ToolVersion', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('kind: ToolVersion');
  });
});

describe('a value that was secret stays secret (docs/security.md)', () => {
  // examples/base/ldap/config.yaml applies `url: ${env:LDAP_URL}`: the seed's store holds an entry for it
  const url = MEMORY_DIRECTORY_URL;
  /** The round trip's variables: each set to what it stands for, as the store compares the password too. */
  const given = () => ({ LDAP_CONFIG_LDAP_URL: url, LDAP_CONFIG_LDAP_BINDPASS: target.env.LDAP_BINDPASS! });

  /** plan --json of a directory with the target's store: exit code and its actions. */
  async function storedPlan(dir: string, env: Record<string, string>) {
    const plan = await run(['plan', dir, '--json', '--detailed-exitcode'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain(url);
    return JSON.parse(plan.stdout).plan.actions as Array<{ key: string; action: string }>;
  }

  it('writes a readable field the fingerprint store knows held a secret as a placeholder, and round-trips', async () => {
    const dir = join(scratch, 'held');
    const result = await run(['export', '--out', dir, '--kind', 'LDAPConfig']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(url);
    const config = await readFile(join(dir, 'ldap-config.yaml'), 'utf8');
    expect(config).toMatch(
      /^ {2}url: \$\{env:LDAP_CONFIG_LDAP_URL\} # secret when converge applied it: set LDAP_CONFIG_LDAP_URL/m,
    );
    for (const file of await files(dir)) expect(await readFile(join(dir, file), 'utf8')).not.toContain(url);
    expect(await readFile(join(dir, '.env.example'), 'utf8')).toContain(
      '# LDAPConfig/ldap spec.url (ldap-config.yaml)\nLDAP_CONFIG_LDAP_URL=\n',
    );
    const valid = await run(['validate', dir], given());
    expect(valid.code, valid.stderr).toBe(0);
    expect(await storedPlan(dir, given())).toEqual([
      expect.objectContaining({ key: 'LDAPConfig/ldap', action: 'noop' }),
    ]);
    // --json says which placeholder stands for a value that was secret, in a document its schema takes
    const json = await run(['export', '--out', join(scratch, 'held-json'), '--kind', 'LDAPConfig', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    const validate = await documentValidator('converge-export');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.placeholders).toContainEqual(
      expect.objectContaining({ name: 'LDAP_CONFIG_LDAP_URL', field: 'url', wasSecret: true }),
    );
    expect(doc.placeholders.find((p: { field: string }) => p.field === 'bindpass')).not.toHaveProperty('wasSecret');
    expect(json.stdout).not.toContain(url);
  });

  it('writes the field as read without a fingerprint store', async () => {
    const dir = join(scratch, 'held-no-store');
    const result = await run(['export', '--out', dir, '--kind', 'LDAPConfig'], NO_FINGERPRINTS);
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(dir, 'ldap-config.yaml'), 'utf8')).toContain(`url: ${url}`);
  });

  it('--no-placeholders leaves it out under ignore (not managed), and the export plans clean', async () => {
    const dir = join(scratch, 'held-bare');
    const result = await run(['export', '--out', dir, '--kind', 'LDAPConfig', '--no-placeholders']);
    expect(result.code, result.stderr).toBe(0);
    const config = await readFile(join(dir, 'ldap-config.yaml'), 'utf8');
    expect(config).toMatch(/^ignore:\n {2}- url\nspec:\n/m);
    expect(config).not.toContain(url);
    const { LDAP_CONFIG_LDAP_BINDPASS } = given();
    expect(await storedPlan(dir, { LDAP_CONFIG_LDAP_BINDPASS })).toEqual([
      expect.objectContaining({ key: 'LDAPConfig/ldap', action: 'noop' }),
    ]);
  });
});

describe('export never writes outside its directory', () => {
  it('refuses a file that is a link out of it, even with --force, and writes nothing', async () => {
    const out = join(scratch, 'imported-force');
    await mkdir(out);
    const victim = join(scratch, 'victim.txt');
    await writeFile(victim, 'keep me\n');
    await symlink(victim, join(out, 'tool-version.yaml'));
    const result = await run(['export', '--out', out, '--kind', 'ToolVersion', '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('export would write through 1 symbolic link(s) in the output directory');
    expect(result.stderr).toContain(`tool-version.yaml -> ${victim}`);
    expect(result.stderr).not.toMatch(/hit a bug|\n\s+at .*:\d+:\d+/);
    expect(await readFile(victim, 'utf8')).toBe('keep me\n');
  });

  it('refuses a directory that is a link out of it with --split, and writes nothing there', async () => {
    const out = join(scratch, 'imported-split');
    const elsewhere = join(scratch, 'elsewhere-dir');
    await mkdir(out);
    await mkdir(elsewhere);
    await symlink(elsewhere, join(out, 'tool-version'));
    const result = await run(['export', '--out', out, '--split', '--kind', 'ToolVersion']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`tool-version -> ${elsewhere}`);
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(out)).toEqual(['tool-version']);
  });
});

describe('converge export options', () => {
  it('writes one file per object, and the result plans clean', async () => {
    const out = join(scratch, 'split');
    const result = await run([
      'export',
      '--out',
      out,
      '--split',
      '--kind',
      'ToolVersion,AdminUser',
      '--kind',
      'SMTPSettings',
      '--kind',
      'SSHRole,SSHCertificateAuthority',
    ]);
    expect(result.code, result.stderr).toBe(0);
    // named by scope and name (docs/commands.md, `--split`): a global kind has no scope, a CA no name
    expect(await files(out)).toEqual([
      '.env.example',
      'admin-user/admin.yaml',
      'admin-user/ci-bot.yaml',
      'admin-user/member.yaml',
      'admin-user/owner.yaml',
      'smtp-settings.yaml',
      'ssh-certificate-authority/ssh.yaml',
      'ssh-role/ssh-engineers.yaml',
      'ssh-role/ssh-hosts.yaml',
      'ssh-role/ssh-web-otp.yaml',
      'tool-version/1.10.0.yaml',
      'tool-version/1.11.0-beta1.yaml',
      'tool-version/1.9.8.yaml',
    ]);
    const one = await readFile(join(out, 'tool-version', '1.9.8.yaml'), 'utf8');
    expect(one.split('\n')[0]).toMatch(
      /^# yaml-language-server: \$schema=(\.\.\/)+.*schemas\/ToolVersion\.schema\.json$/,
    );
    expect(one).not.toContain('---');
    const plan = await planOf(out, await placeholderEnv(out));
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.actions).toHaveLength(12);
    expect(plan.actions.filter((a) => a.action !== 'noop')).toEqual([]);
  });

  it('--help says the names --split writes', async () => {
    const help = await run(['export', '--help']);
    expect(help.stdout).toContain('<out>/<kind>/<scope>-<name>.yaml');
    // the forms it gives are the files the test above sees written (the module's: test/e2e/export-modules.test.ts)
    for (const file of ['ssh-role/ssh-engineers.yaml', 'ssh-certificate-authority/ssh.yaml']) {
      expect(help.stdout).toContain(file);
    }
    expect(help.stdout).toContain('registry-module/example-org-network_aws.yaml');
    expect(help.stdout).not.toContain('<kind>/<name>.yaml');
  });

  it('points modelines at a URL with --schema-ref, and leaves write-only fields out with --no-placeholders', async () => {
    const out = join(scratch, 'bare');
    const result = await run([
      'export',
      '--out',
      out,
      '--kind',
      'SMTPSettings',
      '--no-placeholders',
      '--schema-ref',
      'https://converge.dev/schemas/',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(await files(out)).toEqual(['smtp-settings.yaml']);
    const text = await readFile(join(out, 'smtp-settings.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=https://converge.dev/schemas/SMTPSettings.schema.json',
    );
    expect(text).not.toContain('password');
  });

  it('writes a placeholder only for a secret the live object has: none for disabled features, no CA key', async () => {
    const out = join(scratch, 'exported');
    // staging has SMS and cost estimation disabled, and a CA the service generated
    for (const file of ['cost-estimation-settings.yaml', 'sms-settings.yaml']) {
      expect(await readFile(join(out, file), 'utf8')).not.toContain('${env:');
    }
    const ca = await readFile(join(out, 'ssh-certificate-authority.yaml'), 'utf8');
    expect(ca).toContain('generate_signing_key: true');
    expect(ca).not.toMatch(/private_key|public_key/);
    // the LDAP engine's read shows no client certificate: its optional cert and key are left out
    const ldap = await readFile(join(out, 'ldap-config.yaml'), 'utf8');
    expect(ldap).toMatch(/bindpass: \$\{env:LDAP_CONFIG_LDAP_BINDPASS\}/);
    expect(ldap).not.toContain('client_tls');
    const example = await readFile(join(out, '.env.example'), 'utf8');
    expect([...example.matchAll(/^([A-Z0-9_]+)=$/gm)].map((m) => m[1])).toEqual([
      'SMTP_SETTINGS_PASSWORD',
      'LDAP_CONFIG_LDAP_BINDPASS',
      // not write-only, but applied from ${env:LDAP_URL} (a value that was secret stays secret, below)
      'LDAP_CONFIG_LDAP_URL',
    ]);
  });

  it('writes the credentials of an enabled feature as placeholders', async () => {
    const patch = async (name: string, attributes: Record<string, unknown>) => {
      const response = await fetch(`${emulator.url}/api/v2/admin/${name}-settings`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: `${name}-settings`, attributes } }),
      });
      expect(response.status, await response.text()).toBe(200);
    };
    await patch('sms', { enabled: true, 'account-sid': 'AC1', 'auth-token': 'sms-token', 'from-number': '+15550100' });
    try {
      const dir = join(scratch, 'enabled');
      const result = await run(['export', '--out', dir, '--kind', 'SMSSettings']);
      expect(result.code, result.stderr).toBe(0);
      expect(await readFile(join(dir, 'sms-settings.yaml'), 'utf8')).toMatch(
        /^ {2}auth-token: \$\{env:SMS_SETTINGS_AUTH_TOKEN\} # write-only/m,
      );
    } finally {
      await patch('sms', { enabled: false });
    }
  });

  it('--no-placeholders writes manifests that validate, keeping only the secrets a kind requires', async () => {
    const dir = join(scratch, 'no-placeholders');
    const result = await run(['export', '--out', dir, '--no-placeholders']);
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(dir, 'smtp-settings.yaml'), 'utf8')).not.toContain('password');
    const env = await placeholderEnv(dir);
    // LDAPConfig's schema requires bindpass: it stays a placeholder
    expect(Object.keys(env)).toEqual(['LDAP_CONFIG_LDAP_BINDPASS']);
    const valid = await run(['validate', dir], env);
    expect(valid.code, valid.stderr).toBe(0);
  });

  it('refuses an empty secret from ${env:} at validate, with file:line:col and no request', async () => {
    const out = join(scratch, 'exported');
    // each write-only field's variable sourced as `NAME=`; a readable field's is given (its own schema refuses '')
    const empty = { ...Object.fromEntries(Object.keys(await placeholderEnv(out)).map((n) => [n, ''])), ...HELD };
    const before = emulator.stats().total;
    for (const command of ['validate', 'plan']) {
      const result = await run([command, out], empty);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /smtp-settings\.yaml:\d+:\d+: .*\$\{env:SMTP_SETTINGS_PASSWORD\} is empty: an empty secret would blank the live one/,
      );
      expect(result.stderr).toMatch(/ldap-config\.yaml:\d+:\d+: .*LDAP_CONFIG_LDAP_BINDPASS\} is empty/);
    }
    expect(emulator.stats().total).toBe(before);
  });

  it('applies each --scope to the kinds of its sort: organizations for the registry, mounts for the engines', async () => {
    const dir = join(scratch, 'scopes');
    const scopes = ['organization=example-org', 'mount=ldap', 'mount=ssh'].flatMap((scope) => ['--scope', scope]);
    const result = await run(['export', '--out', dir, ...scopes]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('404');
    expect(await files(dir)).toEqual(
      expect.arrayContaining(['registry-module.yaml', 'ldap-config.yaml', 'ssh-role.yaml']),
    );
    const plan = await planOf(dir, await placeholderEnv(dir));
    expect(plan.code, plan.stderr).toBe(0);
    expect(new Set(plan.actions.map((a) => a.kind))).toEqual(new Set([...KINDS, VERSIONS]));
    expect(plan.actions.filter((a) => a.action !== 'noop')).toEqual([]);
  });

  it('refuses a scope no kind in play has, or a bare one that could be either sort, before any request', async () => {
    const before = emulator.stats().total;
    const out = join(scratch, 'bad-scope');
    const bare = await run(['export', '--out', out, '--scope', 'example-org', '--scope', 'ldap']);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('--scope example-org: the kinds exported live in organizations and mounts');
    expect(bare.stderr).toContain('organization=example-org');
    const wrongSort = await run(['export', '--out', out, '--kind', 'SSHRole', '--scope', 'organization=example-org']);
    expect(wrongSort.code).toBe(1);
    expect(wrongSort.stderr).toContain('none of the kinds exported lives in organizations');
    const global = await run(['export', '--out', out, '--kind', 'ToolVersion', '--scope', 'x']);
    expect(global.code).toBe(1);
    expect(global.stderr).toContain('none of the kinds exported has scopes');
    expect(emulator.stats().total).toBe(before);
  });

  it('refuses a mount no manifest could name, in the words validate has for it, before any request', async () => {
    const before = emulator.stats().total;
    const out = join(scratch, 'bad-mount');
    for (const [scope, message] of [
      ['mount=../sys', '--scope mount=../sys: metadata.mount must be a mount path like "ssh" or "teams/ssh-prod"'],
      ['../sys', '--scope ../sys: metadata.mount must be a mount path like "ssh" or "teams/ssh-prod"'],
      ['mount=sys', '--scope mount=sys: mount "sys" is reserved by the secrets service'],
    ] as const) {
      const result = await run(['export', '--out', out, '--kind', 'SSHRole', '--scope', scope]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(message);
    }
    expect(emulator.stats().total).toBe(before);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
  });

  it.each([
    // a kind in another case is that kind (`toolversion`); a typo is not
    ['an unknown kind, with a suggestion', 'ToolVersoin', 'did you mean "ToolVersion"?'],
    [
      'a module version, exported with its module only',
      'RegistryModuleVersion',
      'they are exported with their RegistryModule: --kind RegistryModule',
    ],
  ])('exits 1 for %s, before any request', async (_what, kind, message) => {
    const before = emulator.stats().total;
    const result = await run(['export', '--out', join(scratch, 'none'), '--kind', kind]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(emulator.stats().total).toBe(before);
  });

  it('requires --out', async () => {
    const result = await run(['export']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("required option '-o, --out <dir>' not specified");
  });
});
