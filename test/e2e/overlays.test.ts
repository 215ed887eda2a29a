/**
 * Overlays on the CLI against the emulator (docs/environments.md, "Overlays"): a base and an
 * environment given as two path arguments, a patch that changes only its fields (and says where
 * each value came from in `plan --json` and `--show-sources`), an `ensure: absent` that removes a
 * base object, a saved plan that a moved line does not make stale, and each bad overlay refused
 * at file:line:col before any request.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

let target: CliTarget;

const BASE = `kind: SSHRole
metadata: {name: web}
spec:
  key_type: otp
  default_user: ubuntu
  cidr_list: [10.0.0.0/8]
  port: 22
---
kind: SSHRole
metadata: {name: legacy}
spec:
  key_type: otp
  default_user: root
  cidr_list: [10.9.0.0/16]
---
kind: GeneralSettings
spec:
  api-rate-limit: 60
  plan-timeout: 3h
`;

const PRODUCTION = `# production changes two fields of web and one setting, and drops legacy
kind: SSHRole
metadata: {name: web}
patch: true
spec:
  port: 2222
  cidr_list: [10.1.0.0/16]
---
kind: GeneralSettings
patch: true
spec:
  api-rate-limit: 120
---
kind: SSHRole
metadata: {name: legacy}
ensure: absent
`;

async function write(name: string, text: string): Promise<void> {
  const path = join(target.scratch, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

interface Change {
  path: string;
  before?: unknown;
  after?: unknown;
  source?: { file: string; line: number; col: number };
}
interface Action {
  key: string;
  action: string;
  changes: Change[];
}

async function schema(name: string) {
  const path = fileURLToPath(new URL(`../../schemas/documents/${name}.schema.json`, import.meta.url));
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(await readFile(path, 'utf8')));
}

beforeAll(async () => {
  // no object here has a write-only field
  target = await cliTarget('overlays', NO_FINGERPRINTS);
  await write('base/main.yaml', BASE);
  await write('production/main.yaml', PRODUCTION);
  // the base as an apply leaves it, applied in-process: the overlays are what these tests run as a process
  await seedApply(target, ['base']);
});
afterAll(() => target?.close());

describe('converge plan base production', () => {
  it("plans only the patch's fields, each with the file:line:col that set it, and the absent object deleted", async () => {
    const result = await target.run(['plan', 'base', 'production', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { plan: { actions: Action[] } };
    const byKey = new Map(report.plan.actions.map((a) => [a.key, a]));
    expect(byKey.get('SSHRole/ssh/web')?.action).toBe('update');
    expect(byKey.get('SSHRole/ssh/web')?.changes).toEqual([
      {
        path: 'cidr_list',
        before: ['10.0.0.0/8'],
        after: ['10.1.0.0/16'],
        source: { file: 'production/main.yaml', line: 7, col: 14 },
      },
      { path: 'port', before: 22, after: 2222, source: { file: 'production/main.yaml', line: 6, col: 9 } },
    ]);
    expect(byKey.get('GeneralSettings')?.changes).toEqual([
      { path: 'api-rate-limit', before: 60, after: 120, source: { file: 'production/main.yaml', line: 12, col: 19 } },
    ]);
    expect(byKey.get('SSHRole/ssh/legacy')?.action).toBe('delete');

    const validate = await schema('converge-plan-report');
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });

  it('says where each value came from in text only when asked', async () => {
    const shown = await target.run(['plan', 'base', 'production', '--show-sources', '--no-color']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('port: 22 -> 2222  (set at production/main.yaml:6:9)');
    expect(shown.stdout).toContain('- delete SSHRole/ssh/legacy (ensure: absent)');
    const plain = await target.run(['plan', 'base', 'production', '--no-color']);
    expect(plain.stdout).toContain('port: 22 -> 2222');
    expect(plain.stdout).not.toContain('set at');
  });

  it('says where each declared value was set in the drift report too', async () => {
    const result = await target.run(['drift', 'base', 'production', '--json']);
    expect(result.code, result.stderr).toBe(2);
    const report = JSON.parse(result.stdout) as { objects: Array<{ key: string; changes: Change[] }> };
    const web = report.objects.find((o) => o.key === 'SSHRole/ssh/web');
    expect(web?.changes.map((c) => [c.path, c.source?.file, c.source?.line])).toEqual([
      ['cidr_list', 'production/main.yaml', 7],
      ['port', 'production/main.yaml', 6],
    ]);
    const validate = await schema('converge-drift');
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });

  it('keeps sources out of the saved plan: a patch whose lines moved applies the reviewed plan', async () => {
    const saved = await target.run(['plan', 'base', 'production', '--out', 'plan.json']);
    expect(saved.code, saved.stderr).toBe(0);
    const file = JSON.parse(await readFile(join(target.scratch, 'plan.json'), 'utf8')) as {
      plan: { actions: Action[] };
    };
    const changes = file.plan.actions.flatMap((a) => a.changes);
    expect(changes.map((c) => c.path).sort()).toEqual(['api-rate-limit', 'cidr_list', 'port']);
    expect(changes.filter((c) => c.source !== undefined)).toEqual([]);
    await write('production/main.yaml', `# a comment moves every line down\n\n${PRODUCTION}`);
    const applied = await target.run(['apply', 'plan.json']);
    expect(applied.code, applied.stderr).toBe(0);
    const again = await target.run(['plan', 'base', 'production', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });
});

describe('bad overlays', () => {
  const BAD = {
    'bad1/web.yaml': 'kind: SSHRole\nmetadata: {name: webb}\npatch: true\nspec: {port: 2}\n',
    'bad2/web.yaml': 'kind: SSHRole\nmetadata: {name: web}\nspec: {key_type: otp}\n',
    'bad3/a.yaml': 'kind: SSHRole\nmetadata: {name: web}\npatch: true\nspec: {port: 2}\n',
    'bad3/b.yaml': 'kind: SSHRole\nmetadata: {name: web}\npatch: true\nspec: {port: 3}\n',
    'bad4/drop.yaml': 'kind: SSHRole\nmetadata: {name: legacy}\nensure: absent\n',
    'bad5/legacy.yaml': 'kind: SSHRole\nmetadata: {name: legacy}\npatch: true\nspec: {port: 2}\n',
    'bad5/web.yaml': 'kind: SSHRole\nmetadata: {name: web}\npatch: true\nspec:\n  port: many\n',
  };

  /** `plan` of the paths as a process, and the requests the emulator counted during it. */
  const planned = async (paths: string[]) => {
    target.emulator.resetStats();
    const result = await target.run(['plan', ...paths]);
    return { result, requests: target.emulator.stats().total };
  };

  /**
   * The loader reports every problem of a run, so the bad overlays that leave one another's lines
   * as they are share one process (a plan of base, bad1, bad3, bad4 and bad5 prints each of their
   * lines as a plan of base and that one alone does). The second full declaration (bad2) runs alone:
   * beside bad1 it would be the declaration bad1's suggestion names.
   */
  let together: ReturnType<typeof planned> | undefined;
  const refusedTogether = () => {
    together ??= planned(['base', 'bad1', 'bad3', 'bad4', 'bad5']);
    return together;
  };

  beforeAll(async () => {
    for (const [name, text] of Object.entries(BAD)) await write(name, text);
  });

  const expectRefused = ({ result, requests }: Awaited<ReturnType<typeof planned>>, expected: string[]) => {
    expect(result.code).toBe(1);
    for (const line of expected) expect(result.stderr).toContain(line);
    expect(result.stderr).toContain('nothing was sent to any API');
    expect(requests).toBe(0);
  };

  it('a patch of an object nothing declares', async () =>
    expectRefused(await refusedTogether(), [
      'bad1/web.yaml:1:1: patch of SSHRole "webb" in ssh, which no document declares; did you mean SSHRole "web" in ssh, declared at base/main.yaml:1:1?',
    ]));

  it('two full declarations', async () =>
    expectRefused(await planned(['base', 'bad2']), [
      'bad2/web.yaml:1:1: duplicate SSHRole "web" in ssh (also declared at base/main.yaml:1:1)',
    ]));

  it('two overlays of one object in one path argument', async () =>
    expectRefused(await refusedTogether(), [
      'bad3/b.yaml:1:1: SSHRole "web" in ssh is overlaid twice in "bad3" (also at bad3/a.yaml:1:1)',
    ]));

  it('a patch after the object was made absent, and a merged value the schema refuses', async () =>
    expectRefused(await refusedTogether(), [
      'bad5/legacy.yaml:1:1: patch of SSHRole "legacy" in ssh, which "bad4" makes absent at bad4/drop.yaml:1:1',
      'bad5/web.yaml:5:9: spec.port must be an integer (got string "many")',
    ]));
});
