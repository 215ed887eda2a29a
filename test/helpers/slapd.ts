/**
 * A throw-away OpenLDAP server for tests: the real directory the emulator's
 * LDAP engine is checked against (test/emulator/ldap-directory/). It runs
 * Debian's /usr/sbin/slapd from a generated slapd.conf (quicker to set up
 * than cn=config, which needs its own slapadd -n0 pass) with an mdb
 * database in a temp dir, loaded offline with slapadd from the same LDIF
 * the in-memory directory uses, on a free loopback port. It answers within
 * tens of milliseconds; stop() kills it and removes every file.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { expect } from 'vitest';
import {
  DEFAULT_ADMIN_DN,
  DEFAULT_ADMIN_PASSWORD,
  DEFAULT_BASE_DN,
  DEFAULT_DIRECTORY_LDIF,
} from '../../src/emulator/ldap/directory/index.ts';

export interface Slapd {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
  /** Stops the server and removes every file. */
  stop(): Promise<void>;
  /** Stops the server process and keeps its data: the directory has gone away (a restart, a crash). */
  down(): Promise<void>;
  /** Starts the server again on the same URL with the same data. */
  up(): Promise<void>;
  /**
   * SIGSTOP: connections are still accepted by the kernel, but nothing answers (a hung server).
   * Resolves once every thread of slapd is stopped: the signal is delivered when each thread is
   * next scheduled, and on a busy machine a request sent right after kill() could still be served.
   */
  pause(): Promise<void>;
  resume(): void;
}

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
const SCHEMA_DIR = '/etc/ldap/schema';
const SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis'];
/** Where Debian keeps back_mdb as a loadable module; elsewhere it may be built in. */
const MODULE_DIRS = ['/usr/lib/ldap', '/usr/lib64/openldap', '/usr/lib/openldap'];
const READY_TIMEOUT_MS = 5_000;

/** Why slapd-backed tests cannot run here, or undefined when they can. */
export function slapdMissing(): string | undefined {
  const missing = [SLAPD, SLAPADD, ...SCHEMAS.map((name) => join(SCHEMA_DIR, `${name}.schema`))].filter(
    (path) => !existsSync(path),
  );
  if (missing.length === 0) return undefined;
  return `OpenLDAP is not installed (missing ${missing.join(', ')}); run: apt-get install -y slapd ldap-utils`;
}

/** Whether slapd accepts `password` for `dn`, asked with ldapwhoami (exit 49 is "Invalid credentials"). */
export function binds(slapd: Slapd, dn: string, password: string): boolean {
  const run = spawnSync('ldapwhoami', ['-x', '-H', slapd.url, '-D', dn, '-w', password], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (run.error) throw new Error(`ldapwhoami could not run (apt-get install -y ldap-utils): ${run.error.message}`);
  if (run.status === 0) {
    expect(run.stdout.trim().toLowerCase()).toBe(`dn:${dn.toLowerCase()}`);
    return true;
  }
  expect(run.status, run.stderr).toBe(49);
  return false;
}

/** True when ldap-utils' ldapwhoami can be run. */
export function hasLdapWhoami(): boolean {
  return spawnSync('ldapwhoami', ['-VV'], { encoding: 'utf8' }).error === undefined;
}

/** Starts a seeded slapd, or explains why it cannot. Throws when slapd is installed but fails to start. */
export async function startSlapd(): Promise<Slapd | { skipped: string }> {
  const missing = slapdMissing();
  if (missing) return { skipped: missing };
  const dir = mkdtempSync(join(tmpdir(), 'converge-slapd-'));
  try {
    const config = writeConfig(dir);
    const seed = join(dir, 'seed.ldif');
    writeFileSync(seed, DEFAULT_DIRECTORY_LDIF);
    const load = spawnSync(SLAPADD, ['-f', config, '-l', seed, '-q'], { encoding: 'utf8' });
    if (load.status !== 0) throw new Error(`slapadd failed (${load.status}): ${load.stderr || load.error?.message}`);
    // A free port can be taken between probing and binding it; a second try settles that.
    for (let attempt = 1; ; attempt++) {
      try {
        return await launch(dir, config, await freePort());
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function writeConfig(dir: string): string {
  const db = join(dir, 'db');
  mkdirSync(db);
  const moduleDir = MODULE_DIRS.find((path) => existsSync(join(path, 'back_mdb.so')));
  const lines = [
    ...SCHEMAS.map((name) => `include ${join(SCHEMA_DIR, `${name}.schema`)}`),
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    ...(moduleDir ? [`modulepath ${moduleDir}`, 'moduleload back_mdb'] : []),
    'database mdb',
    // 16 MiB is plenty for a test tree and keeps the memory map small.
    'maxsize 16777216',
    `suffix "${DEFAULT_BASE_DN}"`,
    `rootdn "${DEFAULT_ADMIN_DN}"`,
    // no rootpw: slapd would accept it before the entry's own password, so a rotated admin
    // password would leave the old one working; the seeded entry holds the password
    `directory ${db}`,
    '',
  ];
  const config = join(dir, 'slapd.conf');
  writeFileSync(config, lines.join('\n'));
  return config;
}

async function launch(dir: string, config: string, port: number): Promise<Slapd> {
  const url = `ldap://127.0.0.1:${port}/`;
  let child = await run(config, url);
  return {
    url,
    bindDn: DEFAULT_ADMIN_DN,
    bindPassword: DEFAULT_ADMIN_PASSWORD,
    baseDn: DEFAULT_BASE_DN,
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    down: () => child.stop(),
    async up() {
      child = await run(config, url);
    },
    async pause() {
      child.process.kill('SIGSTOP');
      await allThreadsStopped(child.process.pid);
    },
    resume: () => child.process.kill('SIGCONT'),
  };
}

/** Waits until /proc shows every thread of `pid` stopped (state T): a barrier after SIGSTOP. */
async function allThreadsStopped(pid: number | undefined): Promise<void> {
  const tasks = `/proc/${pid}/task`;
  // the state is the field after the command's closing parenthesis
  const stopped = () =>
    readdirSync(tasks).every((task) => /\)\s+[Tt]\s/.test(readFileSync(join(tasks, task, 'stat'), 'utf8')));
  for (const deadline = Date.now() + 10_000; !stopped(); ) {
    if (Date.now() > deadline) throw new Error(`slapd (${pid}) did not stop within 10 s of SIGSTOP`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** slapd in the foreground on `url`, answering; `stop` ends it (and never leaves it behind the test process). */
async function run(config: string, url: string): Promise<{ process: ChildProcess; stop(): Promise<void> }> {
  // With -d, slapd stays in the foreground, so the child is slapd itself and a kill stops it.
  const child = spawn(SLAPD, ['-f', config, '-h', url, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    // a paused server takes no SIGTERM until it runs again
    child.kill('SIGCONT');
    await terminate(child);
  };
  try {
    await waitUntilAnswering(child, url, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { process: child, stop };
}

async function waitUntilAnswering(child: ChildProcess, url: string, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`slapd exited (${child.exitCode ?? child.signalCode}) before answering: ${stderr().trim()}`);
    }
    const client = new Client({ url, connectTimeout: 500, timeout: 500 });
    try {
      await client.bind(DEFAULT_ADMIN_DN, DEFAULT_ADMIN_PASSWORD);
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`slapd did not answer at ${url} within ${READY_TIMEOUT_MS} ms: ${String(error)} ${stderr()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 15));
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

/** A loopback port nothing listens on right now (also used as "a closed port" by tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port assigned'));
      });
    });
  });
}
