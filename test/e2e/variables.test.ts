// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * Variables and secrecy by intent through the CLI as a process, against the
 * emulator (docs/environments.md, "Variables"; docs/security.md, "What is
 * secret"): a value from each source shows in the plan, a sensitive one in no
 * output nor the plan file, `${file:}` text is reviewable, and every bad input
 * is refused at its place with nothing sent.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

let target: CliTarget;
beforeEach(async () => {
  target = await cliTarget('vars', NO_FINGERPRINTS);
  await mkdir(join(target.scratch, 'm'));
});
afterEach(() => target?.close());

async function write(name: string, text: string): Promise<string> {
  const path = join(target.scratch, name);
  await writeFile(path, text);
  return path;
}

const TTL = `kind: Variable
metadata: {name: engineer_ttl}
spec:
  schema: {type: string, pattern: "^[0-9]+[smh]$"}
  message: a duration like 30m
  default: 30m
`;

const LOGIN = `kind: Variable
metadata: {name: login}
spec:
  sensitive: true
  schema: {type: string, minLength: 8}
`;

const ROLE = `kind: SSHRole
metadata: {name: engineers}
spec:
  key_type: ca
  allow_user_certificates: true
  ttl: \${var:engineer_ttl}
  max_ttl: 12h
`;

const SECRET_LOGIN = 'deploy-user-x9q';

function ttlOf(json: string): unknown {
  const report = JSON.parse(json) as { plan: { actions: Array<{ changes: Array<{ path: string; after: unknown }> }> } };
  return report.plan.actions[0]?.changes.find((c) => c.path === 'ttl')?.after;
}

describe('a variable from each source shows its value in the plan', () => {
  beforeEach(async () => {
    await write('m/vars.yaml', TTL);
    await write('m/role.yaml', ROLE);
  });

  /**
   * The value in the plan as text (stdout) and as JSON: the saved plan the same process writes
   * (`--out`, the plan apply runs), one process per source; the `--json` report's own rendering of a
   * variable's value is checked once, with the default.
   */
  async function planBoth(args: string[], extra: Record<string, string> = {}) {
    const text = await target.run(['plan', 'm', ...args, '--out', 'plan.json'], extra);
    expect(text.code, text.stderr).toBe(0);
    const saved = await readFile(join(target.scratch, 'plan.json'), 'utf8');
    return { text: text.stdout, json: ttlOf(saved) };
  }

  it('the default', async () => {
    const { text, json } = await planBoth([]);
    expect(text).toContain('ttl: "30m"');
    expect(json).toBe('30m');
    const report = await target.run(['plan', 'm', '--json']);
    expect(report.code, report.stderr).toBe(0);
    expect(ttlOf(report.stdout)).toBe('30m');
  });

  it('--var, over every other source', async () => {
    await write('values.yaml', 'engineer_ttl: 2h\n');
    const { text, json } = await planBoth(['--var', 'engineer_ttl=45m', '--var-file', 'values.yaml'], {
      CONVERGE_VAR_engineer_ttl: '3h',
    });
    expect(text).toContain('ttl: "45m"');
    expect(json).toBe('45m');
  });

  it('--var-file, a later file winning, over the environment', async () => {
    await write('one.yaml', 'engineer_ttl: 1h\n');
    await write('two.json', '{"engineer_ttl": "2h"}\n');
    const { text, json } = await planBoth(['--var-file', 'one.yaml', '--var-file', 'two.json'], {
      CONVERGE_VAR_engineer_ttl: '3h',
    });
    expect(text).toContain('ttl: "2h"');
    expect(json).toBe('2h');
  });

  it('CONVERGE_VAR_<name>, over the configuration', async () => {
    await mkdir(join(target.scratch, 'env'));
    await write('env/values.yaml', 'engineer_ttl: 4h\n');
    await write('env/converge.config.yaml', 'variables:\n  files: [values.yaml]\n');
    const { text, json } = await planBoth(['-c', 'env/converge.config.yaml'], { CONVERGE_VAR_engineer_ttl: '3h' });
    expect(text).toContain('ttl: "3h"');
    expect(json).toBe('3h');
  });

  it("the configuration's variables.files, relative to the configuration file", async () => {
    await mkdir(join(target.scratch, 'env'));
    await write('env/values.yaml', 'engineer_ttl: 4h\n');
    await write('env/converge.config.yaml', 'variables:\n  files: [values.yaml]\n');
    const { text, json } = await planBoth(['-c', 'env/converge.config.yaml']);
    expect(text).toContain('ttl: "4h"');
    expect(json).toBe('4h');
  });

  it('makes a saved plan stale when a value changed since, naming the variable; nothing is sent', async () => {
    const made = await target.run(['plan', 'm', '--var', 'engineer_ttl=45m', '--out', 'plan.json']);
    expect(made.code, made.stderr).toBe(0);
    target.emulator.resetStats();
    const stale = await target.run(['apply', 'plan.json', '--auto-approve', '--var', 'engineer_ttl=50m']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(
      'SSHRole/ssh/engineers: ttl: its source changed since the plan (${var:engineer_ttl})',
    );
    expect(Object.keys(target.emulator.stats().byRoute).every((route) => route.startsWith('GET'))).toBe(true);
  });

  it('keeps a whole ${var:} typed: a number stays a number', async () => {
    await write(
      'm/port.yaml',
      'kind: Variable\nmetadata: {name: port}\nspec: {schema: {type: integer}, default: 22}\n---\n' +
        'kind: SSHRole\nmetadata: {name: otp}\nspec: {key_type: otp, default_user: ubuntu, cidr_list: 10.0.0.0/8, port: "${var:port}"}\n',
    );
    const result = await target.run(['plan', 'm', '--var', 'port=2222']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('port: 2222');

    // where a string is wanted, quoting the placeholder cannot help: the fix is the variable's
    await write(
      'm/user.yaml',
      'kind: SSHRole\nmetadata: {name: users}\nspec: {key_type: otp, default_user: "${var:port}"}\n',
    );
    const refused = await target.run(['validate', 'm']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "m/user.yaml:3:37: spec.default_user must be a string (got number 22); a whole ${var:} keeps its value's type: give the variable a string",
    );
  });
});

describe('a sensitive variable is a secret everywhere', () => {
  beforeEach(async () => {
    await write('m/vars.yaml', LOGIN);
    await write('m/role.yaml', `${ROLE.replace('engineer_ttl', 'ttl')}  default_user: \${var:login}\n`);
    await write('m/ttl.yaml', TTL.replace('engineer_ttl', 'ttl'));
  });

  it('is redacted in plan text and JSON, the saved plan file, apply output and drift, and still sent', async () => {
    const env = { CONVERGE_VAR_login: SECRET_LOGIN };
    const json = await target.run(['plan', 'm', '--json', '--out', 'plan.json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout + json.stderr).not.toContain(SECRET_LOGIN);
    expect(await readFile(join(target.scratch, 'plan.json'), 'utf8')).not.toContain(SECRET_LOGIN);
    // apply prints the plan text it runs (docs/commands.md): the text plan and apply's output in one process
    const applied = await target.run(['apply', 'plan.json', '--auto-approve', '--no-progress'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('default_user: (secret)');
    expect(applied.stdout + applied.stderr).not.toContain(SECRET_LOGIN);
    const live = await fetch(`${target.emulator.url}/v1/ssh/roles/engineers`, {
      headers: { 'x-service-token': target.emulator.tokens.secrets },
    });
    expect(((await live.json()) as { data: { default_user: string } }).data.default_user).toBe(SECRET_LOGIN);
    // drift with another value: the difference is reported, neither value shown
    for (const args of [
      ['drift', 'm'],
      ['drift', 'm', '--format', 'json'],
      ['drift', 'm', '--format', 'markdown'],
    ]) {
      const drift = await target.run(args, { CONVERGE_VAR_login: 'another-login-7' });
      expect(drift.code, drift.stderr).toBe(2);
      expect(drift.stdout + drift.stderr).not.toContain(SECRET_LOGIN);
      expect(drift.stdout + drift.stderr).not.toContain('another-login-7');
    }
  });

  it('never echoes a value its schema refuses', async () => {
    target.emulator.resetStats();
    const result = await target.run(['plan', 'm', '--var', 'login=tiny7']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--var login: the value of variable "login" must be at least 8 characters long');
    expect(result.stderr).not.toContain('tiny7');
    // a number as YAML reads it: the text as written is what the string schema refuses, unseen
    const numeric = await target.run(['plan', 'm', '--var', 'login=1234567']);
    expect(numeric.code).toBe(1);
    expect(numeric.stderr).toContain('--var login: the value of variable "login" must be at least 8 characters long');
    expect(numeric.stderr).not.toContain('1234567');
    expect(target.emulator.stats().total).toBe(0);
  });

  it("never echoes a secret the kinds' own checks refuse, nor anything inside a secret map", async () => {
    const secrets = ['Ksecret1xyz', 'Xsecret5', 'SECRETTPL', 'TOPSECRET-VALUE', 'MAPSECRETKEY', 'SECRETKEY7'];
    await write(
      'm/roles.yaml',
      [
        'kind: SSHRole\nmetadata: {name: checked}\nspec:\n  key_type: ca\n  allow_user_certificates: true',
        '  ttl: ${env:T1}\n  max_ttl: ${env:T2}\n  key_id_format: "{{${env:K1}}}"\n  algorithm_signer: ${env:A1}',
        '  default_user: "${env:S_TPL}"\n  default_user_template: true\n  cidr_list: "${env:SEC5}"',
        '  allowed_user_key_lengths: ${var:lengths}\n  default_extensions: ${var:extensions}',
        '---\nkind: SSHCertificateAuthority\nmetadata: {mount: ssh}\nspec: {generate_signing_key: true, key_type: ed25519}',
        '---\nkind: Variable\nmetadata: {name: lengths}\nspec: {sensitive: true}',
        '---\nkind: Variable\nmetadata: {name: extensions}\nspec:\n  sensitive: true',
        '  schema: {type: object, additionalProperties: false, properties: {permit-pty: {type: string}}}\n',
      ].join('\n'),
    );
    const env = { T1: '7200', T2: '3600', K1: 'Ksecret1xyz', A1: 'rsa-sha2-256', SEC5: '10.0.0.0/8,Xsecret5' };
    const validate = async (values: string) => {
      await write('values.yaml', values);
      target.emulator.resetStats();
      const result = await target.run(['validate', 'm', '--var-file', 'values.yaml'], {
        ...env,
        S_TPL: '{{identity.SECRETTPL',
      });
      expect(result.code).toBe(1);
      for (const secret of secrets) expect(result.stdout + result.stderr).not.toContain(secret);
      expect(target.emulator.stats().total).toBe(0);
      const lines = result.stderr.split('\n');
      return (text: string) => lines.find((l) => l.includes(text));
    };
    // values its schema takes: the role's own checks refuse them
    const checked = await validate('lengths: {rsa: [1], MAPSECRETKEY: [2048]}\nextensions: {permit-pty: x}\n');
    expect(checked('ttl (hidden) must not exceed max_ttl (hidden)')).toMatch(/^m\/roles\.yaml:6:8: /);
    expect(checked('an unknown variable (hidden); known:')).toMatch(/^m\/roles\.yaml:8:18: /);
    expect(checked('a secret value is an RSA signature')).toMatch(/^m\/roles\.yaml:9:21: /);
    expect(checked('unbalanced "{{" in template a secret value')).toMatch(/^m\/roles\.yaml:10:17: /);
    expect(checked('a secret value is not a CIDR block')).toMatch(/^m\/roles\.yaml:12:14: /);
    expect(checked('an unknown key type (hidden); known:')).toMatch(/^m\/roles\.yaml:13:29: /);
    expect(checked('a key type holds a size (hidden) it cannot have')).toMatch(/^m\/roles\.yaml:13:29: /);
    // values the schemas refuse, inside a secret map: told at the field, without the key or the value
    const refused = await validate('lengths: {rsa: [2048, TOPSECRET-VALUE]}\nextensions: {SECRETKEY7: x}\n');
    const inside = 'spec.allowed_user_key_lengths holds a value that must be an integer';
    expect(refused(inside)).toMatch(/^m\/roles\.yaml:13:29: /);
    expect(refused('the value of variable "extensions" has a key that is not allowed there')).toMatch(
      /^values\.yaml:2:13: /,
    );
  });

  it('fills a secret field; a variable that is not sensitive is refused there, with the fix', async () => {
    const config = (await readFile(join(EXAMPLES, 'base/ldap/config.yaml'), 'utf8')).replace(
      '${env:LDAP_BINDPASS}',
      '${var:bindpass}',
    );
    await write('m/ldap.yaml', config);
    const declare = (sensitive: boolean) =>
      write('m/bindpass.yaml', `kind: Variable\nmetadata: {name: bindpass}\nspec: {sensitive: ${sensitive}}\n`);
    await declare(true);
    const env = { CONVERGE_VAR_bindpass: 'a-bind-password', CONVERGE_VAR_login: SECRET_LOGIN };
    const accepted = await target.run(['validate', 'm'], env);
    expect(accepted.code, accepted.stderr).toBe(0);
    await declare(false);
    const refused = await target.run(['validate', 'm'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /m\/ldap\.yaml:\d+:\d+: a secret must not come from variable "bindpass", which is not sensitive \(plans show its value\): declare it with sensitive: true/,
    );
    expect(refused.stderr).not.toContain('a-bind-password');
  });
});

describe('a list holding a sensitive item beside plain ones', () => {
  const EXTRA_USER = 'breakglass-operator-7k2';
  const SECRET_CIDR = '172.16.0.0/12';

  beforeEach(async () => {
    await write(
      'm/roles.yaml',
      [
        'kind: Variable\nmetadata: {name: extra_user}\nspec: {sensitive: true}',
        '---\nkind: Variable\nmetadata: {name: s_cidr}\nspec: {sensitive: true}',
        '---\nkind: SSHRole\nmetadata: {name: r1}\nspec:\n  key_type: otp\n  default_user: admin',
        '  cidr_list: [10.0.0.0/8, "${var:s_cidr}"]\n  allowed_users: [ubuntu, "${var:extra_user}"]',
        '---\nkind: SSHRole\nmetadata: {name: r2}\nspec:\n  key_type: otp\n  default_user: ubuntu',
        '  cidr_list: [10.0.0.0/8]\n',
      ].join('\n'),
    );
  });

  it('hides the list whole, and masks none of its plain items where another object writes them (text, JSON, Markdown)', async () => {
    const env = { CONVERGE_VAR_extra_user: EXTRA_USER, CONVERGE_VAR_s_cidr: SECRET_CIDR };
    const text = await target.run(['plan', 'm', '--no-progress', '--out', 'plan.json'], env);
    expect(text.code, text.stderr).toBe(0);
    const r2 = text.stdout.slice(text.stdout.indexOf('SSHRole/ssh/r2'));
    expect(r2).toContain('default_user: "ubuntu"');
    expect(r2).toContain('cidr_list: ["10.0.0.0/8"]');
    const r1 = text.stdout.slice(text.stdout.indexOf('SSHRole/ssh/r1'), text.stdout.indexOf('SSHRole/ssh/r2'));
    expect(r1).toMatch(/allowed_users: \(secret\)/);
    expect(r1).toMatch(/cidr_list: \(secret\)/);
    expect(text.stdout).not.toContain('***');
    const saved = await readFile(join(target.scratch, 'plan.json'), 'utf8');

    const json = await target.run(['plan', 'm', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    type Report = { plan: { actions: Array<{ key: string; changes: Array<{ path: string; after?: unknown }> }> } };
    const changes = (JSON.parse(json.stdout) as Report).plan.actions.find((a) => a.key === 'SSHRole/ssh/r2')?.changes;
    const planned = (path: string) => changes?.find((c) => c.path === path)?.after;
    expect(planned('default_user')).toBe('ubuntu');
    expect(planned('cidr_list')).toEqual(['10.0.0.0/8']);

    const markdown = await target.run(['plan', 'm', '--format', 'markdown'], env);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain('<code>"ubuntu"</code>');
    expect(markdown.stdout).toContain('<code>&#91;"10.0.0.0/8"&#93;</code>');
    expect(markdown.stdout).not.toContain('***');

    for (const output of [
      text.stdout + text.stderr,
      saved,
      json.stdout + json.stderr,
      markdown.stdout + markdown.stderr,
    ]) {
      expect(output).not.toContain(EXTRA_USER);
      expect(output).not.toContain(SECRET_CIDR);
    }
  });
});

describe('secrecy by intent', () => {
  it('shows an LDIF template read with ${file:} in the plan; ${env:} stays secret', async () => {
    for (const part of ['config.yaml', 'dynamic-roles.yaml', 'ldif']) {
      await cp(join(EXAMPLES, 'base/ldap', part), join(target.scratch, 'm', part), { recursive: true });
    }
    const result = await target.run(['plan', 'm']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('dn: cn={{.Username}},ou=people,dc=example,dc=org');
    expect(result.stdout).toMatch(/url: \(secret\)/);
    expect(result.stdout).not.toContain(target.env.LDAP_URL);
  });

  it('makes a value the document lists in sensitive: a secret, and refuses a path the kind does not have', async () => {
    await write('m/role.yaml', `${ROLE.replace('${var:engineer_ttl}', '45m')}sensitive: [ttl]\n`);
    const hidden = await target.run(['plan', 'm']);
    expect(hidden.code, hidden.stderr).toBe(0);
    expect(hidden.stdout).toContain('ttl: (secret)');
    expect(hidden.stdout).not.toContain('"45m"');
    await write('m/role.yaml', `${ROLE.replace('${var:engineer_ttl}', '45m')}sensitive: [ttl, tll]\n`);
    target.emulator.resetStats();
    const refused = await target.run(['plan', 'm']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('m/role.yaml:8:18: sensitive: "tll" is not a field of this kind');
    expect(target.emulator.stats().total).toBe(0);
  });
});

describe('bad input is refused at its place, with nothing sent', () => {
  beforeEach(() => target.emulator.resetStats());

  async function refused(args: string[], message: string | RegExp, extra: Record<string, string> = {}) {
    const result = await target.run(['plan', 'm', ...args], extra);
    expect(result.code).toBe(1);
    if (typeof message === 'string') expect(result.stderr).toContain(message);
    else expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/hit a bug/);
    expect(target.emulator.stats().total).toBe(0);
  }

  it('an undeclared variable, with the name it may mean', async () => {
    await write('m/vars.yaml', TTL);
    await write('m/role.yaml', ROLE.replace('var:engineer_ttl', 'var:engineer_tl'));
    await refused(
      [],
      'm/role.yaml:6:8: spec.ttl: ${var:engineer_tl}: no variable "engineer_tl" is declared; did you mean "engineer_ttl"?',
    );
  });

  it('a variable with no value and no default', async () => {
    await write('m/vars.yaml', TTL.replace('  default: 30m\n', ''));
    await write('m/role.yaml', ROLE);
    await refused(
      [],
      /m\/role\.yaml:6:8: spec\.ttl: \$\{var:engineer_ttl\}: variable "engineer_ttl" has no value \(declared at m\/vars\.yaml:2:18\)/,
    );
  });

  it("a value of the wrong type, at the values file's line, with the variable's message", async () => {
    await write('m/vars.yaml', TTL);
    await write('m/role.yaml', ROLE);
    await write('values.yaml', '# staging\nengineer_ttl: 45\n');
    await refused(
      ['--var-file', 'values.yaml'],
      'values.yaml:2:15: variable "engineer_ttl": a duration like 30m (the value must be a string (got number 45)',
    );
  });

  it('a value given as text that fails a string schema, with what the text lacks, never misquoted', async () => {
    await write(
      'm/vars.yaml',
      'kind: Variable\nmetadata: {name: ver}\nspec: {schema: {type: string, maxLength: 4}, default: abcd}\n',
    );
    await write(
      'm/role.yaml',
      'kind: SSHRole\nmetadata: {name: r1}\nspec: {key_type: otp, default_user: "${var:ver}"}\n',
    );
    // the whole line: not "must be a string (got number 12345); quote it to make it a string"
    const said = 'the value of variable "ver" must be at most 4 characters long\n';
    // YAML reads 12345 as a number and 1.100 as 1.1; the schema wants the text, which is too long
    await refused(['--var', 'ver=12345'], `--var ver: ${said}`);
    await refused(['--var', 'ver=1.100'], `--var ver: ${said}`);
    await refused([], `CONVERGE_VAR_ver: ${said}`, { CONVERGE_VAR_ver: '12345' });
  });

  it('a value given for an undeclared variable, in a values file and on the command line', async () => {
    await write('m/vars.yaml', TTL);
    await write('m/role.yaml', ROLE);
    await write('values.yaml', 'engineer_tll: 1h\n');
    await refused(
      ['--var-file', 'values.yaml'],
      'values.yaml:1:15: a value is given for variable "engineer_tll", which is not declared; did you mean "engineer_ttl"?',
    );
    await refused(['--var', 'engineer_tll=1h'], '--var engineer_tll: a value is given for variable "engineer_tll"');
  });

  it('a variable declared twice, naming both places', async () => {
    await write('m/vars.yaml', TTL);
    await write('m/again.yaml', TTL);
    await write('m/role.yaml', ROLE);
    await refused([], 'm/vars.yaml:2:18: variable "engineer_ttl" is declared twice (also at m/again.yaml:2:18)');
  });

  it('a schema that is not one, at its line', async () => {
    await write('m/vars.yaml', TTL.replace('type: string,', 'type: strin,'));
    await write('m/role.yaml', ROLE);
    await refused([], /m\/vars\.yaml:4:11: spec\.schema is not a valid JSON Schema/);
  });
});
