import { describe, expect, it } from 'vitest';
import { parseDocuments } from '../../../src/manifest/documents.ts';
import { lazyRecord } from '../../../src/manifest/lazy-record.ts';

// Three documents: the first refused (a duplicate key), the second empty, the third kept.
const TEXT = [
  'kind: A',
  'kind: B',
  '---',
  '# nothing',
  '---',
  'kind: C',
  'spec:',
  '  list:',
  '    - one',
  '    - name: two',
  '  empty:',
  '  "quoted": 3',
  '',
].join('\n');

describe('source positions, worked out when first read', () => {
  it('places every value and key of a kept document, whatever came before it in the file', () => {
    const { documents, problems } = parseDocuments(TEXT, 'f.yaml');
    expect(problems).toEqual([{ file: 'f.yaml', line: 2, col: 1, message: 'duplicate key "kind" (first at line 1)' }]);
    expect(documents).toHaveLength(1);
    const [doc] = documents;
    expect(doc?.start).toEqual({ file: 'f.yaml', line: 6, col: 1 });
    const at = (line: number, col: number) => ({ file: 'f.yaml', line, col });
    expect({ ...doc?.values }).toEqual({
      kind: at(6, 7),
      spec: at(8, 3),
      'spec.list': at(9, 5),
      'spec.list.0': at(9, 7),
      'spec.list.1': at(10, 7),
      'spec.list.1.name': at(10, 13),
      // a key without a value: yaml places its empty value after the colon
      'spec.empty': at(11, 9),
      'spec.quoted': at(12, 13),
    });
    expect(doc?.keys).toEqual({
      kind: at(6, 1),
      spec: at(7, 1),
      'spec.list': at(8, 3),
      'spec.list.1.name': at(10, 7),
      'spec.empty': at(11, 3),
      'spec.quoted': at(12, 3),
    });
  });

  it('parses the file again once, on the first read of any of its documents', () => {
    const text = Array.from({ length: 3 }, (_, i) => `kind: K${i}\nspec:\n  n: ${i}\n`).join('---\n');
    const { documents } = parseDocuments(text, 'g.yaml');
    expect(documents.map((d) => d.values['spec.n']?.line)).toEqual([3, 7, 11]);
    expect(documents.map((d) => d.keys['spec.n']?.col)).toEqual([3, 3, 3]);
  });
});

describe('lazyRecord', () => {
  it('computes once, and reads as the record it stands for', () => {
    let computed = 0;
    const record = lazyRecord(() => {
      computed += 1;
      return { a: 1, constructor: 2 } as Record<string, number>;
    });
    expect(computed).toBe(0);
    expect(record.a).toBe(1);
    expect(Object.hasOwn(record, 'constructor')).toBe(true);
    expect(Object.hasOwn(record, 'toString')).toBe(false);
    expect('a' in record).toBe(true);
    expect(Object.keys(record)).toEqual(['a', 'constructor']);
    expect(JSON.stringify(record)).toBe('{"a":1,"constructor":2}');
    expect({ ...record }).toEqual({ a: 1, constructor: 2 });
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(computed).toBe(1);
  });

  it('keeps each record apart though they share one handler', () => {
    const first = lazyRecord(() => ({ a: 1 }) as Record<string, number>);
    const second = lazyRecord(() => ({ b: 2 }) as Record<string, number>);
    second.c = 3;
    expect({ ...first }).toEqual({ a: 1 });
    expect({ ...second }).toEqual({ b: 2, c: 3 });
    delete second.b;
    expect(Object.keys(second)).toEqual(['c']);
  });
});
