/**
 * The ingest pool (src/emulator/registry/ingest-pool.ts): uploads are read in
 * worker threads, with the same outcome as reading them on the event loop: the
 * same module, and the same IngestError (message and stage) for an archive or
 * Terraform the registry refuses. Where the worker's script is missing, the
 * pool reads on the event loop.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { IngestError, ingestModule } from '../../../src/emulator/registry/ingest/index.ts';
import { IngestPool, workerFile } from '../../../src/emulator/registry/ingest-pool.ts';
import { tempDirSync } from '../../helpers/temp-dir.ts';
import { fixtureTarball, moduleTarball } from './tarballs.ts';

const pool = new IngestPool(workerFile(), 2);
afterAll(() => pool.close());

/** What `read` settles with: the module, or the error's class, message and stage. */
async function outcome(read: Promise<unknown>) {
  return read.then(
    (module) => ({ module }),
    (error: unknown) => ({
      refused: error instanceof IngestError,
      message: (error as Error).message,
      stage: (error as IngestError).stage,
    }),
  );
}

describe('the ingest pool', () => {
  it('finds its worker beside it in the sources', () => {
    expect(workerFile()?.pathname).toMatch(/\/src\/emulator\/registry\/ingest-worker\.ts$/);
    expect(pool.threaded).toBe(true);
  });

  it('reads each example module as the event loop does', async () => {
    for (const name of ['network', 'storage', 'dns']) {
      const archive = await fixtureTarball(name);
      const inWorker = await pool.ingest(archive);
      expect(inWorker).toEqual(await ingestModule(archive));
      expect(inWorker.root.inputs.length).toBeGreaterThan(0);
    }
  });

  it('refuses what the event loop refuses, with the same message and stage', async () => {
    const refused = [
      Buffer.from('not a gzip tarball'),
      moduleTarball({ 'README.md': '# no configuration\n' }),
      moduleTarball({ 'main.tf': 'variable "a" {\n  default = \n}\n' }),
    ];
    for (const archive of refused) {
      const inWorker = await outcome(pool.ingest(archive));
      expect(inWorker).toEqual(await outcome(ingestModule(archive)));
      expect(inWorker).toMatchObject({ refused: true });
    }
    const hcl = await outcome(pool.ingest(refused[2] as Buffer));
    expect(hcl).toMatchObject({
      stage: 'config',
      message: expect.stringMatching(/^main\.tf:2,13-3,1: Invalid expression/),
    });
  });

  it('reads many uploads at once, each answered with its own module', async () => {
    const archives = Array.from({ length: 24 }, (_, i) =>
      moduleTarball({ 'main.tf': `variable "v${i}" {\n  default = ${i}\n}\n` }),
    );
    const modules = await Promise.all(archives.map((archive) => pool.ingest(archive)));
    expect(modules.map((m) => m.root.inputs.map((input) => [input.name, input.default]))).toEqual(
      archives.map((_, i) => [[`v${i}`, i]]),
    );
  });

  it('fails what a closing pool was reading, and starts workers again for the next upload', async () => {
    const own = new IngestPool(workerFile(), 1);
    const archive = await fixtureTarball('network');
    const reading = outcome(own.ingest(archive));
    await own.close();
    expect(await reading).toMatchObject({ refused: false, message: expect.stringContaining('worker stopped') });
    expect((await own.ingest(archive)).root.path).toBe('');
    await own.close();
  });

  it('never keeps a process alive once its uploads are read', () => {
    // a process that read an upload through the shared pool must end on its own (the emulator's SIGTERM relies on it)
    const script = [
      `import { ingestPool } from ${JSON.stringify(new URL('../../../src/emulator/registry/ingest-pool.ts', import.meta.url).href)};`,
      `import { moduleTarball } from ${JSON.stringify(new URL('./tarballs.ts', import.meta.url).href)};`,
      `const module = await ingestPool().ingest(moduleTarball({ 'main.tf': 'variable "a" {}' }));`,
      'console.log(module.root.inputs[0].name);',
    ].join('\n');
    const file = join(tempDirSync('pool-exit'), 'read-one.mjs');
    writeFileSync(file, script);
    const child = spawnSync(process.execPath, [file], {
      encoding: 'utf8',
      timeout: 30_000,
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    });
    expect({ status: child.status, signal: child.signal, stdout: child.stdout.trim(), stderr: child.stderr }).toEqual({
      status: 0,
      signal: null,
      stdout: 'a',
      stderr: '',
    });
  });

  it('reads on the event loop when its worker script is missing', async () => {
    const elsewhere = pathToFileURL(`${tempDirSync('no-worker')}/pool.js`);
    expect(workerFile(elsewhere)).toBeUndefined();
    const inline = new IngestPool(undefined, 2);
    expect(inline.threaded).toBe(false);
    const archive = await fixtureTarball('dns');
    expect(await inline.ingest(archive)).toEqual(await ingestModule(archive));
  });

  it('reads on the event loop, the waiting uploads included, when its worker cannot start', async () => {
    const broken = join(tempDirSync('broken-worker'), 'ingest-worker.mjs');
    writeFileSync(broken, "throw new Error('this thread cannot load its code');\n");
    const unstartable = new IngestPool(pathToFileURL(broken), 2);
    const archives = await Promise.all(['network', 'dns'].map((name) => fixtureTarball(name)));
    const read = await Promise.all(archives.map((archive) => unstartable.ingest(archive)));
    expect(read).toEqual(await Promise.all(archives.map((archive) => ingestModule(archive))));
    expect(unstartable.threaded).toBe(false);
  });
});
