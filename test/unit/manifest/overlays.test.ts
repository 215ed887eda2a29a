// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem, InputError } from '../../../src/errors.ts';
import { loadManifests } from '../../../src/manifest/load.ts';
import { catalog } from '../../../src/providers/index.ts';
import type { DesiredObject } from '../../../src/reconcile/types.ts';
import { fakeCatalog } from './fake-catalog.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'converge-overlays-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function files(entries: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(entries)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), text);
  }
}

const env = { ENG_TTL: '45m' };
const load = (paths: string[], kinds = fakeCatalog) => loadManifests(paths, kinds, { cwd: root, env });

async function problemsOf(paths: string[]): Promise<string[]> {
  const error = await load(paths).catch((e: unknown) => e);
  if (error instanceof InputError) return error.problems.map(formatProblem);
  throw new Error(`expected an InputError, got ${String(error)}`);
}

function one(objects: DesiredObject[], name: string): DesiredObject {
  const found = objects.find((o) => o.address.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
}

const BASE_ROLE = `kind: SSHRole
metadata:
  name: engineers
  labels: {team: platform}
spec:
  key_type: ca
  ttl: 30m
  max_ttl: 2h
  allowed_users: "*"
  default_extensions: {permit-pty: "", permit-port-forwarding: ""}
  cidr_list: [10.0.0.0/8, 192.168.0.0/16]
`;

const BASE_MODULE = `kind: RegistryModule
metadata: {organization: acme, name: network, provider: aws}
spec:
  versions:
    - {version: 1.0.0, source: ./network}
    - {version: 1.1.0, source: ./network}
`;

/** A patch of BASE_MODULE's versions, the items to follow. */
const MODULE_PATCH = `kind: RegistryModule
metadata: {organization: acme, name: network, provider: aws}
patch: true
spec:
  versions:
`;

describe('patches', () => {
  it('change only the fields they name: maps merge, lists replace, null removes, labels merge', async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'prod/roles.yaml': `kind: SSHRole
metadata:
  name: engineers
  labels: {env: production}
patch: true
spec:
  ttl: 15m
  max_ttl: null
  default_extensions: {permit-agent-forwarding: ""}
  cidr_list: [10.1.0.0/16]
`,
    });
    const [role] = await load(['base', 'prod']);
    expect(role?.spec).toEqual({
      key_type: 'ca',
      ttl: '15m',
      allowed_users: '*',
      default_extensions: { 'permit-pty': '', 'permit-port-forwarding': '', 'permit-agent-forwarding': '' },
      cidr_list: ['10.1.0.0/16'],
    });
    expect(role?.metadata.labels).toEqual({ team: 'platform', env: 'production' });
    expect(role?.ensure).toBe('present');
    expect(role?.source).toEqual({ file: 'base/roles.yaml', line: 1, col: 1 });
  });

  it('point the positions of what they set into their own file, and leave the rest in the base', async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'prod/roles.yaml': `kind: SSHRole
metadata: {name: engineers}
patch: true
spec:
  ttl: 15m
  default_extensions: {permit-agent-forwarding: ""}
  cidr_list: [10.1.0.0/16, 10.2.0.0/16]
`,
    });
    const [role] = await load(['base', 'prod']);
    const at = (path: string) => {
      const p = role?.positions[path];
      return p && `${p.file}:${p.line}:${p.col}`;
    };
    expect(at('spec.ttl')).toBe('prod/roles.yaml:5:8');
    expect(at('spec.max_ttl')).toBe('base/roles.yaml:8:12');
    expect(at('spec.key_type')).toBe('base/roles.yaml:6:13');
    expect(at('spec.default_extensions.permit-pty')).toBe('base/roles.yaml:10:36');
    expect(at('spec.default_extensions.permit-agent-forwarding')).toBe('prod/roles.yaml:6:49');
    expect(at('spec.cidr_list.1')).toBe('prod/roles.yaml:7:28');
    expect(at('metadata.name')).toBe('base/roles.yaml:3:9');
  });

  it('apply in layer order, each over the one before', async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'staging/ttl.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nspec: {ttl: 1h, max_ttl: 3h}\n',
      'staging-eu/ttl.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nspec: {ttl: 20m}\n',
    });
    const [role] = await load(['base', 'staging', 'staging-eu']);
    expect(role?.spec).toMatchObject({ ttl: '20m', max_ttl: '3h' });
    expect(role?.positions['spec.ttl']?.file).toBe('staging-eu/ttl.yaml');
    expect(role?.positions['spec.max_ttl']?.file).toBe('staging/ttl.yaml');
  });

  it('merge a keyed list item by item: a module version by its version', async () => {
    await files({
      'base/modules.yaml': BASE_MODULE,
      'prod/modules.yaml': `${MODULE_PATCH}    - {version: 1.1.0, source: ./network-next}
    - {version: 2.0.0, source: ./network-two}
`,
    });
    const [module] = await load(['base', 'prod']);
    expect(module?.spec.versions).toEqual([
      { version: '1.0.0', source: './network' },
      { version: '1.1.0', source: './network-next' },
      { version: '2.0.0', source: './network-two' },
    ]);
    expect(module?.positions['spec.versions.0.source']?.file).toBe('base/modules.yaml');
    expect(module?.positions['spec.versions.1.source']?.file).toBe('prod/modules.yaml');
    expect(module?.positions['spec.versions.1.version']?.file).toBe('prod/modules.yaml');
    expect(module?.positions['spec.versions.2']?.line).toBe(7);
  });

  it("keep a patch's secret and placeholder paths where its keyed items landed", async () => {
    await files({
      'base/modules.yaml': BASE_MODULE,
      // the patch's versions.0 merges into the base's versions.1: its secret is there, not at versions.0
      'prod/modules.yaml': `${MODULE_PATCH}    - {version: 1.1.0, source: "\${env:ENG_TTL}"}
`,
    });
    const [module] = await load(['base', 'prod']);
    expect(module?.spec.versions).toEqual([
      { version: '1.0.0', source: './network' },
      { version: '1.1.0', source: '45m' },
    ]);
    expect(module?.secretPaths).toEqual(['versions.1.source']);
    expect(module?.interpolatedPaths).toEqual(['versions.1.source']);
  });

  it('resolve their placeholders in their own file, and keep every secret of the base secret', async () => {
    await files({
      'base/roles.yaml': `${BASE_ROLE}sensitive: [allowed_users]\n`,
      'prod/roles.yaml':
        'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nsensitive: [ttl]\nignore: [max_ttl]\nspec: {ttl: "${env:ENG_TTL}"}\n',
    });
    const [role] = await load(['base', 'prod']);
    expect(role?.spec.ttl).toBe('45m');
    expect(role?.secretFields).toEqual(['allowed_users', 'ttl']);
    expect(role?.placeholders).toEqual({ ttl: ['${env:ENG_TTL}'] });
    expect(role?.sensitive).toEqual(['allowed_users', 'ttl']);
    expect(role?.ignore).toEqual(['max_ttl']);
  });

  it("mark a patch's sensitive paths over what the base sets, and the base's over what the patch sets", async () => {
    await files({
      'base/roles.yaml': `${BASE_ROLE}sensitive: [ttl]\n`,
      'prod/roles.yaml':
        'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nsensitive: [allowed_users]\nspec: {ttl: 45m}\n',
    });
    const [role] = await load(['base', 'prod']);
    expect(role?.spec.ttl).toBe('45m');
    expect(role?.secretPaths).toEqual(expect.arrayContaining(['ttl', 'allowed_users']));
    expect(role?.secretFields).toEqual(['allowed_users', 'ttl']);
  });

  it('validate the merged object again, each problem at the file that set the value', async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'prod/roles.yaml':
        'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nspec:\n  port: many\n  key_typo: ca\n',
    });
    expect(await problemsOf(['base', 'prod'])).toEqual([
      'prod/roles.yaml:5:9: spec.port must be an integer (got string "many")',
      expect.stringMatching(/^prod\/roles\.yaml:6:3: .*key_typo/),
    ]);
  });

  it("leave a merged object its schema refuses out of the kind's rules: one problem, not an echo", async () => {
    // an otp role with a default_user that is no string: the role's own rule would say it has none
    await files({
      'base/roles.yaml': BASE_ROLE.replace('key_type: ca', 'key_type: otp'),
      'prod/roles.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nspec:\n  default_user: 5\n',
    });
    const error = await load(['base', 'prod'], catalog).catch((e: unknown) => e);
    expect((error as InputError).problems.map(formatProblem)).toEqual([
      expect.stringMatching(/^prod\/roles\.yaml:5:17: spec\.default_user must be a string/),
    ]);
  });

  it("run the kind's own rules on the merged object, at the patch's value", async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'prod/roles.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nspec:\n  ttl: 3h\n',
    });
    const error = await load(['base', 'prod'], catalog).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const [problem] = (error as InputError).problems.map(formatProblem);
    expect(problem).toMatch(/^prod\/roles\.yaml:5:8: .*max_ttl/);
  });
});

describe('ensure: absent over a declaration', () => {
  it('makes the object absent, from a later path argument', async () => {
    await files({
      'base/roles.yaml': `${BASE_ROLE}---\nkind: SSHRole\nmetadata: {name: web}\nspec: {key_type: otp}\n`,
      'staging/drop.yaml': 'kind: SSHRole\nmetadata: {name: web}\nensure: absent\n',
    });
    const objects = await load(['base', 'staging']);
    expect(objects.map((o) => `${o.address.name} ${o.ensure}`)).toEqual(['engineers present', 'web absent']);
    expect(one(objects, 'web').source).toEqual({ file: 'staging/drop.yaml', line: 1, col: 1 });
  });

  it('wins over a declaration in a later path argument too', async () => {
    await files({
      'base/drop.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\nensure: absent\n',
      'prod/roles.yaml': BASE_ROLE,
    });
    expect((await load(['base', 'prod'])).map((o) => o.ensure)).toEqual(['absent']);
  });

  it('may be written as a patch (an explicit delete marker)', async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'staging/drop.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nensure: absent\n',
    });
    const [role] = await load(['base', 'staging']);
    expect(role?.ensure).toBe('absent');
    expect(role && 'keys' in role).toBe(false);
  });
});

describe('refused overlays, each naming every place involved', () => {
  it('a patch of an object nothing declares, with the near miss', async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'prod/roles.yaml': 'kind: SSHRole\nmetadata: {name: engineer}\npatch: true\nspec: {ttl: 1h}\n',
      'prod/tools.yaml': 'kind: ToolVersion\nmetadata: {name: 1.9.8}\npatch: true\nspec: {url: https://x/y.zip}\n',
    });
    expect(await problemsOf(['base', 'prod'])).toEqual([
      'prod/roles.yaml:1:1: patch of SSHRole "engineer" in ssh, which no document declares; did you mean SSHRole "engineers" in ssh, declared at base/roles.yaml:1:1?',
      'prod/tools.yaml:1:1: patch of ToolVersion "1.9.8", which no document declares; looked in "base", "prod"',
    ]);
  });

  it('a delete marker of an object nothing declares', async () => {
    await files({ 'prod/drop.yaml': 'kind: SSHRole\nmetadata: {name: web}\npatch: true\nensure: absent\n' });
    expect(await problemsOf(['prod'])).toEqual([
      'prod/drop.yaml:1:1: patch of SSHRole "web" in ssh, which no document declares; looked in "prod"',
    ]);
  });

  it('a patch of a declaration with problems of its own: only those problems, no "patch of nothing"', async () => {
    await files({
      'base/role.yaml': BASE_ROLE.replace('ttl: 30m', 'ttl: ${env:NOT_SET_ANYWHERE}'),
      'prod/role.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nspec: {max_ttl: 4h}\n',
    });
    expect(await problemsOf(['base', 'prod'])).toEqual([
      'base/role.yaml:7:8: spec.ttl: environment variable "NOT_SET_ANYWHERE" is not set',
    ]);
  });

  it('two full declarations', async () => {
    await files({ 'base/a.yaml': BASE_ROLE, 'prod/b.yaml': `# again\n${BASE_ROLE}` });
    expect(await problemsOf(['base', 'prod'])).toEqual([
      'prod/b.yaml:2:1: duplicate SSHRole "engineers" in ssh (also declared at base/a.yaml:1:1)',
    ]);
  });

  const TTL_PATCH = 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nspec: {ttl: 1h}\n';
  const DROP = 'kind: SSHRole\nmetadata: {name: engineers}\nensure: absent\n';
  it.each<{ what: string; given: Record<string, string>; paths: string[]; expected: string }>([
    {
      what: 'two overlays of one object in one path argument',
      given: { 'prod/a.yaml': TTL_PATCH, 'prod/b.yaml': DROP },
      paths: ['base', 'prod'],
      expected:
        'prod/b.yaml:1:1: SSHRole "engineers" in ssh is overlaid twice in "prod" (also at prod/a.yaml:1:1): merge the two into one document',
    },
    {
      what: 'a patch after a path argument that removes the object',
      given: { 'staging/drop.yaml': DROP, 'staging-eu/ttl.yaml': TTL_PATCH },
      paths: ['base', 'staging', 'staging-eu'],
      expected:
        'staging-eu/ttl.yaml:1:1: patch of SSHRole "engineers" in ssh, which "staging" makes absent at staging/drop.yaml:1:1: a later path argument cannot change an object an earlier one removes',
    },
    {
      what: 'a patch given before its declaration',
      given: { 'prod/ttl.yaml': TTL_PATCH },
      paths: ['prod', 'base'],
      expected:
        'prod/ttl.yaml:1:1: patch of SSHRole "engineers" in ssh in "prod", before the path argument that declares it (base/roles.yaml:1:1): give the base first (converge plan base environments/production)',
    },
  ])('$what', async ({ given, paths, expected }) => {
    await files({ 'base/roles.yaml': BASE_ROLE, ...given });
    expect(await problemsOf(paths)).toEqual([expected]);
  });

  it('a patch whose envelope is wrong, before any merge', async () => {
    await files({
      'base/roles.yaml': BASE_ROLE,
      'prod/ttl.yaml': 'kind: SSHRole\nmetadata: {name: engineers}\npatch: true\nsepc: {ttl: 1h}\n',
    });
    const problems = await problemsOf(['base', 'prod']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^prod\/ttl\.yaml:4:1: .*sepc/);
  });
});
