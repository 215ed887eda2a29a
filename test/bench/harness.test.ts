/**
 * The benchmark harness works: its smoke mode (`--smoke`, the quick mode with
 * the fewest objects and runs that still go through every path, and the
 * emulator in the harness's process) runs the cheap suites end to end and
 * writes results of the documented shape. Figures are not checked
 * (benchmarks never fail on timing), except request counts, which do not
 * depend on the machine or the size. Also: every kind converge knows is in
 * the bench table.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS, mixedSet, scaleKind } from '../../bench/kinds.ts';
import { providerFor, providers } from '../../src/providers/index.ts';
import { runNode } from '../helpers/cli.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Checked {
  target: string;
  met: boolean;
}

interface Results {
  converge: string;
  node: string;
  cpu: { model: string; cores: number };
  date: string;
  quick: boolean;
  smoke: boolean;
  suites: {
    efficiency: Array<Checked & { kind: string; phase: string; requests: number; lowerBound: number }>;
    startup: { rows: Array<{ command: string; from: string; medianMs: number; p90Ms: number; check: Checked }> };
    rateLimit: { runs: Array<{ limit: number; rateLimited: number; throughput: number; rate: Checked }> };
    scale: {
      runs: Array<{ kind: string; mode: string; requests: number; lowerBound: number; wallMs: number; rawMs: number }>;
    };
    memory: {
      rows: Array<{
        kind: string;
        reads: string;
        objects: number;
        requests: number;
        peakRssMB: number;
        check: Checked;
      }>;
    };
    apply: { runs: Array<{ objects: number; requests: number; wallMs: number; applyMs: number; check: Checked }> };
    policies: {
      objects: number;
      policies: number;
      judged: string;
      source: { withoutMs: number; withMs: number; overheadPct: number };
      build?: unknown;
      buildNote?: string;
      overheadPct: number;
      check: Checked;
    };
  };
  errors?: Record<string, string>;
}

/**
 * With Node's compile cache, in the directory the CLI's own processes use (src/cli/main.ts): the
 * harness loads most of src/ and the emulator, which then need no compiling or type stripping
 * after the first run.
 */
const run = (args: string[]) =>
  runNode('bench/run.ts', args, {
    cwd: ROOT,
    env: { ...process.env, NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') },
  });

const isChecked = (value: Checked) => typeof value.target === 'string' && typeof value.met === 'boolean';

describe('bench table', () => {
  it('has an entry for every kind converge knows', () => {
    const benched = new Set(KINDS.map((k) => k.kind));
    expect(providers.map((p) => p.kind).filter((kind) => !benched.has(kind))).toEqual([]);
  });

  it('plans SSH roles at scale: one LIST, then one GET per declared role, every one live', () => {
    const kind = scaleKind();
    expect({ kind: kind.kind, reads: kind.reads, provider: kind.provider }).toEqual({
      kind: 'SSHRole',
      reads: 'list-and-read',
      provider: undefined,
    });
    expect(kind.planBound(10_000)).toBe(10_001);
    expect(kind.documents(3).map((d) => d.metadata)).toEqual([
      { mount: 'ssh', name: 'bench-role-00000' },
      { mount: 'ssh', name: 'bench-role-00001' },
      { mount: 'ssh', name: 'bench-role-00002' },
    ]);
  });

  it('counts the folder LISTs of the LDAP kinds: two-level names, four folders, half live', () => {
    const ldap = (name: string) => KINDS.find((k) => k.name === name)!;
    // the top-level LIST (a 404 when nothing is live), one LIST per live folder, one GET per live object
    expect([1, 2, 250, 1000].map((n) => ldap('LDAPStaticRole').planBound(n))).toEqual([1, 3, 130, 505]);
    expect([1, 2, 250, 1000].map((n) => ldap('LDAPDynamicRole').planBound(n))).toEqual([1, 3, 130, 505]);
    // a library set's status is one more GET per live set
    expect([1, 2, 250, 1000].map((n) => ldap('LDAPLibrarySet').planBound(n))).toEqual([1, 4, 255, 1005]);
    expect(ldap('LDAPConfig').planBound(1)).toBe(1);
    expect(
      ldap('LDAPStaticRole')
        .documents(5)
        .map((d) => d.metadata?.name),
    ).toEqual([
      'team-0/static-00000',
      'team-1/static-00001',
      'team-2/static-00002',
      'team-3/static-00003',
      'team-0/static-00004',
    ]);
  });

  it('counts the registry kinds: the module list once, three requests a new version, one vars list per module', () => {
    const kind = (name: string) => KINDS.find((k) => k.name === name)!;
    const sizes = [1, 250, 1000];
    // half the modules live (a PATCH of the test configuration), half created (POST, then that PATCH)
    expect(sizes.map((n) => kind('RegistryModule').planBound(n))).toEqual([1, 2, 5]);
    expect(sizes.map((n) => kind('RegistryModule').applyBound(n))).toEqual([2, 375, 1500]);
    // one module with every version: its list page carries their statuses; POST, PUT, GET per new version
    const versions = kind('RegistryModuleVersion');
    expect({ kind: versions.kind, plan: sizes.map((n) => versions.planBound(n)) }).toEqual({
      kind: 'RegistryModule',
      plan: [1, 1, 1],
    });
    expect(sizes.map((n) => versions.applyBound(n))).toEqual([3, 375, 1500]);
    expect(versions.documents(3).map((d) => (d.spec.versions as Array<{ version: string }>).length)).toEqual([3]);
    // ten variables a module: one vars list per module, and the module list that checks they exist
    const variables = kind('ModuleTestVariable');
    expect(sizes.map((n) => variables.planBound(n))).toEqual([2, 26, 101]);
    expect(new Set(variables.documents(11).map((d) => d.metadata?.module))).toEqual(
      new Set(['bench-tested-00000/aws', 'bench-tested-00001/aws']),
    );
  });

  it('keeps mixed sets on the platform API (the memory and start-up suites configure no secrets API)', () => {
    const { parts } = mixedSet(100);
    expect(parts.map((p) => providerFor(p.kind.kind)?.api)).toEqual(parts.map(() => 'platform'));
  });
});

describe('bench harness (smoke)', () => {
  let dir: string;
  let result: { code: number | null; stdout: string; stderr: string };
  let results: Results;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-bench-test-'));
    const out = join(dir, 'results.json');
    result = await run([
      '--smoke',
      '--no-save',
      '--out',
      out,
      'efficiency',
      'startup',
      'rateLimit',
      'scale',
      'memory',
      'apply',
      'policies',
    ]);
    results = JSON.parse(await readFile(out, 'utf8')) as Results;
  }, 300_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('exits 0 and prints the same JSON it writes', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(results);
    expect(results.errors).toBeUndefined();
  });

  it('describes the run', () => {
    expect(results.converge).toMatch(/^\d+\.\d+\.\d+/);
    expect(results.node).toBe(process.version);
    expect(results.cpu.cores).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(results.date))).toBe(false);
    expect(results.quick).toBe(true);
    expect(results.smoke).toBe(true);
    expect(Object.keys(results.suites).sort()).toEqual([
      'apply',
      'efficiency',
      'memory',
      'policies',
      'rateLimit',
      'scale',
      'startup',
    ]);
  });

  it('plans and applies every kind of the table in the fewest requests the API allows', () => {
    const rows = results.suites.efficiency;
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(KINDS.map((k) => k.name)));
    for (const row of rows) {
      expect(isChecked(row)).toBe(true);
      expect({ kind: row.kind, phase: row.phase, requests: row.requests }).toEqual({
        kind: row.kind,
        phase: row.phase,
        requests: row.lowerBound,
      });
    }
  });

  it('times start-up from source', () => {
    const rows = results.suites.startup.rows;
    // node -e 0 first: the baseline the start-up targets are ratios of, measured in the same run
    expect(rows[0]).toMatchObject({ command: 'node -e 0', from: 'node' });
    expect(rows.filter((r) => r.from === 'source').map((r) => r.command)).toEqual([
      'converge --version',
      'converge validate (examples)',
      expect.stringMatching(/^converge validate \(\d+ objects\)$/),
    ]);
    for (const row of rows) {
      expect(row.medianMs).toBeGreaterThan(0);
      expect(row.p90Ms).toBeGreaterThanOrEqual(row.medianMs);
      expect(isChecked(row.check)).toBe(true);
    }
  });

  it('applies creates as whole processes: one list page, then one POST per object', () => {
    const { runs } = results.suites.apply;
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs) {
      expect(r.requests).toBe(1 + r.objects);
      expect(r.wallMs).toBeGreaterThan(r.applyMs);
      expect(isChecked(r.check)).toBe(true);
    }
  });

  it('measures the rate-limited run', () => {
    const [run] = results.suites.rateLimit.runs;
    expect(run?.limit).toBe(30);
    expect(run?.throughput).toBeGreaterThan(0);
    expect(run?.rateLimited).toBeGreaterThanOrEqual(0);
    expect(isChecked(run!.rate)).toBe(true);
  });

  it('plans at scale as whole processes, in the fewest requests, beside the raw loop', () => {
    const runs = results.suites.scale.runs;
    expect(runs.map((r) => [r.kind, r.mode])).toEqual([
      ['SSHRole(all live)', 'adaptive'],
      ['ToolVersion', 'adaptive'],
    ]);
    for (const r of runs) {
      expect(r.requests).toBe(r.lowerBound);
      expect(r.wallMs).toBeGreaterThan(0);
      expect(r.rawMs).toBeGreaterThan(0);
    }
  });

  it('measures peak memory on the three read paths', () => {
    const rows = results.suites.memory.rows;
    expect(rows.map((r) => [r.kind, r.reads])).toEqual([
      ['SSHRole', 'list-and-read'],
      ['ToolVersion', 'pages'],
      ['LDAPStaticRole', 'list-and-read'],
    ]);
    // a smoke run's sizes (bench/suites/memory.ts): one LIST and a GET per role (20); the first
    // page of the 101 live versions and the one after it; the LDAP roles' top level, its four
    // folders and a GET per live role (10)
    expect(rows.map((r) => [r.objects, r.requests])).toEqual([
      [20, 21],
      [202, 2],
      [20, 15],
    ]);
    for (const row of rows) {
      expect(row.peakRssMB).toBeGreaterThan(0);
      expect(isChecked(row.check)).toBe(true);
    }
  });

  it('times validate with and without policies from source, judged there in a smoke run', () => {
    const p = results.suites.policies;
    expect(p).toMatchObject({ objects: 200, policies: 20, judged: 'source' });
    expect(p.buildNote).toBe('a smoke run: the build is not measured');
    expect(p.build).toBeUndefined();
    expect(p.source.withoutMs).toBeGreaterThan(0);
    expect(p.source.withMs).toBeGreaterThan(0);
    expect(p.overheadPct).toBe(p.source.overheadPct);
    expect(isChecked(p.check)).toBe(true);
  });

  it('prints a summary of every target on stderr', () => {
    expect(result.stderr).toMatch(/efficiency: \d+ kind\/size\/phase runs at the lower bound/);
    expect(result.stderr).toMatch(/startup converge --version from source \(median\)/);
    expect(result.stderr).toMatch(/policies: 20 over validate of 200 objects, source/);
  });
});
