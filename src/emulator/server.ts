/**
 * The emulator: one fastify server for every API converge speaks, in memory, with
 * an optional state file, injected latency and faults, and request counts
 * (docs/emulator.md). `startEmulator` is what the CLI, the demo and the tests use.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { ConvergeError } from '../errors.ts';
import { Sessions } from './auth.ts';
import { type ApiModule, type EmulatorContext, sendFailure } from './context.ts';
import { registerControl } from './control.ts';
import { type FaultSettings, Faults } from './faults.ts';
import { HttpFailure, httpFailure, JSONAPI_TYPE, notFound, unprocessable } from './jsonapi.ts';
import { acceptListMethod } from './list-method.ts';
import { Persister, readStateFile } from './persist.ts';
import { installPipeline } from './pipeline.ts';
import { RateLimit } from './rate-limit.ts';
import { API_MODULES } from './routes.ts';
import { defaultSeed, loadSeed, type SeedData } from './seed.ts';
import { State } from './state.ts';
import { type EmulatorStats, Stats } from './stats.ts';
import { JSONAPI_FORM } from './wire-form.ts';

export type { FaultKind, FaultSettings } from './faults.ts';
export type { SeedData } from './seed.ts';
export type { EmulatorStats } from './stats.ts';

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Extra organizations, users, teams and versions: an object, or a YAML or JSON file. */
  seed?: SeedData | string;
  /** Keep state (tokens included) in this file across restarts. */
  statePath?: string;
  /** Delay before every API answer. */
  latencyMs?: number;
  faults?: FaultSettings;
  /** Enforce `api-rate-limit` (default true). */
  rateLimit?: boolean;
  /** Where diagnostics go; default nowhere. */
  log?: (line: string) => void;
  /** More API modules beside the built-in ones (tests of the server core). */
  modules?: readonly ApiModule[];
  /** The clock of rate-limit windows, timestamps, leases, rotations and certificates' validity; default Date.now (tests that must not race it). */
  now?: () => number;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  tokens: { admin: string; owner: string; member: string; secrets: string };
  stats(): EmulatorStats;
  resetStats(): void;
  setFaults(faults: FaultSettings | undefined): void;
  setLatency(ms: number): void;
  close(): Promise<void>;
}

const BODY_LIMIT = 10 * 1024 * 1024;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? (() => {});
  const saved = options.statePath ? await readStateFile(options.statePath) : undefined;
  const state = saved
    ? State.fromSaved(saved)
    : State.fromSeed([defaultSeed(), ...(options.seed ? [await loadSeed(options.seed)] : [])]);

  let url = '';
  let latencyMs = options.latencyMs ?? 0;
  const intervals = new Set<NodeJS.Timeout>();
  const closers: Array<() => void | Promise<void>> = [];
  const ctx: EmulatorContext = {
    state,
    sessions: new Sessions(),
    url: () => url,
    now: options.now ?? Date.now,
    rateLimit: () => undefined,
    log,
    every(ms, work) {
      const timer = setInterval(() => {
        Promise.resolve()
          .then(work)
          .catch((error: unknown) => log(`scheduled work failed: ${(error as Error).message}`));
      }, ms);
      timer.unref();
      intervals.add(timer);
    },
    onClose(work) {
      closers.push(work);
    },
  };
  const stats = new Stats();
  const faults = new Faults();
  faults.set(options.faults);
  const persister = options.statePath
    ? new Persister(
        options.statePath,
        () => state.save(),
        (error) => log(`cannot save state: ${error.message}`),
      )
    : undefined;
  const held = new Set<NodeJS.Timeout>();

  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: BODY_LIMIT,
    // the secrets API's LIST method, which Node's HTTP parser would refuse before any route ran
    serverFactory: (handler) => acceptListMethod(createServer(handler)),
  });
  acceptJson(app);
  const modules = [...API_MODULES, ...(options.modules ?? [])];
  installPipeline(app, {
    formOf: (url) => moduleOf(modules, url)?.form ?? JSONAPI_FORM,
    rateLimitedAt: (url) => moduleOf(modules, url)?.rateLimited === true,
    ctx,
    stats,
    faults,
    rateLimit: new RateLimit(),
    enforceRateLimit: options.rateLimit !== false,
    latencyMs: () => latencyMs,
    changed: () => persister?.schedule(),
    held,
  });
  registerControl(app, { ctx, stats, faults, latencyMs: () => latencyMs, setLatency: (ms) => (latencyMs = ms) });
  for (const module of modules) {
    app.register(
      async (api) => {
        // the module's own handlers answer in its wire form: routes, unknown paths, errors
        api.decorate('wireForm', module.form);
        api.setNotFoundHandler((request, reply) => sendFailure(reply, module.notFound?.(request, ctx) ?? notFound()));
        api.setErrorHandler((error, _request, reply) => sendFailure(reply, toFailure(error, log)));
        module.register(api, ctx);
      },
      { prefix: module.prefix },
    );
  }
  app.setNotFoundHandler((_request, reply) => sendFailure(reply, notFound()));
  app.setErrorHandler((error, _request, reply) => sendFailure(reply, toFailure(error, log)));

  await listen(app, options.host ?? '127.0.0.1', options.port ?? 8080);
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;
  // a fresh state is saved at once, so the tokens printed at start-up survive a crash
  if (persister && !saved) persister.schedule();
  log(`emulator listening on ${url}`);

  return {
    url,
    tokens: { ...state.tokens },
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults: (settings) => faults.set(settings),
    setLatency: (ms) => {
      latencyMs = ms;
    },
    close: async () => {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      for (const timer of intervals) clearInterval(timer);
      intervals.clear();
      await app.close();
      // the state first: what the modules close (connections to a directory) may take longer
      await persister?.flush();
      await Promise.allSettled(closers.map((work) => work()));
    },
  };
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // taken, not this machine's, not allowed, or a host name that does not resolve
    if (!['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES', 'ENOTFOUND', 'EAI_AGAIN'].includes(code ?? '')) throw error;
    throw new ConvergeError('INPUT_INVALID', `cannot listen on ${host}:${port}: ${(error as Error).message}`, {
      hint: 'pick another --port (0 picks a free one) or --host',
    });
  }
}

/** JSON bodies under either media type; an unparseable one is the platform's 422, not fastify's 400. */
function acceptJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parse = (_request: unknown, body: string, done: (error: Error | null, value?: unknown) => void) => {
    if (body.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch (error) {
      done(unprocessable(`the body is not valid JSON: ${(error as Error).message}`));
    }
  };
  app.addContentTypeParser(['application/json', JSONAPI_TYPE], { parseAs: 'string' }, parse);
  // a body without a JSON media type is read the same way: clients are not always careful with headers
  app.addContentTypeParser('*', { parseAs: 'string' }, parse);
}

/** The module a path belongs to: the longest prefix that matches. */
function moduleOf(modules: readonly ApiModule[], url: string): ApiModule | undefined {
  const path = url.split('?')[0] ?? url;
  return modules
    .filter((m) => path === m.prefix || path.startsWith(`${m.prefix}/`))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
}

function toFailure(error: unknown, log: (line: string) => void): HttpFailure {
  if (error instanceof HttpFailure) return error;
  const status = (error as { statusCode?: number }).statusCode;
  const message = error instanceof Error ? error.message : String(error);
  if (status !== undefined && status >= 400 && status < 500) {
    return httpFailure(status, 'bad request', message);
  }
  log(`internal error: ${error instanceof Error ? (error.stack ?? message) : message}`);
  return httpFailure(500, 'internal server error');
}
