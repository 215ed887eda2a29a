import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { chooseReporter, isCi, jsonReporter, reporterKind } from '../../../src/ui/choose-reporter.ts';
import { memoryOutput } from '../../../src/ui/output.ts';
import { plainReporter } from '../../../src/ui/plain-reporter.ts';
import { ev, planned, summary } from './events.ts';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const tty = { isTTY: true } as NodeJS.WriteStream;
const pipe = { isTTY: false } as NodeJS.WriteStream;

describe('reporterKind', () => {
  const base = { json: false, progress: true, stream: tty, env: { TERM: 'xterm-256color' } };

  it.each([
    ['an interactive terminal', {}, 'ink'],
    ['--json, even on a terminal', { json: true }, 'json'],
    ['--json in CI', { json: true, env: { CI: 'true' } }, 'json'],
    ['a pipe', { stream: pipe }, 'plain'],
    ['a terminal with CI=true', { env: { CI: 'true' } }, 'plain'],
    ['a terminal with CI=1', { env: { CI: '1' } }, 'plain'],
    ['a terminal with CI=woodpecker', { env: { CI: 'woodpecker' } }, 'plain'],
    ['a terminal with --no-progress', { progress: false }, 'plain'],
    ['a terminal with TERM=dumb', { env: { TERM: 'dumb' } }, 'plain'],
    ['a terminal with CI=false', { env: { CI: 'false' } }, 'ink'],
  ] as const)('%s', (_, override, kind) => {
    expect(reporterKind({ ...base, ...override })).toBe(kind);
  });

  it('treats only truthy CI values as CI', () => {
    expect([isCi({}), isCi({ CI: '' }), isCi({ CI: '0' }), isCi({ CI: 'TRUE' }), isCi({ CI: '1' })]).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});

describe('chooseReporter', () => {
  const events = [
    ev({ type: 'read-done', objects: 3, requests: 4, elapsedMs: 12 }),
    ev({ type: 'apply-start', total: 2 }),
    ev({ type: 'action-start', action: planned('GeneralSettings') }),
    ev({ type: 'action-done', action: planned('GeneralSettings'), elapsedMs: 120 }),
    ev({ type: 'action-failed', action: planned('AdminUser/ann', 'create'), error: { message: '422 taken' } }),
    ev({ type: 'apply-done', summary: summary({ done: { update: 1 }, elapsedMs: 200 }) }),
  ];

  async function feed(options: {
    json: boolean;
    progress: boolean;
    stream: NodeJS.WriteStream;
    env: NodeJS.ProcessEnv;
  }) {
    const output = memoryOutput();
    const reporter = await chooseReporter({ ...options, output, colors: pc.createColors(false), converge: '9.9.9' });
    for (const e of events) reporter.listener(e);
    await reporter.close();
    return output;
  }

  it('prints exactly the plain reporter lines off a terminal', async () => {
    const got = await feed({ json: false, progress: true, stream: pipe, env: {} });
    const want = memoryOutput();
    const plain = plainReporter(want, pc.createColors(false));
    for (const e of events) plain(e);
    expect(got.stdout).toEqual(want.stdout);
    expect(got.stderr).toEqual(want.stderr);
    expect(got.stdout).toContain('[1/2] updated GeneralSettings (120 ms)');
  });

  it('prints exactly the JSON lines with --json, after a header naming the format and its version', async () => {
    const got = await feed({ json: true, progress: true, stream: tty, env: {} });
    const want = memoryOutput();
    const json = jsonReporter(want, '9.9.9');
    for (const e of events) json(e);
    // the header's time is its own; the events are the same lines
    expect(got.stdout.slice(1)).toEqual(want.stdout.slice(1));
    expect(JSON.parse(got.stdout[0]!)).toEqual({
      type: 'header',
      format: 'converge-apply-events',
      version: 1,
      converge: '9.9.9',
      generatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(got.stdout.map((l) => JSON.parse(l).type)).toEqual(['header', ...events.map((e) => e.type)]);
  });
});

/** Modules a file loads statically (type-only imports are erased), following relative paths. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file) || !existsSync(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('lazy Ink', () => {
  it('the walker sees Ink and React behind the Ink facade (control)', () => {
    const { packages } = staticGraph(resolve(SRC, 'ui/ink/render.ts'));
    expect(packages).toContain('ink');
    expect(packages).toContain('react');
  });

  it('nothing the CLI program imports statically reaches ink or react', () => {
    const { files, packages } = staticGraph(resolve(SRC, 'cli/program.ts'));
    expect(files.size).toBeGreaterThan(3);
    expect(packages).toContain('commander');
    expect([...packages].filter((p) => p === 'ink' || p === 'react' || p.startsWith('ink-'))).toEqual([]);
    expect([...files].filter((f) => f.includes('/ui/ink/'))).toEqual([]);
  });

  it('choose-reporter itself imports neither ink nor react statically', () => {
    const { packages } = staticGraph(resolve(SRC, 'ui/choose-reporter.ts'));
    expect(packages.has('ink') || packages.has('react')).toBe(false);
  });

  /** Runs chooseReporter in a fresh Node and lists every bare package the module loader resolved. */
  async function packagesLoaded(options: { tty: boolean; json: boolean; env: Record<string, string> }) {
    const script = `
      import { registerHooks } from 'node:module';
      const seen = new Set();
      registerHooks({ resolve(specifier, context, next) { seen.add(specifier); return next(specifier, context); } });
      const { chooseReporter } = await import(process.argv[1]);
      const output = { out() {}, err() {} };
      const colors = { isColorSupported: false };
      const o = JSON.parse(process.argv[2]);
      const reporter = await chooseReporter({ json: o.json, progress: true, stream: { isTTY: o.tty }, env: o.env, output, colors });
      reporter.listener({ type: 'read-start', kinds: [], seq: 1, time: 0 });
      await reporter.close();
      process.stdout.write(JSON.stringify([...seen].filter((s) => !s.startsWith('.') && !s.startsWith('file:') && !s.startsWith('node:'))));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      script,
      pathToFileURL(resolve(SRC, 'ui/choose-reporter.ts')).href,
      JSON.stringify(options),
    ]);
    return JSON.parse(stdout) as string[];
  }

  it('`converge --version` never loads ink or react', async () => {
    const script = `
      import { registerHooks } from 'node:module';
      const seen = new Set();
      registerHooks({ resolve(specifier, context, next) { seen.add(specifier); return next(specifier, context); } });
      process.argv = [process.argv[0], 'converge', '--version'];
      process.on('exit', () => process.stderr.write(JSON.stringify([...seen])));
      await import(${JSON.stringify(pathToFileURL(resolve(SRC, 'cli/main.ts')).href)});
    `;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const seen = JSON.parse(stderr) as string[];
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    // answered by the entry point itself: not even commander is loaded (src/cli/main.ts)
    expect(seen).toContain('./version.ts');
    expect(seen).not.toContain('commander');
    expect(seen.filter((s) => s === 'ink' || s === 'react' || s.includes('/ui/ink/'))).toEqual([]);
  });

  it('the plain and JSON paths never load ink or react; the terminal path does', async () => {
    const [plain, json, ink] = await Promise.all([
      packagesLoaded({ tty: false, json: false, env: {} }),
      packagesLoaded({ tty: true, json: true, env: {} }),
      packagesLoaded({ tty: true, json: false, env: { TERM: 'xterm' } }),
    ]);
    for (const loaded of [plain, json]) {
      expect(loaded).not.toContain('ink');
      expect(loaded).not.toContain('react');
    }
    expect(ink).toContain('ink');
    expect(ink).toContain('react');
  });
});
