/**
 * Policies through the CLI as a process against the emulator (docs/policies.md): a denial
 * stops validate, plan and apply with nothing written, a warning is shown and the run goes
 * on, apply of a saved plan checks the policies again, rules over `change` see deletes and
 * replacements, a rule that does not compile is reported at its line, and `policy test`
 * runs a policy's cases.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const SHA = 'a'.repeat(64);

let target: CliTarget;
let dir: string;
beforeEach(async () => {
  // no object here has a write-only field
  target = await cliTarget('policies', NO_FINGERPRINTS);
  dir = join(target.scratch, 'm');
  await mkdir(dir);
});
afterEach(() => target?.close());

const writes = () => Object.keys(target.emulator.stats().byRoute).filter((route) => !route.startsWith('GET '));
const put = (name: string, text: string) => writeFile(join(dir, name), text);
const tool = (name: string, url: string, extra = '') =>
  `kind: ToolVersion\nmetadata: {name: ${name}}\nspec: {url: "${url}", sha: "${SHA}"}\n${extra}`;
const policy = (name: string, kinds: string, rule: string, enforcement: 'deny' | 'warn') =>
  `kind: Policy\nmetadata: {name: ${name}}\nspec:\n  match: {kinds: [${kinds}]}\n  rule: ${JSON.stringify(rule)}\n  message: ${name} says no\n  enforcement: ${enforcement}\n`;
const releaseHost = (enforcement: 'deny' | 'warn') =>
  policy('release-host', 'ToolVersion', "object.spec.url.startsWith('https://releases.example.com/')", enforcement);

describe('policies in validate, plan and apply', () => {
  it('a denial stops every command with the policy, the message, the object and its line; nothing is written nor saved', async () => {
    await put(
      'tools.yaml',
      `${tool('1.0.0', 'https://releases.example.com/t.zip')}---\n${tool('1.0.1', 'https://elsewhere.test/t.zip')}`,
    );
    await put('policy.yaml', releaseHost('deny'));
    const line = 'denied by policy release-host: ToolVersion/1.0.1 (m/tools.yaml:5:1): release-host says no';
    target.emulator.resetStats();
    for (const command of [
      ['validate', 'm'],
      // the plan asked to save itself: a plan the policies deny is not saved
      ['plan', 'm', '--out', 'plan.json'],
      ['apply', 'm', '--auto-approve', '--no-progress'],
    ]) {
      const result = await target.run(command);
      expect(result.code, command[0]).toBe(1);
      expect(result.stdout, command[0]).toContain(line);
      expect(result.stdout).not.toContain('ToolVersion/1.0.0 (');
      expect(result.stderr).toContain('POLICY_DENIED');
    }
    expect(writes()).toEqual([]);
    expect(existsSync(join(target.scratch, 'plan.json'))).toBe(false);

    const json = await target.run(['plan', 'm', '--json']);
    expect(json.code).toBe(1);
    const { policies, valid } = JSON.parse(json.stdout);
    expect(valid).toBe(false);
    expect(policies).toMatchObject({ evaluated: 2, denied: 1, warned: 0 });
    expect(policies.violations[0]).toMatchObject({
      policy: 'release-host',
      object: 'ToolVersion/1.0.1',
      source: 'm/tools.yaml:5:1',
    });
  });

  it('matches as RE2 does, in linear time: \\z and POSIX classes deny what they name, a backtracking pattern ends', async () => {
    const long = `https://${'a'.repeat(60)}.example.net/t.zip`;
    await put(
      'tools.yaml',
      [
        tool('1.0.0', 'https://releases.example.com/t.exe'),
        tool('1.0.1', long),
        tool('1.0.2', 'https://x.test/Tool.zip'),
      ].join('---\n'),
    );
    await put(
      'policy.yaml',
      [
        policy('no-exe', 'ToolVersion', "!object.spec.url.matches('\\\\.exe\\\\z')", 'deny'),
        policy('lower-case', 'ToolVersion', "!object.spec.url.matches('[[:upper:]]')", 'deny'),
        // exponential for a backtracking engine on the 60 a's; RE2 reads the value once
        policy(
          'host',
          'ToolVersion',
          "!object.spec.url.contains('.net') || object.spec.url.matches('^https://([a-z]+)+[.]example[.]com/')",
          'warn',
        ),
      ].join('---\n'),
    );
    const result = await target.run(['validate', 'm']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout, result.stderr).toContain('denied by policy no-exe: ToolVersion/1.0.0');
    expect(result.stdout).toContain('denied by policy lower-case: ToolVersion/1.0.2');
    expect(result.stdout).toContain('warning from policy host: ToolVersion/1.0.1');
    expect(result.stdout).toContain('Policies: 9 check(s), 2 denied, 1 warning(s).');
  });

  it('validate sends no request at all, even with a rule over change (checked at plan time only)', async () => {
    await put('tools.yaml', tool('1.0.1', 'https://elsewhere.test/t.zip'));
    await put('policy.yaml', policy('no-deletes', 'ToolVersion', "change.action != 'delete'", 'deny'));
    target.emulator.resetStats();
    const result = await target.run(['validate', 'm']);
    expect(result.code, result.stderr).toBe(0);
    expect(Object.keys(target.emulator.stats().byRoute)).toEqual([]);
  });

  it('a warning is shown and counted, and the apply goes on', async () => {
    await put('tools.yaml', tool('1.0.1', 'https://elsewhere.test/t.zip'));
    await put('policy.yaml', releaseHost('warn'));
    const result = await target.run(['apply', 'm', '--auto-approve', '--no-progress']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('warning from policy release-host: ToolVersion/1.0.1 (m/tools.yaml:1:1)');
    expect(result.stdout).toContain('Policies: 1 check(s), 0 denied, 1 warning(s).');
    expect(writes().length).toBeGreaterThan(0);

    const json = await target.run(['apply', 'm', '--auto-approve', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const line = json.stdout.split('\n').find((l) => l.includes('"type":"policies"'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ type: 'policies', evaluated: 1, denied: 0, warned: 1 });
  });

  it('apply of a saved plan checks the policies again before anything is sent', async () => {
    await put('tools.yaml', tool('1.0.1', 'https://elsewhere.test/t.zip'));
    const planned = await target.run(['plan', 'm', '--out', 'plan.json']);
    expect(planned.code, planned.stderr).toBe(0);
    await put('policy.yaml', releaseHost('deny'));
    target.emulator.resetStats();
    const applied = await target.run(['apply', 'plan.json']);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain('denied by policy release-host: ToolVersion/1.0.1');
    expect(writes()).toEqual([]);
  });
});

describe('rules over change and live', () => {
  it('see a delete, with the live object', async () => {
    await put('users.yaml', 'kind: AdminUser\nmetadata: {name: admin}\nensure: absent\n');
    await cp(join(EXAMPLES, 'policies', 'no-admin-deletes.yaml'), join(dir, 'policy.yaml'));
    target.emulator.resetStats();
    const result = await target.run(['apply', 'm', '--auto-approve', '--no-progress']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('denied by policy no-admin-deletes: AdminUser/admin (m/users.yaml:1:1)');
    expect(writes()).toEqual([]);
  });

  it('see a replacement', async () => {
    const variable = (sensitive: boolean) =>
      `kind: RegistryModule\nmetadata: {organization: example-org, name: network, provider: aws}\nspec: {}\n---\n` +
      `kind: ModuleTestVariable\nmetadata: {organization: example-org, module: network/aws, name: REGION}\n` +
      // a sensitive value is a secret: it comes from the environment, never a literal
      `spec: {value: ${sensitive ? `'\${env:POLICY_REGION}'` : 'eu-west-1'}, sensitive: ${sensitive}}\n`;
    await put('vars.yaml', variable(false));
    await seedApply(target, ['m']);
    await put('vars.yaml', variable(true));
    await put('policy.yaml', policy('no-replace', 'ModuleTestVariable', "change.action != 'replace'", 'deny'));
    target.emulator.resetStats();
    const result = await target.run(['plan', 'm'], { POLICY_REGION: 'eu-west-1' });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('denied by policy no-replace: ModuleTestVariable/example-org/network/aws/REGION');
    expect(writes()).toEqual([]);
  });
});

describe('what goes away', () => {
  it('is judged by the rules over change or live only: a rule over object alone lets what breaks it be removed', async () => {
    const elsewhere = (name: string) => tool(name, `https://elsewhere.test/${name}.zip`);
    await put('tools.yaml', `${elsewhere('1.0.1')}---\n${elsewhere('1.0.2')}---\n${elsewhere('1.0.3')}`);
    await seedApply(target, ['m']);
    // 1.0.1 declared absent, 1.0.2 no longer declared (pruned), 1.0.3 still declared
    await put('tools.yaml', `kind: ToolVersion\nmetadata: {name: 1.0.1}\nensure: absent\n---\n${elsewhere('1.0.3')}`);
    await put('policy.yaml', releaseHost('deny'));
    await writeFile(
      join(target.scratch, 'converge.config.yaml'),
      'ownership:\n  - {kind: ToolVersion, name: "1.0.*"}\n',
    );
    const applied = await target.run([
      'apply',
      'm',
      '--prune',
      '--auto-approve',
      '--no-progress',
      '--target',
      'ToolVersion/1.0.[12]',
    ]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain('denied');
    // the one still declared is judged as in validate
    const planned = await target.run(['plan', 'm']);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain('denied by policy release-host: ToolVersion/1.0.3 (m/tools.yaml:5:1)');
    expect(planned.stdout).toContain('Policies: 1 check(s), 1 denied');

    // a rule over change sees both kinds of removal
    await put('policy.yaml', '');
    await put('extra.yaml', elsewhere('1.0.4'));
    await seedApply(target, ['m']);
    await put('tools.yaml', 'kind: ToolVersion\nmetadata: {name: 1.0.3}\nensure: absent\n');
    await put('extra.yaml', '');
    await put('policy.yaml', policy('no-deletes', 'ToolVersion', "change.action != 'delete'", 'deny'));
    target.emulator.resetStats();
    const refused = await target.run(['apply', 'm', '--prune', '--auto-approve', '--no-progress']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('denied by policy no-deletes: ToolVersion/1.0.3 (m/tools.yaml:1:1)');
    expect(refused.stdout).toContain('denied by policy no-deletes: ToolVersion/1.0.4');
    expect(writes()).toEqual([]);
  });
});

describe('policies that cannot be used', () => {
  /** `plan` of a tool version and this policy document: its stderr, once it is known nothing was sent. */
  async function refusedBeforeAnyRequest(policy: string): Promise<string> {
    await put('tools.yaml', tool('1.0.1', 'https://elsewhere.test/t.zip'));
    await put('policy.yaml', policy);
    target.emulator.resetStats();
    const result = await target.run(['plan', 'm']);
    expect(result.code).toBe(1);
    expect(Object.keys(target.emulator.stats().byRoute)).toEqual([]);
    return result.stderr;
  }

  it('a rule that does not compile is reported at the line of the rule, with the CEL message, before any request', async () => {
    const stderr = await refusedBeforeAnyRequest(
      "kind: Policy\nmetadata: {name: broken}\nspec:\n  match: {kinds: [ToolVersion]}\n  message: m\n  rule: \"object.spec.url.startsWith('https://') && objet.spec.sha != ''\"\n",
    );
    expect(stderr).toMatch(
      /m\/policy\.yaml:6:9: policy broken: Unknown variable: objet \(at character 43 of the rule\)/,
    );
  });

  it('a pattern RE2 does not take is refused at the rule, with RE2 reason, before any request', async () => {
    const stderr = await refusedBeforeAnyRequest(
      policy('lookahead', 'ToolVersion', "object.spec.url.matches('^(?=https)')", 'deny'),
    );
    expect(stderr).toContain(
      'm/policy.yaml:5:9: policy lookahead: matches: not an RE2 regular expression: error parsing regexp: invalid or unsupported Perl syntax: `(?=` (at character 25 of the rule)',
    );
  });

  it('a kind that does not exist is refused at its item before any request, not a guardrail that matches nothing', async () => {
    const stderr = await refusedBeforeAnyRequest(
      'kind: Policy\nmetadata: {name: https}\nspec:\n  match:\n    kinds: [ToolVersion, toolversions]\n  message: m\n  rule: "object.spec.url.startsWith(\'https://\')"\n',
    );
    expect(stderr).toContain(
      'm/policy.yaml:5:26: policy https: unknown kind "toolversions"; did you mean "ToolVersion"?',
    );
  });

  it('a rule over a field its kinds do not have is refused at the rule before any request, not a rule that always holds', async () => {
    const stderr = await refusedBeforeAnyRequest(
      'kind: Policy\nmetadata: {name: https}\nspec:\n  match: {kinds: [ToolVersion]}\n  message: m\n  rule: "!has(object.spec.uri) || object.spec.uri.startsWith(\'https://\')"\n',
    );
    expect(stderr).toContain(
      'm/policy.yaml:6:9: policy https: the rule reads object.spec.uri, a field no ToolVersion has; did you mean "url"?',
    );
  });
});

describe('converge policy test', () => {
  /** `converge policy test m` over the release-host policy (deny) and these cases. */
  async function testReleaseHost(cases: string) {
    await put('policy.yaml', releaseHost('deny'));
    await put('release-host.test.yaml', `cases:\n${cases}`);
    return target.run(['policy', 'test', 'm']);
  }

  it('passes the examples and fails a wrong expectation with its place', async () => {
    const ok = await target.run(['policy', 'test', join(EXAMPLES, 'policies')]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('18 of 18 policy test case(s) passed.');

    const failed = await testReleaseHost(
      '  - name: elsewhere\n    object: {kind: ToolVersion, metadata: {name: 1.0.0}, spec: {url: "https://elsewhere.test/t.zip", sha: "00"}}\n    expect: allow\n',
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(
      'FAIL m/release-host.test.yaml:2: release-host: elsewhere: expected allow, got deny',
    );
    expect(failed.stdout).toContain('0 of 1 policy test case(s) passed, 1 failed.');
  });

  it("sees an example's metadata as a declared object's: the schema's defaults, and the scope its kind's address takes", async () => {
    const cap = policy('ssh-cap', 'SSHRole', "duration(object.spec.max_ttl) <= duration('24h')", 'deny');
    // the cap over the default mount only, and a rule over the default itself
    await put(
      'policy.yaml',
      `${cap.replace('kinds: [SSHRole]', 'kinds: [SSHRole], scopes: [ssh]')}---\n${policy('on-ssh', 'SSHRole', "object.metadata.mount == 'ssh'", 'deny')}`,
    );
    const role = (metadata: string) =>
      `{kind: SSHRole, metadata: {${metadata}}, spec: {key_type: ca, allow_user_certificates: true, max_ttl: 48h}}`;
    await put(
      'ssh-cap.test.yaml',
      `cases:\n  - name: default mount\n    object: ${role('name: r')}\n    expect: deny\n` +
        `  - name: another mount\n    object: ${role('name: r, mount: other')}\n    expect: allow\n`,
    );
    await put(
      'on-ssh.test.yaml',
      `cases:\n  - name: default mount\n    object: ${role('name: r')}\n    expect: allow\n` +
        // a rule over object alone does not judge a delete, as plan does not
        `  - name: deleted elsewhere\n    object: ${role('name: r, mount: other')}\n    change: {action: delete}\n    expect: allow\n`,
    );
    const result = await target.run(['policy', 'test', 'm']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('4 of 4 policy test case(s) passed.');
  });

  it('refuses an example object of a kind that does not exist, or with a field or metadata its kind does not have: each would pass as allowed', async () => {
    const refused = await testReleaseHost(
      '  - name: typo\n    object: {kind: ToolVersions, metadata: {name: 1.0.0}, spec: {url: "https://elsewhere.test/t.zip"}}\n    expect: allow\n  - name: field\n    object: {kind: ToolVersion, metadata: {name: 1.0.0}, spec: {uri: "https://elsewhere.test/t.zip"}}\n    expect: allow\n',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'm/release-host.test.yaml:3:20: case 1: unknown kind "ToolVersions"; did you mean "ToolVersion"?',
    );
    expect(refused.stderr).toContain(
      'm/release-host.test.yaml:6:65: case 2: object.spec.uri is no field of ToolVersion; did you mean "url"?',
    );

    // metadata a manifest could not have: labels a rule over them would never see so
    const metadata = await testReleaseHost(
      '  - name: labels\n    object: {kind: ToolVersion, metadata: {name: 1.0.0, lables: {team: a}}, spec: {}}\n    expect: allow\n',
    );
    expect(metadata.code).toBe(1);
    expect(metadata.stderr).toContain(
      'm/release-host.test.yaml:3:57: case 1: unknown field "lables" in metadata; did you mean "labels"?',
    );
    expect(metadata.stdout).not.toContain('policy test case(s) passed');
  });

  it('refuses a case it could not read as written at the value, rather than testing another case', async () => {
    const object =
      '    object: {kind: ToolVersion, metadata: {name: 1.0.0}, spec: {url: "https://elsewhere.test/t.zip"}}\n';
    const refused = await testReleaseHost(
      `  - name: paths\n${object}    change: {action: update, paths: url}\n    expect: allow\n` +
        `  - name: live\n${object}    live: 5\n    expect: allow\n` +
        `  - name: spec\n    object: {kind: ToolVersion, metadata: "x", spec: [1, 2]}\n    expect: allow\n`,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'm/release-host.test.yaml:4:37: case 1: `change.paths` is a list of field paths: [max_ttl]',
    );
    expect(refused.stderr).toContain(
      'm/release-host.test.yaml:8:11: case 2: `live` is a map, {spec}, or null for no live object',
    );
    expect(refused.stderr).toContain('m/release-host.test.yaml:11:43: case 3: `object.metadata` is a map');
    expect(refused.stdout).not.toContain('policy test case(s) passed');
  });

  it("gives live what plan gives it, the object's address without its labels: a passing test is the rule plan enforces", async () => {
    const labelled = `kind: ToolVersion\nmetadata: {name: 1.0.0, labels: {team: a}}\nspec: {url: "https://releases.example.com/t.zip", sha: "${SHA}"}\n`;
    await put('tools.yaml', labelled);
    await seedApply(target, ['m']);
    await put('policy.yaml', policy('live-labels', 'ToolVersion', 'live == null || has(live.metadata.labels)', 'deny'));
    await put(
      'live-labels.test.yaml',
      'cases:\n  - name: labelled\n    object: {kind: ToolVersion, metadata: {name: 1.0.0, labels: {team: a}}, spec: {}}\n' +
        '    live: {spec: {}}\n    expect: deny\n',
    );
    const tested = await target.run(['policy', 'test', 'm']);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toContain('ok   m/live-labels.test.yaml:2: live-labels: labelled (deny)');
    const planned = await target.run(['plan', 'm']);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain('denied by policy live-labels: ToolVersion/1.0.0 (m/tools.yaml:1:1)');

    await put(
      'live-labels.test.yaml',
      'cases:\n  - object: {kind: ToolVersion, metadata: {name: 1.0.0}, spec: {}}\n' +
        '    live: {metadata: {name: 1.0.0, labels: {team: a}}, spec: {}}\n    expect: allow\n',
    );
    const refused = await target.run(['policy', 'test', 'm']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "m/live-labels.test.yaml:3:12: case 1: `live` has no metadata of its own: it is the object's address",
    );
  });
});
