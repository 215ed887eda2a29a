// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblem, InputError } from '../../../src/errors.ts';
import { loadManifests } from '../../../src/manifest/load.ts';
import type { DesiredObject } from '../../../src/reconcile/types.ts';
import { fakeCatalog } from './fake-catalog.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/manifests/', import.meta.url));
const env = { SMTP_ENABLED: 'true', SMTP_PORT: '587', SMTP_PASSWORD: 'hunter2' };

async function loadGood(): Promise<DesiredObject[]> {
  return loadManifests(['good'], fakeCatalog, { cwd: fixtures, env });
}

function find(objects: DesiredObject[], kind: string, id = ''): DesiredObject {
  const found = objects.find((o) => o.kind === kind && o.address.name === id);
  if (!found) throw new Error(`no ${kind} ${id}`);
  return found;
}

async function problemsOf(paths: string[]): Promise<string[]> {
  try {
    await loadManifests(paths, fakeCatalog, { cwd: fixtures, env });
  } catch (error) {
    if (error instanceof InputError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('loadManifests on a good directory', () => {
  it('loads every document of every nested file in sorted order, skipping empty documents', async () => {
    const objects = await loadGood();
    expect(objects.map((o) => `${o.source.file}:${o.source.line} ${o.kind}/${o.address.name}`)).toEqual([
      'good/settings/general.yaml:2 GeneralSettings/',
      'good/settings/saml.yaml:2 SAMLSettings/',
      'good/settings/smtp.yaml:2 SMTPSettings/',
      'good/settings/smtp.yaml:13 CustomizationSettings/',
      'good/users/admins.yaml:1 AdminUser/owner',
      'good/users/admins.yaml:8 AdminUser/1234',
      'good/users/admins.yaml:14 AdminUser/departed',
      'good/versions/nested/deeper/policies.yml:1 PolicyVersion/0.26.0',
      'good/versions/tools.yaml:2 ToolVersion/1.9.8',
      'good/versions/tools.yaml:14 ToolVersion/1.11.0-beta1',
      'good/versions/tools.yaml:23 ToolVersion/0.15.5',
    ]);
  });

  it('keeps spec as written: values in their natural forms, no defaults added', async () => {
    const general = find(await loadGood(), 'GeneralSettings');
    expect(general.spec).toEqual({
      'api-rate-limit': 60,
      'plan-timeout': '90m',
      'apply-timeout': 86400,
      'limit-user-organization-creation': true,
    });
    expect(general.metadata).toEqual({ labels: { team: 'platform' } });
    expect(general.ensure).toBe('present');
    expect(general.secretFields).toEqual([]);
  });

  it('records the position of every value by dotted path', async () => {
    const objects = await loadGood();
    const general = find(objects, 'GeneralSettings');
    expect(general.source).toEqual({ file: 'good/settings/general.yaml', line: 2, col: 1 });
    expect(general.positions['spec.api-rate-limit']).toEqual({ file: 'good/settings/general.yaml', line: 6, col: 19 });
    expect(general.positions['metadata.labels.team']).toEqual({ file: 'good/settings/general.yaml', line: 4, col: 18 });
    const tool = find(objects, 'ToolVersion', '1.11.0-beta1');
    expect(tool.positions['metadata.name']).toEqual({ file: 'good/versions/tools.yaml', line: 16, col: 9 });
    expect(tool.positions['spec.beta']).toEqual({ file: 'good/versions/tools.yaml', line: 21, col: 9 });
  });

  it('resolves placeholders, coerces whole ones to the schema type and marks the fields secret', async () => {
    const objects = await loadGood();
    const smtp = find(objects, 'SMTPSettings');
    expect(smtp.spec).toMatchObject({ enabled: true, port: 587, password: 'hunter2', host: 'smtp.example.com' });
    expect(smtp.secretFields).toEqual(['enabled', 'password', 'port']);
    const customization = find(objects, 'CustomizationSettings');
    expect(customization.spec['login-help']).toBe('Templates look like ${env:NAME}; ask #platform-help.');
    expect(customization.secretFields).toEqual([]);
  });

  it('reads ${file:...} relative to the manifest, without its one trailing newline', async () => {
    const saml = find(await loadGood(), 'SAMLSettings');
    const cert = saml.spec['idp-cert'] as string;
    expect(cert.startsWith('-----BEGIN CERTIFICATE-----\n')).toBe(true);
    expect(cert.endsWith('-----END CERTIFICATE-----')).toBe(true);
    // a certificate read with ${file:} is reviewable, not secret (docs/security.md, "What is secret")
    expect(saml.secretFields).toEqual([]);
    expect(saml.interpolatedPaths).toEqual(['idp-cert']);
    expect(saml.spec['sso-api-token-session-timeout']).toBe('168h');
  });

  it('reads ensure, labels and identities', async () => {
    const objects = await loadGood();
    expect(find(objects, 'AdminUser', 'departed').ensure).toBe('absent');
    expect(find(objects, 'AdminUser', 'departed').spec).toEqual({});
    expect(find(objects, 'ToolVersion', '0.15.5').ensure).toBe('absent');
    expect(find(objects, 'ToolVersion', '1.9.8').metadata.labels).toEqual({ channel: 'stable' });
    expect(find(objects, 'ToolVersion', '1.9.8').spec['deprecated-reason']).toBeNull();
  });

  it('accepts single files next to directories, each file once', async () => {
    const objects = await loadManifests(
      ['good/users/admins.yaml', 'good/users', 'good/versions/tools.yaml'],
      fakeCatalog,
      {
        cwd: fixtures,
        env,
      },
    );
    expect(objects.map((o) => o.address.name)).toEqual([
      'owner',
      '1234',
      'departed',
      '1.9.8',
      '1.11.0-beta1',
      '0.15.5',
    ]);
  });

  it('loads the example repository', async () => {
    const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
    for (const environment of ['staging', 'production']) {
      const objects = await loadManifests(['base', `environments/${environment}`], fakeCatalog, {
        cwd: examples,
        env: { SMTP_PASSWORD: 'x', SMS_AUTH_TOKEN: 'y', LDAP_URL: 'ldap://ldap.example.org', LDAP_BINDPASS: 'z' },
      });
      expect(objects.length).toBeGreaterThanOrEqual(9);
    }
  });
});

describe('loadManifests on bad input', () => {
  it('reports every problem in every file at once, in file order, duplicates naming both places', async () => {
    expect(await problemsOf(['across', 'missing.yaml'])).toEqual([
      'missing.yaml:1:1: no such file or directory',
      'across/b.yaml:3:9: spec.port must be an integer (got string "smtp")',
      'across/b.yaml:5:1: duplicate GeneralSettings (also declared at across/a.yaml:1:1)',
      'across/sub/c.yaml:1:7: unknown kind "ToolVersoin"; did you mean "ToolVersion"?',
      'across/sub/c.yaml:5:1: duplicate ToolVersion "1.9.8" (also declared at across/a.yaml:5:1)',
    ]);
  });

  it('throws one InputError whose message lists the problems and whose hint says nothing was sent', async () => {
    const error = await loadManifests(['across'], fakeCatalog, { cwd: fixtures, env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const input = error as InputError;
    expect(input.code).toBe('INPUT_INVALID');
    expect(input.message.split('\n')).toEqual(input.problems.map(formatProblem));
    expect(input.hint).toContain('nothing was sent');
  });

  it('does not print a value that came from a placeholder, even when it is wrong', async () => {
    const error = await loadManifests(['bad/secret-interpolated-hidden.yaml'], fakeCatalog, {
      cwd: fixtures,
      env: { SECRET: 'http://leaked.example.com' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      'bad/secret-interpolated-hidden.yaml:4:21: spec.sso-endpoint-url must be an https:// URL (got a string, value hidden)',
    );
  });
});
