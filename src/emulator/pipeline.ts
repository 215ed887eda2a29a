/**
 * What happens to every API request before and after its handler, in this
 * order: counting, injected latency, injected faults, the rate limit; and
 * on the way out, counting the status, losing `lost` answers and scheduling
 * a state save after a change. Control endpoints (`/_emulator/…`) skip all of it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './auth.ts';
import { type EmulatorContext, sendFailure } from './context.ts';
import { DEFAULT_HOLD_MS, type FaultKind, type Faults } from './faults.ts';
import { httpFailure } from './jsonapi.ts';
import { type RateLimit, seconds } from './rate-limit.ts';
import type { Stats } from './stats.ts';
import type { WireForm } from './wire-form.ts';

const CONTROL_PREFIX = '/_emulator/';

export interface Pipeline {
  /** The wire form of the API a path belongs to: faults and rate limits answer in it. */
  formOf(url: string): WireForm;
  /** Whether the platform's rate limit applies to the API a path belongs to. */
  rateLimitedAt(url: string): boolean;
  ctx: EmulatorContext;
  stats: Stats;
  faults: Faults;
  rateLimit: RateLimit;
  /** Whether the `api-rate-limit` setting is enforced at all (the `rateLimit` option). */
  enforceRateLimit: boolean;
  latencyMs(): number;
  /** A change was applied: save the state (debounced). */
  changed(): void;
  /** Connections held by `timeout` faults, released on close. */
  held: Set<NodeJS.Timeout>;
}

/** A 429 from an injected fault asks for a short wait, so that reliability tests stay fast. */
const FAULT_RESET_SECONDS = '0.05';

/** The title of each fault that is an error answer. */
const FAULT_TITLES = { '429': 'too many requests', '500': 'internal server error', '503': 'service unavailable' };

export function installPipeline(app: FastifyInstance, pipeline: Pipeline): void {
  const { stats, faults } = pipeline;
  const lost = new WeakSet<FastifyRequest>();

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(CONTROL_PREFIX)) return;
    stats.request(`${request.method} ${request.routeOptions.url ?? '(no route)'}`);
    const latency = pipeline.latencyMs();
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    const fault = faults.pick();
    if (fault !== undefined) {
      stats.fault();
      if (fault === 'lost') lost.add(request);
      else return inject(fault, request, reply, pipeline);
    }
    return limit(request, reply, pipeline);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith(CONTROL_PREFIX)) return payload;
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) pipeline.changed();
    if (lost.has(request)) {
      // applied, but the client never hears of it
      request.raw.socket.destroy();
      return payload;
    }
    stats.status(reply.statusCode);
    return payload;
  });
}

function inject(fault: Exclude<FaultKind, 'lost'>, request: FastifyRequest, reply: FastifyReply, pipeline: Pipeline) {
  const socket = request.raw.socket;
  switch (fault) {
    case 'drop':
      reply.hijack();
      socket.destroy();
      return;
    case 'timeout': {
      reply.hijack();
      const hold = pipeline.faults.settings?.holdMs ?? DEFAULT_HOLD_MS;
      const timer = setTimeout(() => socket.destroy(), hold);
      pipeline.held.add(timer);
      socket.once('close', () => {
        clearTimeout(timer);
        pipeline.held.delete(timer);
      });
      return;
    }
    default:
      if (fault === '429') reply.headers({ 'retry-after': '0', 'x-ratelimit-reset': FAULT_RESET_SECONDS });
      return sendFailure(
        reply,
        httpFailure(Number(fault), FAULT_TITLES[fault], 'injected fault'),
        pipeline.formOf(request.url),
      );
  }
}

function limit(request: FastifyRequest, reply: FastifyReply, pipeline: Pipeline) {
  if (!pipeline.enforceRateLimit || !pipeline.rateLimitedAt(request.url)) return;
  const max = pipeline.ctx.rateLimit();
  if (max === undefined) return;
  const form = pipeline.formOf(request.url);
  const decision = pipeline.rateLimit.take(clientOf(request, form), max, pipeline.ctx.now());
  reply.headers({
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': seconds(decision.resetSeconds),
  });
  if (decision.allowed) return;
  pipeline.stats.rateLimited();
  // decimal seconds, like X-RateLimit-Reset: converge's client reads both, and waits no longer than needed
  reply.header('retry-after', seconds(Math.max(decision.resetSeconds, 0.001)));
  return sendFailure(reply, httpFailure(429, 'too many requests', "You have exceeded the API's rate limit."), form);
}

/** Rate limits are per credential: a token (as the request's API carries it), else a session, else the address. */
function clientOf(request: FastifyRequest, form: WireForm): string {
  const token = form.token(request);
  if (token !== undefined) return `token:${token}`;
  const cookie = request.headers.cookie;
  if (cookie?.includes(`${SESSION_COOKIE}=`)) return `cookie:${cookie}`;
  return `ip:${request.ip}`;
}
