/**
 * `npm run build`: the package's `dist/`, as `converge` runs it.
 *
 * 1. The schemas' validators (scripts/build-validators.ts), so that no run compiles a schema.
 * 2. The typecheck: tsc, which emits nothing (tsconfig.build.json).
 * 3. One esbuild bundle of the CLI (ESM, split into chunks): each command's code is a chunk loaded
 *    when the command runs, so `--version` loads next to nothing and `validate` none of undici,
 *    Ink, React, fastify or the emulator. Loading a few chunks instead of some 200 small modules
 *    is most of what start-up saved (docs/performance.md, "Start-up").
 *
 * Layout: `dist/cli/main.js` (the bin), `dist/chunks/*.js`, the emulator's ingest worker where
 * its pool looks for it beside its own module: `dist/emulator/registry/ingest-worker.js`, the part
 * of undici the API clients load, beside theirs: `dist/api/undici-core.cjs`, and the
 * kinds' validators, one CommonJS module per kind, copied as they are where
 * src/manifest/shipped-schemas.ts `require`s them: `dist/manifest/validators/`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { writeValidators } from './build-validators.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = `${ROOT}dist`;

/**
 * Dependencies bundled into the chunks: the pure-JS ones of the start-up and `validate` paths,
 * whose many small files cost more to resolve and load than their code. Every other dependency
 * stays a package import, resolved from node_modules as before: the heavy ones only some commands
 * load, and those that find files of their own beside their code (hcl2json's WebAssembly). undici
 * is the one exception: the part the API clients use is bundled on its own (buildDist).
 */
const BUNDLED = new Set([
  // a run with policies compiles their rules: as a package, 14 modules to resolve and load
  '@marcbachmann/cel-js',
  'ajv',
  // bundled with ajv: as a package it `require`s ajv's own files (ajv/dist/compile/codegen), which
  // loaded a second, unbundled ajv of some 80 files beside the bundled one (~40 ms of `validate`)
  'ajv-formats',
  'commander',
  // every command reads its configuration through cosmiconfig: as a package, nine files to resolve
  // and load (and env-paths); its YAML and code loaders load what they need when they run
  'cosmiconfig',
  // plan, drift and apply show multi-line values as line diffs (src/ui/line-diff.ts): bundled, the few
  // functions they use are some 5 KB; as a package, its index loads some 30 files (25 to 50 ms)
  'diff',
  'env-paths',
  'fast-deep-equal',
  'fast-uri',
  'fastest-levenshtein',
  'json-schema-traverse',
  'picocolors',
  'yaml',
]);

/**
 * Code that finds files relative to its own module (`new URL('../../schemas/', import.meta.url)`,
 * the demo's CLI, the ingest worker) is given the URL its module has in an unbundled `dist/`:
 * `dist/<path below src>.js`. Every chunk and the bin are two levels below the root, so
 * `../<path>` from the chunk is that place. check() fails the build when such a module ends up in
 * an output at another depth.
 */
const ownUrl: Plugin = {
  name: 'own-url',
  setup(b) {
    b.onLoad({ filter: /\/src\/.*\.tsx?$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const unbundled = relative(`${ROOT}src`, args.path).replace(/\.tsx?$/, '.js');
      const url = `new URL(${JSON.stringify(`../${unbundled}`)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/** Bare imports of packages outside BUNDLED stay imports. */
const externals: Plugin = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0]!;
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

/** Modules using import.meta.url must sit two levels below the root (see ownUrl). */
function check(metafile: Metafile, out: string): void {
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (relative(out, `${ROOT}${output}`).split('/').length === 2) continue;
    for (const input of Object.keys(inputs)) {
      if (input.startsWith('src/') && readFileSync(`${ROOT}${input}`, 'utf8').includes('import.meta.url')) {
        throw new Error(`${input} uses import.meta.url but is bundled into ${output}: make it a chunk`);
      }
    }
  }
}

export interface BuildOptions {
  /** Where the build goes; `dist/` by default. Its parent must hold package.json and schemas/. */
  out?: string;
  /** Regenerate the validators and run tsc first (the default); the bundle alone without. */
  full?: boolean;
}

/** What both of the build's esbuild runs share: a bundle for Node, with what esbuild says each output holds. */
const FOR_NODE = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  target: 'node22',
  metafile: true,
  logLevel: 'warning',
} as const;

/** Builds the bundle; returns what esbuild says each output holds. */
export async function buildDist({ out = OUT, full = true }: BuildOptions = {}): Promise<Metafile> {
  if (full) {
    writeValidators();
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}tsconfig.build.json`], {
      stdio: 'inherit',
    });
  }
  // built beside the output and swapped in: a run of converge (or the bench) meanwhile finds the
  // old build or the new one, never a half-written one
  const next = `${out}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const result = await build({
    ...FOR_NODE,
    entryPoints: {
      'cli/main': 'src/cli/main.ts',
      'emulator/registry/ingest-worker': 'src/emulator/registry/ingest-worker.ts',
    },
    outdir: next,
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    format: 'esm',
    jsx: 'automatic',
    // bundled CommonJS (commander, yaml, ajv) calls require for Node's own modules
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    plugins: [externals, ownUrl],
  });
  check(result.metafile, next);
  cpSync(`${ROOT}src/manifest/validators`, `${next}/manifest/validators`, { recursive: true });
  // the part of undici the API clients `require` (src/api/undici-core.cjs), where they look for
  // it: one file instead of some 40 modules resolved and loaded from node_modules at each start
  const core = await build({
    ...FOR_NODE,
    entryPoints: ['src/api/undici-core.cjs'],
    outfile: `${next}/api/undici-core.cjs`,
    format: 'cjs',
  });
  Object.assign(result.metafile.inputs, core.metafile.inputs);
  Object.assign(result.metafile.outputs, core.metafile.outputs);
  const previous = `${out}.old-${process.pid}`;
  if (existsSync(out)) renameSync(out, previous);
  renameSync(next, out);
  rmSync(previous, { recursive: true, force: true });
  return result.metafile;
}

if (import.meta.main) {
  const metafile = await buildDist();
  // what each chunk holds, for esbuild's analyzer (https://esbuild.github.io/analyze/)
  if (process.env.CONVERGE_BUILD_META) writeFileSync(process.env.CONVERGE_BUILD_META, JSON.stringify(metafile));
}
