/**
 * The OIDC signing key (the site-admin API, OIDC signing key): rotated
 * every 90 days and trimmed 30 days after the last rotation, or on request.
 * There is nothing to read back through the API, so the state is only the
 * key versions and the two timers; the automatic steps happen lazily, when
 * an endpoint is next called.
 */
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth.ts';
import { type EmulatorContext, route } from '../context.ts';
import { unprocessable } from '../jsonapi.ts';
import type { Slice } from '../state.ts';
import { ADMIN } from './paths.ts';

const DAY_MS = 86_400_000;
const ROTATE_EVERY_MS = 90 * DAY_MS;
const TRIM_AFTER_MS = 30 * DAY_MS;

interface OidcKeys {
  /** The active key version. */
  current: number;
  /** Older versions still published (tokens signed with them still verify). */
  old: number[];
  nextRotationAt: number;
  nextTrimAt: number;
}

class OidcSlice implements Slice {
  keys: OidcKeys;

  constructor(saved: unknown, now: number) {
    const s = saved as Partial<OidcKeys> | undefined;
    this.keys =
      typeof s?.current === 'number' && Array.isArray(s.old)
        ? (s as OidcKeys)
        : { current: 1, old: [], nextRotationAt: now + ROTATE_EVERY_MS, nextTrimAt: now + TRIM_AFTER_MS };
  }

  /** The automatic schedule, caught up to now. */
  catchUp(now: number): void {
    while (this.keys.nextRotationAt <= now) {
      const at = this.keys.nextRotationAt;
      this.rotate(at);
      // the automatic trim follows the last automatic rotation
      this.keys.nextTrimAt = at + TRIM_AFTER_MS;
    }
    if (this.keys.nextTrimAt <= now) this.trim(now);
  }

  /** A new key version; restarts the rotation timer, never the trim schedule. */
  rotate(now: number): void {
    this.keys.old.push(this.keys.current);
    this.keys.current++;
    this.keys.nextRotationAt = now + ROTATE_EVERY_MS;
  }

  trim(now: number): void {
    this.keys.old = [];
    this.keys.nextTrimAt = now + TRIM_AFTER_MS;
  }

  save(): unknown {
    return this.keys;
  }
}

export function registerOidc(api: FastifyInstance, ctx: EmulatorContext): void {
  const slice = ctx.state.slice('oidc', (saved) => new OidcSlice(saved, ctx.now()));

  route(api, 'POST', `${ADMIN}/oidc-settings/actions/rotate-key`, (request) => {
    requireAdmin(ctx.state, request);
    const now = ctx.now();
    slice.catchUp(now);
    slice.rotate(now);
    return { status: 204 };
  });

  route(api, 'POST', `${ADMIN}/oidc-settings/actions/trim-key`, (request) => {
    requireAdmin(ctx.state, request);
    const now = ctx.now();
    slice.catchUp(now);
    // the spec's 422 for trim-key: the emulator's reading is "nothing to trim"
    if (slice.keys.old.length === 0) throw unprocessable('there are no old key versions to trim; rotate the key first');
    slice.trim(now);
    return { status: 204 };
  });
}
