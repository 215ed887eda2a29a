/**
 * A policy's test file as `converge policy test` reads it (src/policy/test-cases.ts): a case the
 * runner could not read as written is refused at the value that is wrong, never run as another case.
 */
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../../src/errors.ts';
import { schemaSet } from '../../../src/manifest/schemas.ts';
import { parseTestFile } from '../../../src/policy/test-cases.ts';
import { providerMap } from '../../../src/providers/index.ts';

const schemas = await schemaSet();

const OBJECT = '{kind: ToolVersion, metadata: {name: 1.0.0}, spec: {url: "https://releases.example.com/t.zip"}}';

/** The problems of a file of one case: `object` and `expect`, then the lines given. */
function problems(...lines: string[]): string[] {
  const text = ['cases:', '  - name: one', `    object: ${OBJECT}`, ...lines, '    expect: allow', ''].join('\n');
  return parseTestFile('t.test.yaml', text, providerMap, schemas).problems.map(formatProblem);
}

describe('policy test cases', () => {
  it('reads a well-formed case', () => {
    const text = `cases:\n  - name: one\n    object: ${OBJECT}\n    live: {spec: {}}\n    change: {action: update, paths: [url]}\n    expect: allow\n`;
    const { tests, problems } = parseTestFile('t.test.yaml', text, providerMap, schemas);
    expect(problems).toEqual([]);
    expect(tests?.cases[0]).toMatchObject({ name: 'one', change: { action: 'update', paths: ['url'] }, line: 2 });
  });

  it.each([
    ['change: {action: update, paths: url}', 't.test.yaml:4:37: case 1: `change.paths` is a list of field paths'],
    ['change: {action: update, paths: [1]}', 't.test.yaml:4:37: case 1: `change.paths` is a list of field paths'],
    ['change: delete', 't.test.yaml:4:13: case 1: `change` is a map: {action, paths}'],
    ['change: {action: remove}', 't.test.yaml:4:22: case 1: `change.action` is one of create'],
    [
      'change: {action: delete, path: [url]}',
      't.test.yaml:4:30: case 1: `change.path` is not read by a test case; did you mean "paths"?',
    ],
    ['live: 5', 't.test.yaml:4:11: case 1: `live` is a map, {spec}, or null for no live object'],
    ['live: {spec: [1, 2]}', 't.test.yaml:4:18: case 1: `live.spec` is a map'],
    [
      'live: {metadata: {name: x}, spec: {}}',
      "t.test.yaml:4:12: case 1: `live` has no metadata of its own: it is the object's address, `name` and `scope`, as in a plan",
    ],
    [
      'chnage: {action: delete}',
      't.test.yaml:4:5: case 1: `chnage` is not read by a test case; did you mean "change"?',
    ],
  ])('refuses %s at its place', (line, problem) => {
    const found = problems(`    ${line}`);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(problem);
  });

  it('refuses an object whose metadata or spec is not a map, and a name that is not a string', () => {
    const one = (name: string, object: string) =>
      parseTestFile(
        't.test.yaml',
        `cases:\n  - name: ${name}\n    object: ${object}\n    expect: allow\n`,
        providerMap,
        schemas,
      ).problems.map(formatProblem);
    expect(one('one', '{kind: ToolVersion, metadata: {name: 1.0.0}, spec: [1, 2]}')).toEqual([
      't.test.yaml:3:64: case 1: `object.spec` is a map',
    ]);
    expect(one('one', '{kind: ToolVersion, metadata: "x", spec: {}}')).toEqual([
      't.test.yaml:3:43: case 1: `object.metadata` is a map',
    ]);
    expect(one('15', OBJECT)).toEqual([
      't.test.yaml:2:11: case 1: `name` is a string: quote a name YAML would read as a number or a bool',
    ]);
    // read as a manifest is: a number YAML cannot keep is refused, not rounded
    expect(one('1e20', OBJECT)).toEqual([
      't.test.yaml:2:11: the number 1e20 is too large to be kept exactly (beyond 2^53); quote it if it is text',
    ]);
    expect(one('one', '5')).toEqual(['t.test.yaml:3:13: case 1: `object` is a map: {kind, metadata, spec}']);
  });

  it("refuses metadata its kind's schema refuses in a manifest, at the value; a field left out is no problem", () => {
    const one = (object: string) =>
      parseTestFile(
        't.test.yaml',
        `cases:\n  - object: ${object}\n    expect: allow\n`,
        providerMap,
        schemas,
      ).problems.map(formatProblem);
    expect(one('{kind: SSHRole, metadata: {name: 42, lables: {team: web}, mount: {x: 1}}, spec: {}}')).toEqual([
      't.test.yaml:2:50: case 1: unknown field "lables" in metadata; did you mean "labels"?',
      't.test.yaml:2:78: case 1: metadata.mount must be a string (got a mapping)',
      't.test.yaml:2:46: case 1: metadata.name must be a string (got number 42); quote it to make it a string',
    ]);
    expect(one('{kind: AdminUser, metadata: {name: owner, labels: [team]}, spec: {}}')).toEqual([
      't.test.yaml:2:63: case 1: metadata.labels must be a mapping (got a list)',
    ]);
    expect(one('{kind: GeneralSettings, metadata: {name: x}, spec: {}}')).toEqual([
      't.test.yaml:2:48: case 1: metadata.name cannot be set in a manifest: settings are singletons and have no name',
    ]);
    // a module's version has its module's metadata; a prune's address alone, or no metadata, is a case
    expect(
      one(
        '{kind: RegistryModuleVersion, metadata: {organization: o, name: n, provider: aws, tier: x}, spec: {version: 1.0.0}}',
      ),
    ).toHaveLength(1);
    expect(
      one('{kind: RegistryModuleVersion, metadata: {organization: o, name: n, provider: aws}, spec: {version: 1.0.0}}'),
    ).toEqual([]);
    expect(one('{kind: SSHRole, metadata: {mount: ssh}, spec: {}}')).toEqual([]);
    expect(one('{kind: SSHRole, spec: {}}')).toEqual([]);
  });

  it('refuses a case that is not a map, a policy name that is not a string, and a second document', () => {
    const { problems } = parseTestFile('t.test.yaml', 'policy: 5\ncases:\n  - 5\n', providerMap, schemas);
    expect(problems.map(formatProblem)).toEqual([
      't.test.yaml:1:9: `policy` is the name of the policy tested, a string',
      't.test.yaml:3:5: case 1: a case is a map: {name, object, live, change, expect}',
    ]);
    const two = parseTestFile(
      't.test.yaml',
      `cases:\n  - {object: ${OBJECT}, expect: allow}\n---\ncases: []\n`,
      providerMap,
      schemas,
    );
    expect(two.problems.map(formatProblem)).toEqual(['t.test.yaml:4:1: a test file is one YAML document']);
  });
});
