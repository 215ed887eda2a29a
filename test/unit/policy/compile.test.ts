import { describe, expect, it } from 'vitest';
import type { ManifestOnlyDocument } from '../../../src/manifest/manifest-only.ts';
import { compileRule } from '../../../src/policy/cel.ts';
import { judge } from '../../../src/policy/evaluate.ts';
import { policyMatches } from '../../../src/policy/match.ts';
import { compilePolicies, type Policy } from '../../../src/policy/policy.ts';
import { celValue } from '../../../src/policy/view.ts';
import { providerMap } from '../../../src/providers/index.ts';
import { ANY_FIELDS } from './any-fields.ts';

const at = (line: number) => ({ file: 'p.yaml', line, col: 9 });
const KINDS = new Set(providerMap.keys());
function doc(
  name: string,
  rule: string,
  match: Record<string, unknown> = { kinds: ['SSHRole'] },
): ManifestOnlyDocument {
  return {
    kind: 'Policy',
    name,
    data: {
      kind: 'Policy',
      metadata: { name },
      spec: { match, rule, message: `${name} says no`, enforcement: 'deny' },
    },
    source: { file: 'p.yaml', line: 1, col: 1 },
    positions: { 'spec.rule': at(6), 'metadata.name': at(2) },
  };
}
/** One policy, compiled for evaluating: its rule may read fields of its own (./any-fields.ts). */
function one(rule: string, match?: Record<string, unknown>): Policy {
  const { policies, problems } = compilePolicies([doc('p', rule, match)], ANY_FIELDS);
  expect(problems).toEqual([]);
  return policies[0]!;
}

describe('compiling rules', () => {
  it('reports a syntax error at the rule value, with the CEL message and the character', () => {
    const { problems } = compilePolicies([doc('p', 'object.spec.')], providerMap);
    expect(problems).toEqual([
      { ...at(6), message: 'policy p: Expected IDENTIFIER, got EOF (at character 13 of the rule)' },
    ]);
  });

  it('reports type errors: an unknown variable, a wrong overload, a rule that is not a bool', () => {
    expect(compileRule('objet.spec.x')).toMatchObject({ error: { message: 'Unknown variable: objet' } });
    expect(compileRule('size(1) > 0')).toMatchObject({
      error: { message: "found no matching overload for 'size(int)'" },
    });
    expect(compileRule("'a' + 'b'")).toMatchObject({
      error: { message: 'a rule must be a bool expression (this one is string)' },
    });
  });

  it('refuses two policies of one name, pointing at the second', () => {
    const { problems } = compilePolicies([doc('p', 'true'), doc('p', 'true')], providerMap);
    expect(problems).toEqual([{ ...at(2), message: 'two policies are named "p" (the other at p.yaml:2:9)' }]);
  });

  it('refuses a kind that does not exist, at its item, with the kind it most likely meant', () => {
    // a policy over no kind would match nothing: a typo must not turn a guardrail off silently
    const typo = doc('p', 'true', { kinds: ['SSHRole', 'sshrol', 'Teams'] });
    typo.positions['spec.match.kinds.1'] = at(4);
    const { policies, problems } = compilePolicies([typo], providerMap);
    expect(policies).toEqual([]);
    expect(problems).toEqual([
      { ...at(4), message: 'policy p: unknown kind "sshrol"; did you mean "SSHRole"?' },
      // without a position of its own, the document's
      {
        file: 'p.yaml',
        line: 1,
        col: 1,
        message: `policy p: unknown kind "Teams"; expected one of: ${[...KINDS].sort().join(', ')}, or * for every kind`,
      },
    ]);
  });

  it('refuses a rule that reads a spec field no kind it matches has: it would read nothing', () => {
    // `!has(object.spec.max_tll) || ...` holds for every role: the guardrail would be off
    const problemOf = (rule: string, kinds: string[]) =>
      compilePolicies([doc('p', rule, { kinds })], providerMap).problems.map((p) => p.message);
    expect(
      problemOf("!has(object.spec.max_tll) || duration(object.spec.max_tll) <= duration('24h')", ['SSHRole']),
    ).toEqual(['policy p: the rule reads object.spec.max_tll, a field no SSHRole has; did you mean "max_ttl"?']);
    expect(problemOf("live.spec.url != ''", ['ToolVersion', 'AdminUser'])).toEqual([]);
    expect(problemOf("live.spec.ur != ''", ['ToolVersion', 'AdminUser'])).toEqual([
      'policy p: the rule reads live.spec.ur, a field no ToolVersion or AdminUser has; did you mean "url"?',
    ]);
    // with *, a field of some kind: the rule guards the others with has()
    expect(problemOf("!has(object.spec.url) || object.spec.url.startsWith('https://')", ['*'])).toEqual([]);
    expect(problemOf('has(object.spec.urll)', ['*'])[0]).toMatch(
      /reads object\.spec\.urll, a field no kind has; did you mean "url"\?$/,
    );
    expect(problemOf('object.specs.size() > 0', ['SSHRole'])).toEqual([
      'policy p: the rule reads object.specs: object holds kind, metadata and spec; did you mean "spec"?',
    ]);
  });

  it('checks only the top spec field: below it are map keys, and a nested table row counts by its first segment', () => {
    const ok = (rule: string, kinds: string[]) => compilePolicies([doc('p', rule, { kinds })], providerMap).problems;
    expect(
      ok("!has(object.spec.default_extensions.permit_pty) || object.metadata.labels.team == 'web'", ['SSHRole']),
    ).toEqual([]);
    expect(
      ok("object.spec['test-config'].size() >= 0 && has(object.spec.vcs_repo) == false", ['RegistryModule'])[0]
        ?.message,
    ).toMatch(/object\.spec\.vcs_repo, a field no RegistryModule has; did you mean "vcs-repo"\?/);
  });

  it("accepts every provider's kind, a module's versions included, and *", () => {
    for (const kinds of [['*'], ['RegistryModuleVersion'], [...KINDS]]) {
      expect(compilePolicies([doc('p', 'true', { kinds })], providerMap).problems).toEqual([]);
    }
  });
});

describe('which variables a rule reads (from the AST)', () => {
  it('puts rules over object alone in validate, the others in plan', () => {
    expect(one("object.spec.key_type == 'ca'").phase).toBe('validate');
    expect(one("change.action != 'delete'").phase).toBe('plan');
    expect(one('live == null || live.spec.x == object.spec.x').phase).toBe('plan');
  });

  it('does not count a macro variable that shadows a rule variable, nor a field named like one', () => {
    const uses = (rule: string) =>
      [...(compileRule(rule) as unknown as { rule: { uses: Set<string> } }).rule.uses].sort();
    expect(uses("object.spec.users.all(live, live != '')")).toEqual(['object']);
    expect(uses('object.spec.change == 1')).toEqual(['object']);
    expect(uses('object.spec.l.exists(x, x == change.action)')).toEqual(['change', 'object']);
  });
});

describe('matching', () => {
  it('by kind, scope glob and labels', () => {
    const p = one('true', { kinds: ['SSHRole'], scopes: ['ssh-*'], labels: { team: 'web' } });
    expect(policyMatches(p, { kind: 'SSHRole', scope: 'ssh-prod', labels: { team: 'web' } })).toBe(true);
    expect(policyMatches(p, { kind: 'SSHRole', scope: 'ldap', labels: { team: 'web' } })).toBe(false);
    expect(policyMatches(p, { kind: 'SSHRole', scope: 'ssh-prod', labels: { team: 'db' } })).toBe(false);
    expect(policyMatches(p, { kind: 'LDAPConfig', scope: 'ssh-prod', labels: { team: 'web' } })).toBe(false);
    expect(policyMatches(one('true', { kinds: ['*'] }), { kind: 'ToolVersion' })).toBe(true);
  });
});

describe('evaluating', () => {
  const object = (spec: Record<string, unknown>) => ({
    kind: 'SSHRole',
    metadata: {},
    spec: celValue(spec as never) as never,
  });

  it('compares durations given in seconds, as a manifest normalises them', () => {
    const p = one("duration(object.spec.max_ttl) <= duration('24h')");
    expect(judge(p, { object: object({ max_ttl: 43200 }) }).outcome).toBe('allow');
    expect(judge(p, { object: object({ max_ttl: 172800 }) }).outcome).toBe('deny');
  });

  it('has timestamps, string functions and has()', () => {
    const p = one(
      "timestamp(object.spec.at) < timestamp('2030-01-01T00:00:00Z') && object.spec.url.matches('^ldaps://') && !has(object.spec.x)",
    );
    expect(judge(p, { object: object({ at: '2026-11-27T12:00:00Z', url: 'ldaps://d' }) }).outcome).toBe('allow');
    expect(judge(p, { object: object({ at: '2026-11-27T12:00:00Z', url: 'ldap://d' }) }).outcome).toBe('deny');
  });

  it('fails closed when the rule cannot be evaluated, saying why', () => {
    const judged = judge(one('object.spec.missing == 1'), { object: object({}) });
    expect(judged).toEqual({ outcome: 'deny', error: 'no such key at `missing`' });
  });

  it('never quotes a value in an evaluation error: it names the failing part of the rule', () => {
    const judged = judge(one("duration(object.spec.password) > duration('1s')"), {
      object: object({ password: 'hunter2-canary' }),
    });
    expect(judged.outcome).toBe('deny');
    expect(judged.error).toBe('invalid duration at `duration(object.spec.password)`');
    expect(JSON.stringify(judged)).not.toContain('unter2');
  });

  it('shows whole numbers as int and keeps a `__proto__` key a key, without changing the input', () => {
    const input = JSON.parse('{"port": 22, "ratio": 0.5, "__proto__": {"x": 1}, "list": [1, "a"]}');
    const value = celValue(input) as Record<string, unknown>;
    expect(value.port).toBe(22n);
    expect(value.ratio).toBe(0.5);
    expect(Object.keys(value)).toEqual(['port', 'ratio', '__proto__', 'list']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(input.port).toBe(22);
    expect(
      judge(one('object.spec.port + 1 == 23 && object.spec.list[0] == 1'), { object: object(input) }).outcome,
    ).toBe('allow');
  });

  it('matches as RE2 does, as the CEL specification says: its classes, \\z and flags', () => {
    const verdict = (rule: string, url: string) => judge(one(rule), { object: object({ url }) }).outcome;
    expect(verdict("!object.spec.url.matches('[[:space:]]')", 'https://x.test/a b.zip')).toBe('deny');
    expect(verdict("!object.spec.url.matches('[[:space:]]')", 'https://x.test/ab.zip')).toBe('allow');
    expect(verdict("!object.spec.url.matches('\\\\.exe\\\\z')", 'https://x.test/tool.exe')).toBe('deny');
    expect(verdict("!object.spec.url.matches('\\\\.exe\\\\z')", 'https://x.test/tool.exe.zip')).toBe('allow');
    expect(verdict("object.spec.url.matches('(?i)^https://')", 'HTTPS://x.test/t.zip')).toBe('allow');
    // a match anywhere, not of the whole string
    expect(verdict("object.spec.url.matches('example')", 'https://example.com/t.zip')).toBe('allow');
  });

  it('takes linear time on a value that makes a backtracking engine run for hours', () => {
    const rule = "object.spec.url.matches('^https://([a-z]+)+[.]example[.]com/')";
    // 2^60 steps for a backtracking engine; RE2 reads the value once
    expect(judge(one(rule), { object: object({ url: `https://${'a'.repeat(60)}.example.net/t.zip` }) }).outcome).toBe(
      'deny',
    );
  });

  it('refuses at load a pattern RE2 does not take, at its character, with RE2 reason', () => {
    for (const [rule, reason] of [
      ["object.spec.url.matches('(?=https)')", 'invalid or unsupported Perl syntax: `(?=`'],
      ["object.spec.url.matches('(a)\\\\1')", 'invalid escape sequence: `\\1`'],
    ]) {
      expect(compileRule(rule as string)).toEqual({
        error: { message: `matches: not an RE2 regular expression: error parsing regexp: ${reason}`, offset: 24 },
      });
    }
    // the type checker speaks of `matches`, as the rule is written
    expect(compileRule("1.matches('a')")).toMatchObject({
      error: { message: "found no matching overload for 'int.matches(string)'" },
    });
  });

  it('fails closed on a pattern from data that RE2 refuses, never quoting it (it may be a secret)', () => {
    const judged = judge(one('object.spec.url.matches(object.spec.pattern)'), {
      object: object({ url: 'https://x.test', pattern: 'hunter2-canary(' }),
    });
    expect(judged.outcome).toBe('deny');
    expect(judged.error).toBe('invalid regular expression at `object.spec.url.matches(object.spec.pattern)`');
    expect(JSON.stringify(judged)).not.toContain('unter2');
  });

  it('gives live null and change none where no plan is known', () => {
    const p = one("live == null && change.action == 'none' && change.paths.size() == 0");
    expect(judge(p, { object: object({}) }).outcome).toBe('allow');
  });
});
