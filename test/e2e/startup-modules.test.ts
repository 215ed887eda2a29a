/**
 * What the CLI loads, run from source as the tests and `npm run demo` run it, traced module by
 * module (test/helpers/module-trace.ts): a command loads only what it uses, so that an import
 * added later does not bring start-up work back silently (docs/performance.md, "Start-up";
 * test/e2e/build.test.ts checks the same of the bundle, from esbuild's metafile).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN, runNode } from '../helpers/cli.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TRACE_HOOK = fileURLToPath(new URL('../helpers/module-trace.ts', import.meta.url));

const TOOL = `kind: ToolVersion
metadata: {name: 1.2.3}
spec:
  url: https://example.com/t.zip
  sha: ${'a'.repeat(64)}
`;
const ROLE = `kind: SSHRole
metadata: {name: web}
spec:
  key_type: otp
  default_user: \${var:login}
`;
const LOGIN = `kind: Variable
metadata: {name: login}
spec: {default: ubuntu}
`;
const TYPED_LOGIN = `kind: Variable
metadata: {name: login}
spec: {default: ubuntu, schema: {type: string, minLength: 2}}
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-startup-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The CLI's exit code and the modules it loaded: `src/...` for ours, the package and its file for a dependency. */
async function traced(
  args: string[],
): Promise<{ code: number | null; output: string; modules: string[]; builtins: string[] }> {
  const trace = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  // the sources, whatever the other tests run (test/helpers/cli.ts): the bundle's chunks are
  // checked from esbuild's metafile in build.test.ts
  const result = await runNode(MAIN, args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      NODE_OPTIONS: `--import=${TRACE_HOOK}`,
      CONVERGE_MODULE_TRACE: trace,
    },
  });
  const lines = (await readFile(trace, 'utf8')).split('\n');
  const urls = lines.filter((u) => u.startsWith('file:'));
  const builtins = lines.filter((l) => l.startsWith('builtin:')).map((l) => l.slice('builtin:'.length));
  const modules = urls.map((u) => {
    const path = fileURLToPath(u);
    const pkg = /node_modules\/(.*)$/.exec(path)?.[1];
    return pkg ?? relative(ROOT, path);
  });
  return { code: result.code, output: result.stdout + result.stderr, modules, builtins };
}

/** Modules no command that sends nothing needs: the HTTP client and its layers, the terminal UI, the emulator. */
const NETWORK_OR_UI =
  /^(undici|ink|react|fastify|ldapts)\/|^src\/(api\/(client|connect|rate-limit|retry|exchange)|emulator\/|ui\/ink\/|reconcile\/fingerprint-store)/;

describe('what a command loads, from source', () => {
  it('--version loads the version alone', async () => {
    const { code, output, modules } = await traced(['--version']);
    expect(code).toBe(0);
    expect(output).toMatch(/^\d+\.\d+\.\d+/);
    expect(modules).toEqual(['src/cli/main.ts', 'src/cli/version.ts']);
  });

  it('validate loads no HTTP client, terminal UI or emulator, and no ajv without a Variable schema', async () => {
    await writeFile(join(dir, 'tool.yaml'), TOOL);
    await writeFile(join(dir, 'role.yaml'), ROLE);
    await writeFile(join(dir, 'vars.yaml'), LOGIN);
    const { code, output, modules, builtins } = await traced(['validate', 'tool.yaml', 'role.yaml', 'vars.yaml']);
    expect(output).toContain('Valid: 2 object(s) (1 ToolVersion, 1 SSHRole).');
    expect(code).toBe(0);
    // what the test looks for is there: the trace sees our modules and the packages' files
    expect(modules).toContain('src/manifest/load.ts');
    expect(modules.some((m) => m.startsWith('yaml/'))).toBe(true);
    expect(modules.filter((m) => NETWORK_OR_UI.test(m))).toEqual([]);
    // each kind's validator is loaded when a document of the kind is first validated, and no other
    expect(modules.filter((m) => m.startsWith('src/manifest/validators/')).sort()).toEqual([
      'src/manifest/validators/SSHRole.generated.cjs',
      'src/manifest/validators/ToolVersion.generated.cjs',
      'src/manifest/validators/Variable.generated.cjs',
    ]);
    // the kinds' validators are compiled at build time: ajv itself is not loaded, only its run-time helpers
    expect(modules.filter((m) => /^ajv(-formats)?\/dist\/(?!runtime\/|formats\.js)/.test(m))).toEqual([]);
    // nor Node's modules it does not use: crypto (templates are checked, not run), the heap's
    // statistics (the young generation is watched once the heap is large, or the reads begin)
    expect(builtins).toContain('fs');
    expect(builtins.filter((b) => ['crypto', 'v8', 'perf_hooks', 'http', 'https'].includes(b))).toEqual([]);
  });

  it("validate of a Variable with a schema checks it with draft-07's validator compiled at build time", async () => {
    await writeFile(join(dir, 'vars.yaml'), TYPED_LOGIN);
    const { code, modules } = await traced(['validate', 'tool.yaml', 'role.yaml', 'vars.yaml']);
    expect(code).toBe(0);
    expect(modules).toContain('src/manifest/meta-schema-validator.generated.js');
    expect(modules).toContain('ajv/dist/core.js');
    expect(modules.filter((m) => NETWORK_OR_UI.test(m))).toEqual([]);
  });
});
