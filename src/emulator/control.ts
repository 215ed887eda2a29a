/**
 * Endpoints for tests, benchmarks and people poking at the emulator, under
 * `/_emulator/`: no authentication, never rate-limited, faulted or counted.
 * They answer plain JSON, not JSON:API.
 */
import type { FastifyInstance } from 'fastify';
import { isPlainObject } from '../reconcile/equal.ts';
import { sessionCookie, tokenUser } from './auth.ts';
import type { EmulatorContext } from './context.ts';
import { checkFaults, type Faults } from './faults.ts';
import type { Stats } from './stats.ts';

export interface Controls {
  ctx: EmulatorContext;
  stats: Stats;
  faults: Faults;
  latencyMs(): number;
  setLatency(ms: number): void;
}

export function registerControl(app: FastifyInstance, controls: Controls): void {
  const { ctx, stats, faults } = controls;
  const bad = (message: string) => ({ error: message });

  app.get('/_emulator/health', async () => ({ status: 'ok' }));

  app.get('/_emulator/stats', async () => stats.snapshot());

  app.delete('/_emulator/stats', async (_request, reply) => {
    stats.reset();
    return reply.code(204).send();
  });

  app.get('/_emulator/faults', async () => ({
    ...(faults.settings ?? { rate: 0, kinds: [] }),
    latencyMs: controls.latencyMs(),
  }));

  // {rate, kinds, seed?, holdMs?, latencyMs?}; rate 0 turns faults off
  app.put('/_emulator/faults', async (request, reply) => {
    const body = request.body;
    if (!isPlainObject(body)) return reply.code(400).send(bad('expected a JSON object {rate, kinds, latencyMs?}'));
    const { latencyMs, ...rest } = body;
    if (latencyMs !== undefined && !(typeof latencyMs === 'number' && latencyMs >= 0)) {
      return reply.code(400).send(bad('latencyMs must be a number >= 0'));
    }
    if (rest.rate === 0 && rest.kinds === undefined) faults.set(undefined);
    else {
      const settings = checkFaults(rest);
      if (typeof settings === 'string') return reply.code(400).send(bad(settings));
      faults.set(settings);
    }
    if (typeof latencyMs === 'number') controls.setLatency(latencyMs);
    return reply.code(204).send();
  });

  // a browser session for the impersonation endpoints, which authenticate by cookie
  app.post('/_emulator/session', async (request, reply) => {
    const user = tokenUser(ctx.state, request);
    if (!user) return reply.code(401).send(bad('a valid Authorization: Bearer token is required'));
    const session = ctx.sessions.create(user);
    return reply.code(201).header('set-cookie', sessionCookie(session)).send({ user: user.username });
  });
}
