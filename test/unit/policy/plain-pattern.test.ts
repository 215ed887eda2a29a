/**
 * The patterns `matches` runs on RegExp instead of RE2 (src/policy/plain-pattern.ts): which ones,
 * and that RegExp then gives RE2's verdict on any string, over random patterns of the part and near it.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainPattern } from '../../../src/policy/plain-pattern.ts';

const { RE2JS } = createRequire(import.meta.url)('re2js') as typeof import('re2js');
const ROOT = new URL('../../../', import.meta.url);

describe('a plain pattern', () => {
  it.each([
    '^[A-Z][A-Za-z]+$',
    '^https://releases\\.example\\.com/',
    '^ldaps://',
    '\\.example\\.com$',
    '^[a-z][a-z0-9\\-]*$',
    '^[^/]+$',
    'tmp-',
    '^v?1$',
    '',
    'é[😀-🙏]',
  ])('is %j: literals, escaped punctuation, classes and anchors, one quantifier after ^', (pattern) => {
    expect(plainPattern(pattern)).toBeInstanceOf(RegExp);
  });

  it.each([
    // read apart: `.` and `\s` match other characters, `[]a]` is a class in RE2, POSIX classes, flags
    'a.b',
    '\\s',
    '\\d+',
    '[]a]',
    '[[:space:]]',
    '(?i)abc',
    'a\\z',
    '\\-',
    '[a-]',
    '[z-a]',
    // backtracking: groups, alternation, counts, two quantifiers, a quantifier not anchored by ^
    '^(a+)+$',
    'a|b',
    '^a{2,}$',
    '^a*a*b',
    '^a+?',
    '[a-z]+x',
    'x*',
  ])('is not %j: the engines read it apart, or RegExp could backtrack without bound', (pattern) => {
    expect(plainPattern(pattern)).toBeUndefined();
  });

  // patterns made of the part's pieces and of pieces just outside it, so both sides are drawn
  const piece = fc.constantFrom(
    'a',
    'b',
    'A',
    '-',
    '/',
    'é',
    '😀',
    '\\.',
    '\\-',
    '\\$',
    '\\[',
    '[ab]',
    '[^a]',
    '[a-c]',
    '[^\\-b]',
    '[é-😀]',
    '*',
    '+',
    '?',
    '.',
    '$',
    '^',
    '[]',
    '\\s',
  );
  const pattern = fc
    .tuple(fc.boolean(), fc.array(piece, { maxLength: 6 }), fc.boolean())
    .map(([start, pieces, end]) => `${start ? '^' : ''}${pieces.join('')}${end ? '$' : ''}`);
  const text = fc.array(
    fc.constantFrom('a', 'b', 'c', 'A', '-', '/', '.', '$', '[', '\n', '\r', '\v', '\u00a0', 'é', '😀'),
    {
      maxLength: 8,
    },
  );

  it('matches wherever RE2 matches, on any string', () => {
    let plain = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (p, texts) => {
        const regexp = plainPattern(p);
        if (!regexp) return;
        plain++;
        const re2 = RE2JS.compile(p);
        for (const t of texts.map((chars) => chars.join(''))) {
          expect(regexp.test(t), `${JSON.stringify(p)} on ${JSON.stringify(t)}`).toBe(re2.test(t));
        }
      }),
      { numRuns: 3000 },
    );
    // the property is about plain patterns: enough of the draws must be
    expect(plain).toBeGreaterThan(600);
  });
});

describe('a rule whose patterns are all plain', () => {
  it('compiles and runs without loading RE2', () => {
    const script = [
      "import { createRequire } from 'node:module';",
      "const { compileRule } = await import('./src/policy/cel.ts');",
      "const { rule } = compileRule(\"object.kind.matches('^[A-Z][A-Za-z]+$') && !object.metadata.name.matches('^tmp-')\");",
      "const verdict = rule.run({ object: { kind: 'SSHRole', metadata: { name: 'web' }, spec: {} }, live: null, change: {} });",
      "const loaded = Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes('re2js'));",
      'console.log(JSON.stringify({ verdict, loaded }));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ verdict: true, loaded: false });
    // and one that is not plain loads it
    const other = spawnSync(process.execPath, ['--input-type=module', '-e', script.replace("'^tmp-'", "'^tmp-.*'")], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    expect(JSON.parse(other.stdout)).toEqual({ verdict: true, loaded: true });
  });
});
