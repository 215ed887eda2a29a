/**
 * What keeps evaluation cheap without changing what a rule sees or decides (docs/policies.md,
 * "Cost"): the fields of `object` a rule reads, found in its AST; a result reused for objects
 * with the same values there; values converted to CEL only where they hold a whole number; a
 * view whose spec is worked out when a rule first reads it.
 */
import { describe, expect, it } from 'vitest';
import type { ManifestOnlyDocument } from '../../../src/manifest/manifest-only.ts';
import { compileRule } from '../../../src/policy/cel.ts';
import { checkDeclared } from '../../../src/policy/evaluate.ts';
import { compilePolicies, type Policy } from '../../../src/policy/policy.ts';
import { ruleRun } from '../../../src/policy/result-cache.ts';
import { celValue, objectView, objectViewer } from '../../../src/policy/view.ts';
import { providerMap } from '../../../src/providers/index.ts';
import type { DesiredObject } from '../../../src/reconcile/types.ts';
import { desired } from '../reconcile/builders.ts';
import { anyFieldsPolicy } from './any-fields.ts';

const policy = anyFieldsPolicy;

/** Counts the runs of a policy's rule (shared by the policies that share its text) from now on. */
function countRuns(p: Policy): () => number {
  let runs = 0;
  const run = p.rule.run;
  p.rule.run = (variables) => {
    runs++;
    return run(variables);
  };
  return () => runs;
}

const paths = (rule: string) => (compileRule(rule) as { rule: { objectPaths?: readonly string[] } }).rule.objectPaths;

describe('the fields of object a rule reads', () => {
  it('are its fixed selections, has() included', () => {
    expect(paths("object.kind.matches('^A') && has(object.metadata.labels)")).toEqual(['kind', 'metadata.labels']);
    expect(paths('object.metadata.labels.all(k, k.size() < 64)')).toEqual(['metadata.labels']);
    expect(paths("change.action == 'none'")).toEqual([]);
  });

  it('are unknown when the rule uses object any other way', () => {
    expect(paths("object['kind'] == 'A'")).toBeUndefined();
    expect(paths('object.size() > 0')).toBeUndefined();
    expect(paths('[object].size() == 1')).toBeUndefined();
  });

  it('do not count a macro variable named object', () => {
    expect(paths('object.spec.users.all(object, object.x == 1)')).toEqual(['spec.users']);
  });

  it('are read only by their keys where a macro, size() or in reads a map so, and not where anything reads it whole', () => {
    const keysOnly = (rule: string) =>
      (compileRule(rule) as { rule: { objectKeysOnly?: readonly string[] } }).rule.objectKeysOnly;
    for (const rule of [
      'object.spec.all(k, k.size() < 100)',
      'object.spec.exists(k, k.startsWith("x"))',
      'object.spec.exists_one(k, k == "x")',
      'object.spec.map(k, k).size() > 0',
      'object.spec.map(k, k != "a", k).size() > 0',
      'object.spec.filter(k, k != "a").size() > 0',
      'object.spec.size() > 0',
      'size(object.spec) > 0',
      '"x" in object.spec',
    ]) {
      expect(paths(rule), rule).toEqual(['spec']);
      expect(keysOnly(rule), rule).toEqual(['spec']);
    }
    // the same field read whole anywhere in the rule is read whole
    expect(keysOnly('object.spec.all(k, k != "a") && object.spec == {}')).toEqual([]);
    expect(keysOnly('object.spec.all(k, object.spec[k] != 1)')).toEqual([]);
    expect(keysOnly('object.spec.users.all(u, u != "root") && object.spec.users[0] != "x"')).toEqual([]);
    // two reads, one by keys: each keeps its own
    expect(paths('object.spec.all(k, k != "a") && has(object.spec.ttl)')).toEqual(['spec', 'spec.ttl']);
    expect(keysOnly('object.spec.all(k, k != "a") && has(object.spec.ttl)')).toEqual(['spec']);
    // a macro's own arguments are read as usual
    expect(keysOnly('object.spec.all(k, k != object.metadata.name)')).toEqual(['spec']);
    expect(paths('object.spec.all(k, k != object.metadata.name)')).toEqual(['metadata.name', 'spec']);
  });
});

describe('a result reused by the values a rule reads', () => {
  const view = (kind: string, metadata: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
    object: { kind, metadata, spec },
    live: null,
    change: { action: 'none', paths: [] },
  });
  /** A run of the rule that counts its evaluations, and the verdict it gives for each object. */
  const counted = (rule: string) => {
    const compiled = policy(rule).rule;
    let runs = 0;
    const run = ruleRun(compiled, (variables) => {
      runs++;
      return compiled.run(variables) === true;
    });
    const verdict = (kind: string, metadata: Record<string, unknown>, spec?: Record<string, unknown>) => {
      const variables = view(kind, metadata, spec);
      // as validate passes them: the object as declared (no spec), the spec in the variables' view
      return run.verdict({ kind, metadata }, { variables: () => variables });
    };
    return { verdict, runs: () => runs };
  };

  it('runs a rule over kind once per kind, and over labels once per set of labels', () => {
    for (const [rule, expected] of [
      ["object.kind.startsWith('S')", 2],
      ["!has(object.metadata.labels) || object.metadata.labels.team == 'web'", 3],
    ] as const) {
      const { verdict, runs } = counted(rule);
      verdict('SSHRole', { name: 'a', labels: { team: 'web' } });
      verdict('SSHRole', { name: 'b', labels: { team: 'web' } });
      verdict('SSHRole', { name: 'c', labels: { team: 'db' } });
      verdict('LDAPConfig', { name: 'd' });
      expect(runs(), rule).toBe(expected);
    }
  });

  it('never reuses a result when a value the rule reads differs', () => {
    // absent, empty and a string that reads like another value's key are each their own
    const { verdict, runs } = counted("has(object.metadata.scope) && object.metadata.scope != 'prod'");
    expect(verdict('SSHRole', { name: 'a' })).toBe(false);
    expect(verdict('SSHRole', { name: 'b', scope: 'prod' })).toBe(false);
    expect(verdict('SSHRole', { name: 'c', scope: '' })).toBe(true);
    expect(verdict('SSHRole', { name: 'd', scope: 'prod' })).toBe(false);
    expect(verdict('SSHRole', { name: 'e' })).toBe(false);
    expect(verdict('SSHRole', { name: 'f', scope: '' })).toBe(true);
    expect(runs()).toBe(3);
    const labels = counted("!has(object.metadata.labels) || object.metadata.labels.team != 'web'");
    expect(labels.verdict('SSHRole', { name: 'a', labels: { team: 'web' } })).toBe(false);
    expect(labels.verdict('SSHRole', { name: 'b', labels: { team: 'db' } })).toBe(true);
    expect(labels.verdict('SSHRole', { name: 'c', labels: { team: 'web', tier: 'x' } })).toBe(false);
    expect(labels.verdict('SSHRole', { name: 'd', labels: { team: 'db' } })).toBe(true);
    expect(labels.runs()).toBe(3);
    const both = counted("object.kind == 'SSHRole' && has(object.metadata.scope)");
    expect(both.verdict('SSHRole', { name: 'a', scope: 'x' })).toBe(true);
    expect(both.verdict('LDAPConfig', { name: 'b', scope: 'x' })).toBe(false);
    expect(both.verdict('SSHRole', { name: 'c' })).toBe(false);
    expect(both.verdict('SSHRole', { name: 'd', scope: 'x' })).toBe(true);
    expect(both.runs()).toBe(3);
  });

  it('runs a rule over spec fields once per value the rule sees', () => {
    const ttl = counted('!has(object.spec.ttl) || object.spec.ttl <= 3600');
    expect(ttl.verdict('SSHRole', { name: 'a' }, { ttl: 60n })).toBe(true);
    expect(ttl.verdict('SSHRole', { name: 'b' }, { ttl: 60n, port: 22n })).toBe(true);
    expect(ttl.verdict('SSHRole', { name: 'c' }, { ttl: 7200n })).toBe(false);
    expect(ttl.verdict('SSHRole', { name: 'd' }, {})).toBe(true);
    expect(ttl.verdict('SSHRole', { name: 'e' }, { ttl: 7200n })).toBe(false);
    expect(ttl.runs()).toBe(3);
    // an int, a double and a string of the same digits are three values
    const typed = counted("string(object.spec.n) == '2'");
    expect(typed.verdict('X', { name: 'a' }, { n: 2n })).toBe(true);
    expect(typed.verdict('X', { name: 'b' }, { n: '2' })).toBe(true);
    expect(typed.verdict('X', { name: 'c' }, { n: 2.5 })).toBe(false);
    expect(typed.verdict('X', { name: 'd' }, { n: 2n })).toBe(true);
    expect(typed.runs()).toBe(3);
    // a list or a map is one value, in its order
    const items = counted("object.spec.users.all(u, u != 'root')");
    expect(items.verdict('X', { name: 'a' }, { users: ['ops'] })).toBe(true);
    expect(items.verdict('X', { name: 'b' }, { users: ['root'] })).toBe(false);
    expect(items.verdict('X', { name: 'c' }, { users: ['ops', 'root'] })).toBe(false);
    expect(items.verdict('X', { name: 'd' }, { users: ['ops'] })).toBe(true);
    expect(items.verdict('X', { name: 'e' }, { users: { root: 'x' } })).toBe(false);
    expect(items.runs()).toBe(4);
  });

  it('runs a rule over names once per name: one name in several mounts or kinds is one value', () => {
    const { verdict, runs } = counted("!object.metadata.name.startsWith('tmp-')");
    expect(verdict('SSHRole', { name: 'web', mount: 'ssh-prod' })).toBe(true);
    expect(verdict('SSHRole', { name: 'web', mount: 'ssh-dev' })).toBe(true);
    expect(verdict('LDAPDynamicRole', { name: 'web', mount: 'ldap' })).toBe(true);
    expect(verdict('SSHRole', { name: 'tmp-x', mount: 'ssh-dev' })).toBe(false);
    expect(verdict('SSHRole', { name: 'tmp-x', mount: 'ssh-prod' })).toBe(false);
    expect(runs()).toBe(2);
  });

  it('never for a rule over a whole spec, live or change', () => {
    for (const rule of [
      'object.spec != {}',
      "object.spec.all(k, object.spec[k] != 'x')",
      "change.action != 'delete'",
    ]) {
      const { verdict, runs } = counted(rule);
      verdict('SSHRole', { name: 'a' });
      verdict('SSHRole', { name: 'a' });
      expect(runs(), rule).toBe(2);
    }
  });

  it('runs a rule over the keys of a map once per list of keys; a list or a string there, once per value', () => {
    const keys = counted("object.spec.all(k, k != 'root')");
    expect(keys.verdict('X', { name: 'a' }, { user: 'ops', ttl: 60n })).toBe(true);
    expect(keys.verdict('X', { name: 'b' }, { user: 'dev', ttl: 7200n })).toBe(true);
    expect(keys.verdict('X', { name: 'c' }, { user: 'ops', root: true })).toBe(false);
    expect(keys.verdict('X', { name: 'd' }, { user: 'x', root: false })).toBe(false);
    expect(keys.verdict('X', { name: 'e' }, { ttl: 60n, user: 'ops' })).toBe(true);
    // the same keys in another order are another list: map() and filter() give them in order
    expect(keys.runs()).toBe(3);
    const listed = counted("object.spec.users.exists(u, u == 'root')");
    expect(listed.verdict('X', { name: 'a' }, { users: ['ops'] })).toBe(false);
    expect(listed.verdict('X', { name: 'b' }, { users: ['root'] })).toBe(true);
    expect(listed.verdict('X', { name: 'c' }, { users: { root: 'ops' } })).toBe(true);
    expect(listed.verdict('X', { name: 'd' }, { users: { root: 'dev' } })).toBe(true);
    expect(listed.verdict('X', { name: 'e' }, { users: ['ops'] })).toBe(false);
    // a map with the same keys as the one before shares its run
    expect(listed.runs()).toBe(3);
    const sized = counted('object.metadata.name.size() < 3');
    expect(sized.verdict('X', { name: 'ab' })).toBe(true);
    expect(sized.verdict('X', { name: 'abc' })).toBe(false);
    expect(sized.verdict('Y', { name: 'ab' })).toBe(true);
    expect(sized.runs()).toBe(2);
  });

  it('gives every object the verdict its own run gives', () => {
    const rules = [
      "object.spec.all(k, k != 'root')",
      "'root' in object.spec.users",
      'object.spec.users.size() < 2',
      "object.spec.map(k, k)[0] != 'b'",
      "object.spec.filter(k, k.startsWith('u')).size() <= 1 && has(object.spec.b)",
    ];
    const specs: Record<string, unknown>[] = [
      { a: 1n, b: 2n },
      { b: 2n, a: 1n },
      { a: 'x', b: 'y', users: ['root'] },
      { a: 'x', b: 'z', users: ['ops', 'root'] },
      { users: { root: 'x', ops: 'y' } },
      { users: { ops: 'y' }, root: 1n },
      { users: 'root', b: 1n },
      { b: 1n, users: 'ops' },
    ];
    for (const rule of rules) {
      const compiled = policy(rule).rule;
      // a run that could not be evaluated (a key that is not there) is a verdict of its own
      const alone = (spec: Record<string, unknown>) => {
        try {
          return String(compiled.run(view('X', { name: 'n' }, spec)));
        } catch {
          return 'error';
        }
      };
      const reused = ruleRun(compiled, (variables) => {
        try {
          return String(compiled.run(variables));
        } catch {
          return 'error';
        }
      });
      const verdicts = specs.map((spec) =>
        reused.verdict({ kind: 'X', metadata: { name: 'n' } }, { variables: () => view('X', { name: 'n' }, spec) }),
      );
      expect(verdicts, rule).toEqual(specs.map(alone));
      expect(new Set(verdicts).size, `${rule} decides both ways`).toBeGreaterThan(1);
    }
  });

  it('decides as a run per object would, and counts every pair', () => {
    const objects = ['a', 'b', 'c'].map(
      (name, i): DesiredObject => ({
        kind: 'ToolVersion',
        address: { kind: 'ToolVersion', name },
        metadata: { name, ...(i > 0 && { labels: { tier: i === 1 ? 'beta' : 'stable' } }) },
        ensure: 'present',
        spec: { url: 'https://x.test/t.zip', sha: 'a'.repeat(64) },
        secretFields: [],
        source: { file: 't.yaml', line: i * 4 + 1, col: 1 },
        positions: {},
      }),
    );
    const summary = checkDeclared(
      [policy("has(object.metadata.labels) && object.metadata.labels.tier == 'stable'")],
      objects,
      providerMap,
    );
    expect(summary.evaluated).toBe(3);
    expect(summary.violations.map((v) => v.object)).toEqual(['ToolVersion/a', 'ToolVersion/b']);
  });
});

describe('a result reused by the values of the spec a rule sees', () => {
  const role = (name: string, spec: Record<string, unknown>): DesiredObject => ({
    kind: 'SSHRole',
    address: { kind: 'SSHRole', scope: 'ssh', name },
    metadata: { name, mount: 'ssh' },
    ensure: 'present',
    spec: { key_type: 'ca', ...spec },
    secretFields: [],
    source: { file: 'r.yaml', line: 1, col: 1 },
    positions: {},
  });

  it('keys by the canonical value: a TTL written 1h and 3600 is one value, and each object keeps its verdict', () => {
    const p = policy('!has(object.spec.ttl) || object.spec.ttl <= 3600', ['SSHRole']);
    const runs = countRuns(p);
    const summary = checkDeclared(
      [p],
      [role('a', { ttl: '1h' }), role('b', { ttl: 3600 }), role('c', { ttl: '2h' }), role('d', { ttl: '120m' })],
      providerMap,
    );
    expect(summary.evaluated).toBe(4);
    expect(summary.violations.map((v) => v.object)).toEqual(['SSHRole/ssh/c', 'SSHRole/ssh/d']);
    expect(runs()).toBe(2);
  });

  it("keys a rule over the spec's keys by the declared keys where the kind's canonical keys follow them", () => {
    const p = policy("object.spec.size() == 7 && !('deprecated-reason' in object.spec && object.spec.beta)", ['*']);
    const runs = countRuns(p);
    const url = (i: number) => `https://releases.example.com/t-${i}.zip`;
    const sha = 'a'.repeat(64);
    const objects = [
      // ToolVersion: every row has a default or is set, so its 7 canonical keys come from any declared keys
      ...[1, 2, 3].map((i) => desired('ToolVersion', `1.${i}.0`, { url: url(i), sha })),
      desired('ToolVersion', '2.0.0', { url: url(4), sha, deprecated: true }),
      desired('ToolVersion', '2.1.0', { url: url(5), sha, deprecated: false }),
      // another kind with the same declared keys has its own canonical keys: its own run
      desired('PolicyVersion', '0.60.0', { url: url(6), sha }),
    ];
    const summary = checkDeclared([p], objects, providerMap);
    expect(summary.evaluated).toBe(6);
    expect(summary.violations).toEqual([]);
    // one run per kind and list of declared keys: [url, sha] twice (two kinds), [url, sha, deprecated] once
    expect(runs()).toBe(3);
    // and the verdicts are those of the canonical specs: a spec rule over values still sees them all
    const beta = policy('object.spec.beta == false', ['ToolVersion']);
    expect(checkDeclared([beta], objects, providerMap).violations).toEqual([]);
  });

  it('reads the canonical spec for a kind whose canonical keys depend on values', () => {
    // an SSH role's CA fields apply only to CA roles: the same declared keys give other canonical ones
    const p = policy("'allowed_user_key_lengths' in object.spec", ['SSHRole']);
    const summary = checkDeclared(
      [p],
      [role('ca', { key_type: 'ca', ttl: '1h' }), role('otp', { key_type: 'otp', ttl: '1h' })],
      providerMap,
    );
    expect(summary.violations.map((v) => v.object)).toEqual(['SSHRole/ssh/otp']);
  });
});

describe('the last result', () => {
  it('is reused for the next object only when what it reads is the same kind of value', () => {
    // a map read by its keys and a string that reads like the key made of them are two values
    const compiled = policy("'team' in object.metadata.labels").rule;
    const reused = ruleRun(compiled, (variables) => {
      try {
        return String(compiled.run(variables));
      } catch {
        return 'error';
      }
    });
    const verdict = (labels: unknown) => {
      const metadata = { name: 'n', labels };
      const variables = { object: { kind: 'X', metadata, spec: {} }, live: null, change: {} };
      return reused.verdict({ kind: 'X', metadata }, { variables: () => variables });
    };
    expect(verdict({ team: 'web' })).toBe('true');
    expect(verdict('K["team"]')).toBe('error');
    expect(verdict({ team: 'db' })).toBe('true');
    expect(verdict(undefined)).toBe('error');
    expect(verdict({ tier: 'x' })).toBe('false');
  });
});

describe('a rule several policies share', () => {
  const doc = (
    name: string,
    rule: string,
    match: Record<string, unknown>,
    enforcement: string,
  ): ManifestOnlyDocument => ({
    kind: 'Policy',
    name,
    data: { kind: 'Policy', metadata: { name }, spec: { match, rule, message: name, enforcement } },
    source: { file: 'p.yaml', line: 1, col: 1 },
    positions: {},
  });
  const user = (name: string, labels?: Record<string, string>): DesiredObject => ({
    kind: 'AdminUser',
    address: { kind: 'AdminUser', name },
    metadata: { name, ...(labels && { labels }) },
    ensure: 'present',
    spec: { 'is-admin': false },
    secretFields: [],
    source: { file: 'u.yaml', line: 1, col: 1 },
    positions: {},
  });

  it('is compiled once and runs once per object; each policy decides with its own enforcement and match', () => {
    const rule = "!object.metadata.name.startsWith('tmp-')";
    const { policies, problems } = compilePolicies(
      [
        doc('everywhere', rule, { kinds: ['*'] }, 'deny'),
        doc('users', rule, { kinds: ['AdminUser'] }, 'warn'),
        doc('team-web', rule, { kinds: ['AdminUser'], labels: { team: 'web' } }, 'warn'),
        doc('tools', rule, { kinds: ['ToolVersion'] }, 'deny'),
      ],
      providerMap,
    );
    expect(problems).toEqual([]);
    const compiled = policies[0]!.rule;
    expect(policies.every((p) => p.rule === compiled)).toBe(true);
    const runs = countRuns(policies[0]!);
    const summary = checkDeclared(policies, [user('tmp-a', { team: 'web' }), user('b'), user('tmp-c')], providerMap);
    expect(runs()).toBe(3);
    // 3 objects x (everywhere, users) + 1 labelled one x team-web
    expect(summary.evaluated).toBe(7);
    expect(summary.violations.map((v) => `${v.outcome} ${v.policy} ${v.object}`)).toEqual([
      'deny everywhere AdminUser/tmp-a',
      'deny everywhere AdminUser/tmp-c',
      'warn users AdminUser/tmp-a',
      'warn team-web AdminUser/tmp-a',
      'warn users AdminUser/tmp-c',
    ]);
  });

  it('runs for the objects its policies select, when they all select by labels or scope', () => {
    const { policies, problems } = compilePolicies(
      [
        doc(
          'team-web',
          "!object.metadata.name.startsWith('tmp-')",
          { kinds: ['AdminUser'], labels: { team: 'web' } },
          'deny',
        ),
        doc('no-a', "!object.metadata.name.endsWith('-a')", { kinds: ['AdminUser'] }, 'deny'),
      ],
      providerMap,
    );
    expect(problems).toEqual([]);
    const selective = countRuns(policies[0]!);
    const everywhere = countRuns(policies[1]!);
    const users = [
      user('tmp-a', { team: 'web' }),
      user('tmp-b'),
      user('root', { team: 'web' }),
      user('c-a', { team: 'db' }),
    ];
    const summary = checkDeclared(policies, users, providerMap);
    expect(selective()).toBe(2);
    expect(everywhere()).toBe(4);
    expect(summary.evaluated).toBe(6);
    // in the order of the objects, and each object's in the order of the policies
    expect(summary.violations.map((v) => `${v.policy} ${v.object}`)).toEqual([
      'team-web AdminUser/tmp-a',
      'no-a AdminUser/tmp-a',
      'no-a AdminUser/c-a',
    ]);
  });
});

/** A provider whose canonical form adds a default port, counting the specs it works out. */
function countingProvider(): { provider: never; calls: () => number } {
  let calls = 0;
  const provider = {
    canonicalDesired: (spec: Record<string, unknown>) => {
      calls++;
      return { ...spec, port: 22 };
    },
  };
  return { provider: provider as never, calls: () => calls };
}

describe('the values a rule sees', () => {
  it('are the input itself where nothing holds a whole number, and a copy only of what does', () => {
    const input = { url: 'u', users: ['a', 'b'], nested: { ttl: 60, names: ['x'] }, ratio: 0.5 };
    const value = celValue(input) as typeof input & { nested: { ttl: unknown } };
    expect(value).not.toBe(input);
    expect(value.users).toBe(input.users);
    expect(value.nested.names).toBe(input.nested.names);
    expect(value.nested.ttl).toBe(60n);
    expect(input.nested.ttl).toBe(60);
    const plain = { url: 'u', users: ['a'] };
    expect(celValue(plain)).toBe(plain);
  });

  it('have a spec worked out once, when a rule first reads it', () => {
    const { provider, calls } = countingProvider();
    const object = {
      kind: 'SSHRole',
      metadata: { name: 'web' },
      ensure: 'present',
      spec: { key_type: 'otp' },
    } as unknown as DesiredObject;
    const view = objectView(object, provider);
    expect(calls()).toBe(0);
    expect(Object.hasOwn(view, 'spec')).toBe(true);
    expect(view.spec).toEqual({ key_type: 'otp', port: 22n });
    expect(view.spec).toBe(view.spec);
    expect(calls()).toBe(1);
  });

  it('come from one view shown each object in turn, its spec that of the object shown', () => {
    const { provider, calls } = countingProvider();
    const role = (name: string, keyType: string, labels?: Record<string, string>) =>
      ({
        kind: 'SSHRole',
        metadata: { name, ...(labels && { labels }) },
        ensure: 'present',
        spec: { key_type: keyType },
      }) as unknown as DesiredObject;
    const { view, show } = objectViewer();
    show(role('web', 'otp', { team: 'a' }), provider);
    expect(view.metadata).toEqual({ name: 'web', labels: { team: 'a' } });
    expect(view.spec).toEqual({ key_type: 'otp', port: 22n });
    show(role('db', 'ca'), provider);
    expect(calls()).toBe(1);
    expect(view.kind).toBe('SSHRole');
    expect(view.metadata).toEqual({ name: 'db' });
    expect(view.spec).toEqual({ key_type: 'ca', port: 22n });
    expect(calls()).toBe(2);
    // CEL reads it as a map: a plain object with its own spec
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    expect(Object.hasOwn(view, 'spec')).toBe(true);
  });

  it('decide in validate as views made for each object would', () => {
    const roles = ['otp', 'ca', 'otp'].map(
      (keyType, i) =>
        ({
          kind: 'SSHRole',
          address: { kind: 'SSHRole', name: `r${i}`, scope: 'ssh' },
          metadata: { name: `r${i}`, mount: 'ssh' },
          ensure: 'present',
          spec: { key_type: keyType, default_user: `u${i}` },
          secretFields: [],
          source: { file: 'r.yaml', line: i + 1, col: 1 },
          positions: {},
        }) as unknown as DesiredObject,
    );
    const summary = checkDeclared(
      [policy("object.spec.key_type == 'otp' && object.metadata.name != 'r2'")],
      roles,
      providerMap,
    );
    expect(summary.violations.map((v) => v.object)).toEqual(['SSHRole/ssh/r1', 'SSHRole/ssh/r2']);
  });
});
