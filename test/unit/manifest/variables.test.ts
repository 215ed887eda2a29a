// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem, InputError } from '../../../src/errors.ts';
import { type LoadOptions, loadManifestSet } from '../../../src/manifest/load.ts';
import { asText, gatherValues, parseVarFlag, type ValueSources } from '../../../src/manifest/variable-values.ts';
import { fakeCatalog } from './fake-catalog.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-vars-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const DECLARE = `kind: Variable
metadata: {name: ttl}
spec:
  schema: {type: string, pattern: "^[0-9]+[smh]$"}
  default: 30m
---
kind: Variable
metadata: {name: port}
spec: {schema: {type: integer}}
---
kind: Variable
metadata: {name: password}
spec: {sensitive: true, schema: {type: string, minLength: 8}}
---
kind: Variable
metadata: {name: ver}
spec: {schema: {type: string, maxLength: 4}, default: abcd}
`;

async function load(manifest: string, sources: Partial<ValueSources> = {}, options: LoadOptions = {}) {
  await writeFile(join(dir, 'vars.yaml'), DECLARE);
  await writeFile(join(dir, 'object.yaml'), manifest);
  const variables = gatherValues({ flags: [], flagFiles: [], env: {}, cwd: dir, ...sources });
  // values files sit among the manifests (named values.yaml or *.values.yaml): never loaded as manifests
  return loadManifestSet(['.'], fakeCatalog, { cwd: dir, env: {}, variables, ...options });
}

async function problems(manifest: string, sources: Partial<ValueSources> = {}): Promise<string[]> {
  try {
    await load(manifest, sources);
  } catch (error) {
    if (error instanceof InputError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error('expected an InputError');
}

const role = (fields: string) => `kind: SSHRole\nmetadata: {name: r}\nspec: {key_type: ca, ${fields}}\n`;

describe('values given on the command line and in the environment', () => {
  it('reads them as YAML scalars, keeping the text', () => {
    expect(asText('45')).toEqual({ value: 45, text: '45' });
    expect(asText('true')).toEqual({ value: true, text: 'true' });
    expect(asText('30m')).toEqual({ value: '30m', text: '30m' });
    expect(asText('a: b')).toEqual({ value: 'a: b', text: 'a: b' });
    expect(asText('')).toEqual({ value: '', text: '' });
    expect(asText('~')).toEqual({ value: '~', text: '~' });
  });

  it('splits --var at the first =, and refuses a flag without a name', () => {
    expect(parseVarFlag('url=http://x?a=b')).toEqual({ name: 'url', text: 'http://x?a=b' });
    expect(parseVarFlag('=1')).toHaveProperty('error');
    expect(parseVarFlag('no-equals')).toHaveProperty('error');
    expect(parseVarFlag('bad-name=1')).toHaveProperty('error');
  });
});

describe('precedence: command line > environment > configuration > default', () => {
  const ttlOf = async (sources: Partial<ValueSources>) =>
    (await load(role('ttl: "${var:ttl}"'), sources)).objects[0]?.spec.ttl;

  it('takes each source over the ones below it', async () => {
    await writeFile(join(dir, 'config.values.yaml'), 'ttl: 1h\n');
    await writeFile(join(dir, 'later.values.yaml'), 'ttl: 2h\n');
    await writeFile(join(dir, 'flag-file.values.yaml'), 'ttl: 4h\n');
    const config = {
      files: [join(dir, 'config.values.yaml'), join(dir, 'later.values.yaml')],
      values: {},
      at: () => ({ file: 'c', line: 1, col: 1 }),
    };
    expect(await ttlOf({})).toBe('30m');
    expect(await ttlOf({ config })).toBe('2h');
    expect(await ttlOf({ config: { ...config, values: { ttl: '3h' } } })).toBe('3h');
    expect(await ttlOf({ config, env: { CONVERGE_VAR_ttl: '5h' } })).toBe('5h');
    expect(await ttlOf({ config, env: { CONVERGE_VAR_ttl: '5h' }, flagFiles: ['flag-file.values.yaml'] })).toBe('4h');
    expect(
      await ttlOf({ config, env: { CONVERGE_VAR_ttl: '5h' }, flagFiles: ['flag-file.values.yaml'], flags: ['ttl=6h'] }),
    ).toBe('6h');
  });
});

describe('typing', () => {
  it('keeps a whole ${var:} typed, and writes a scalar into a longer string', async () => {
    const set = await load(role('port: "${var:port}", max_ttl: "${var:port}h"'), { flags: ['port=2222'] });
    expect(set.objects[0]?.spec).toMatchObject({ port: 2222, max_ttl: '2222h' });
  });

  it('takes a number given as text as the text where the schema wants a string', async () => {
    await writeFile(join(dir, 'vars.yaml'), DECLARE);
    const set = await load(role('default_user: "${var:password}"'), { flags: ['password=12345678'] });
    expect(set.objects[0]?.spec.default_user).toBe('12345678');
  });
});

describe('secrecy', () => {
  it('marks a sensitive variable secret, and a plain one reviewable', async () => {
    const set = await load(role('ttl: "${var:ttl}", default_user: "${var:password}"'), {
      env: { CONVERGE_VAR_password: 'hunter2hunter2' },
    });
    const object = set.objects[0];
    expect(object?.secretFields).toEqual(['default_user']);
    expect(object?.secretPaths).toEqual(['default_user']);
    expect(object?.plainVariables).toEqual({ ttl: ['ttl'] });
    expect(set.variables.get('password')).toMatchObject({ sensitive: true, value: 'hunter2hunter2' });
  });

  it("adds the document's sensitive: paths, * matching one segment", async () => {
    const set = await load(
      `${role('ttl: 1h, default_extensions: {a: "1", b: "2"}')}sensitive: [ttl, default_extensions.*]\n`,
    );
    const object = set.objects[0];
    expect(object?.secretFields).toEqual(['default_extensions', 'ttl']);
    expect(object?.secretPaths?.sort()).toEqual(['default_extensions.a', 'default_extensions.b', 'ttl']);
  });
});

describe('problems, each at its place', () => {
  it('an undeclared, an unset and an invalid variable at their uses and values', async () => {
    const found = await problems(role('ttl: "${var:tll}", max_ttl: "${var:port}", default_user: "${var:password}"'), {
      flags: ['password=short'],
    });
    expect(found).toEqual([
      '--var password: the value of variable "password" must be at least 8 characters long',
      'object.yaml:3:27: spec.ttl: ${var:tll}: no variable "tll" is declared; did you mean "ttl"?',
      expect.stringMatching(
        /^object\.yaml:3:50: spec\.max_ttl: \$\{var:port\}: variable "port" has no value \(declared at vars\.yaml:8:18\)/,
      ),
      'object.yaml:3:79: spec.default_user: ${var:password}: the value of variable "password" is not valid (see its problem)',
    ]);
  });

  it('tells what the text as written lacks where the schema wants a string, not what YAML read it as', async () => {
    const first = async (sources: Partial<ValueSources>) =>
      (await problems(role('default_user: "${var:ver}", ttl: "${var:ttl}"'), sources))[0];
    // not "must be a string (got number 12345); quote it": quoting cannot shorten it
    expect(await first({ flags: ['ver=12345'] })).toBe(
      '--var ver: the value of variable "ver" must be at most 4 characters long',
    );
    expect(await first({ env: { CONVERGE_VAR_ver: '12345' } })).toBe(
      'CONVERGE_VAR_ver: the value of variable "ver" must be at most 4 characters long',
    );
    // YAML reads 1.100 as 1.1: the problem never quotes that
    expect(await first({ flags: ['ver=1.100'] })).toBe(
      '--var ver: the value of variable "ver" must be at most 4 characters long',
    );
    expect(await first({ flags: ['ttl=12345'] })).toBe(
      '--var ttl: the value of variable "ttl" must match the pattern ^[0-9]+[smh]$ (got string "12345")',
    );
  });

  it("tells the value YAML read where the schema does not want a string, and hides a sensitive one's text", async () => {
    const integer = await problems(role('port: "${var:port}"'), { flags: ['port=1.5'] });
    expect(integer[0]).toBe('--var port: the value of variable "port" must be an integer (got number 1.5)');
    // what was typed, where YAML read it otherwise
    const typed = await problems(role('port: "${var:port}"'), { env: { CONVERGE_VAR_port: '1.100' } });
    expect(typed[0]).toBe(
      'CONVERGE_VAR_port: the value of variable "port" must be an integer (got number 1.1, as YAML reads "1.100")',
    );
    const secret = await problems(role('default_user: "${var:password}"'), { flags: ['password=1234567'] });
    expect(secret[0]).toBe('--var password: the value of variable "password" must be at least 8 characters long');
    expect(secret.join('\n')).not.toContain('1234567');
  });

  it('never shows a sensitive value its schema refuses', async () => {
    await writeFile(join(dir, 'values.yaml'), 'password: [secret-in-a-list]\n');
    const found = await problems(role('default_user: "${var:password}"'), { flagFiles: ['values.yaml'] });
    expect(found[0]).toBe('values.yaml:1:11: the value of variable "password" must be a string (got a list)');
    expect(found.join('\n')).not.toContain('secret-in-a-list');
  });

  it('a value for an undeclared variable, a values file that is no mapping, a name that is none', async () => {
    await writeFile(join(dir, 'typo.values.yaml'), 'ttl: 1h\nprot: 80\n');
    await writeFile(join(dir, 'list.values.yaml'), '- ttl\n');
    await writeFile(join(dir, 'name.values.yaml'), 'bad-name: 1\n');
    const found = await problems(role('ttl: "${var:ttl}"'), {
      flagFiles: ['typo.values.yaml', 'list.values.yaml', 'name.values.yaml'],
    });
    expect(found).toEqual([
      'list.values.yaml:1:1: a values file is a mapping of variable names to values (engineer_ttl: 30m)',
      'name.values.yaml:1:1: "bad-name" is not a variable name (letters, digits and _)',
      'typo.values.yaml:2:7: a value is given for variable "prot", which is not declared; did you mean "port"?',
    ]);
  });

  it('a path in sensitive: that the kind does not have', async () => {
    const found = await problems(`${role('ttl: 1h')}sensitive: [ttl, nope.*]\n`);
    expect(found).toEqual([
      'object.yaml:4:18: sensitive: "nope.*" is not a field of this kind (a spec path like "ttl" or "test-config.tests-enabled"; * for one segment)',
    ]);
  });
});
