/**
 * What --target, --selector, ownership scopes and `ignore` entries select, where names and
 * label keys are not what a path or a plain object expects: a name with `..` or an empty segment
 * (the secrets API takes them as names), a label key that is a name of Object.prototype, one key
 * given two values. Each once selected objects the user did not name, and --prune deleted them.
 */
import { describe, expect, it } from 'vitest';
import { parseSelectors } from '../../../src/cli/flags.ts';
import { matchesNameGlob } from '../../../src/reconcile/name-glob.ts';
import { isOwned } from '../../../src/reconcile/ownership.ts';
import { isSelected, liveInSelection } from '../../../src/reconcile/selection.ts';
import type { DesiredObject } from '../../../src/reconcile/types.ts';

const declared = (name: string, labels?: Record<string, string>): DesiredObject => ({
  kind: 'ToolVersion',
  address: { kind: 'ToolVersion', name },
  metadata: { name, ...(labels && { labels }) },
  ensure: 'present',
  spec: {},
  secretFields: [],
  source: { file: 't.yaml', line: 1, col: 1 },
  positions: {},
});

describe('a name glob', () => {
  it('matches names as globs do', () => {
    expect(matchesNameGlob('apps/y', 'apps/*')).toBe(true);
    expect(matchesNameGlob('1.9.8', '1.*')).toBe(true);
    expect(matchesNameGlob('apps/x/y', 'apps/**')).toBe(true);
    expect(matchesNameGlob('apps/x/y', 'apps/*')).toBe(false);
  });

  it('never reaches a name through a `..`, `.` or empty segment: such a name matches only itself', () => {
    for (const [name, pattern] of [
      ['legacy/../apps/y', 'apps/*'],
      ['x/../team-a', 'team-*'],
      ['apps/y/', 'apps/*'],
      ['apps//y', 'apps/*'],
      ['apps/./y', 'apps/*'],
    ] as const) {
      expect(matchesNameGlob(name, pattern), `${name} ~ ${pattern}`).toBe(false);
      expect(matchesNameGlob(name, name)).toBe(true);
    }
  });

  it('keeps ownership and --prune inside the scope the rule names', () => {
    const rules = [{ kind: 'LDAPStaticRole', scope: 'ldap', name: 'apps/*' }];
    const role = (name: string) => ({ kind: 'LDAPStaticRole', scope: 'ldap', name });
    expect(isOwned(rules, role('apps/y'))).toBe(true);
    expect(isOwned(rules, role('legacy/../apps/y'))).toBe(false);
    expect(isOwned(rules, role('apps//y'))).toBe(false);
  });
});

describe('--selector', () => {
  it('keeps every key as given, __proto__ included, so that it selects only objects with that label', () => {
    const selectors = parseSelectors(['__proto__=x']);
    expect(Object.keys(selectors)).toEqual(['__proto__']);
    const selection = { targets: [], selectors };
    expect(isSelected(selection, declared('1.0.0', { channel: 'stable' }))).toBe(false);
    expect(isSelected(selection, declared('2.0.0'))).toBe(false);
    // a selector leaves live objects out (they carry no labels): nothing to prune
    expect(liveInSelection(selection)?.({ kind: 'ToolVersion', name: '2.1.0' })).toBe(false);
  });

  it('matches own labels only: a key of Object.prototype is not a label every object has', () => {
    const selection = { targets: [], selectors: parseSelectors(['constructor=x']) };
    expect(isSelected(selection, declared('1.0.0'))).toBe(false);
    expect(
      isSelected({ targets: [], selectors: { channel: 'stable' } }, declared('1.0.0', { channel: 'stable' })),
    ).toBe(true);
  });

  it('refuses one key given two values, and takes one given twice alike', () => {
    expect(() => parseSelectors(['channel=stable', 'channel=beta'])).toThrow(
      '--selector channel is given two values ("stable" and "beta"): a label has one value',
    );
    expect(parseSelectors(['channel=stable', 'channel=stable', 'team=web'])).toEqual({
      channel: 'stable',
      team: 'web',
    });
  });
});
