/**
 * Loading stays linear and bounded: duplicate keys are found with one pass
 * (not the yaml library's pairwise check), a mapping or a value past its
 * limit is one problem naming the limit, and an integer beyond 2^53 is an
 * error rather than a silently rounded number.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS, parseDocuments } from '../../../src/manifest/documents.ts';

const mapping = (keys: number) =>
  `kind: GeneralSettings\nspec:\n${Array.from({ length: keys }, (_, i) => `  k${i}: ${i}`).join('\n')}\n`;

describe('input limits', () => {
  it('reads a mapping up to the key limit, and refuses a larger one with one problem', () => {
    expect(parseDocuments(mapping(LIMITS.keysPerMapping), 'a.yaml').problems).toEqual([]);
    // one key over the limit is enough: a larger mapping costs the test seconds and proves nothing more
    expect(parseDocuments(mapping(LIMITS.keysPerMapping + 1), 'b.yaml').problems).toEqual([
      { file: 'b.yaml', line: 3, col: 3, message: 'a mapping may hold at most 10000 keys (this one has 10001)' },
    ]);
  });

  it('reports every duplicate key at its place, naming the first', () => {
    const text = 'kind: GeneralSettings\nspec:\n  a: 1\n  b: 2\n  a: 3\n  a: 4\n';
    expect(parseDocuments(text, 'd.yaml').problems).toEqual([
      { file: 'd.yaml', line: 5, col: 3, message: 'duplicate key "a" (first at line 3)' },
      { file: 'd.yaml', line: 6, col: 3, message: 'duplicate key "a" (first at line 3)' },
    ]);
  });

  it('refuses a string value over the value limit', () => {
    const text = `kind: SMTPSettings\nspec:\n  host: ${'h'.repeat(LIMITS.valueBytes + 1)}\n`;
    expect(parseDocuments(text, 'v.yaml').problems).toEqual([
      {
        file: 'v.yaml',
        line: 3,
        col: 9,
        message: `a value may hold at most ${LIMITS.valueBytes} characters (this one has ${LIMITS.valueBytes + 1})`,
      },
    ]);
  });

  it('refuses integers that a JSON number cannot hold exactly, and keeps those it can', () => {
    const { problems, documents } = parseDocuments('a: 9007199254740991\nb: 9007199254740993\nc: 1e+23\n', 'n.yaml');
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [2, 'the number 9007199254740993 is too large to be kept exactly (beyond 2^53); quote it if it is text'],
      [3, 'the number 1e+23 is too large to be kept exactly (beyond 2^53); quote it if it is text'],
    ]);
    expect(documents).toEqual([]);
  });
});
