import { describe, expect, it } from 'vitest';
import { doc, start } from './helpers.ts';

const waitForNextWindow = (reset: string | null) => new Promise((r) => setTimeout(r, Number(reset ?? 1) * 1000 + 20));

describe('API rate limit', () => {
  it('allows api-rate-limit requests per second per token, then answers 429 with Retry-After', async () => {
    // the window is the emulator's clock, held still: 31 requests spread over more than a second
    // on a busy machine would fall into two windows
    let now = Date.now();
    const { call, emulator } = await start({ rateLimit: true, now: () => now });
    const answers = await Promise.all(Array.from({ length: 31 }, () => call('GET', '/api/v2/admin/general-settings')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.body).toEqual({
      errors: [{ status: '429', title: 'too many requests', detail: "You have exceeded the API's rate limit." }],
    });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('30');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(1);
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(0);
    expect(reset).toBeLessThanOrEqual(1);
    // another token has its own budget
    expect((await call('GET', '/api/v2/admin/users', { token: emulator.tokens.member })).status).toBe(404);
    expect(emulator.stats().rateLimited).toBe(1);
    expect(reset).toBe(1);
    now += 999;
    expect((await call('GET', '/api/v2/admin/general-settings')).status).toBe(429);
    now += 1;
    expect((await call('GET', '/api/v2/admin/general-settings')).status).toBe(200);
  });

  it('leaves the secrets API alone: the platform setting limits the platform API only', async () => {
    const { emulator } = await start({ rateLimit: true });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${emulator.url}/v1/ssh/roles?list=true`, { headers: { 'x-service-token': emulator.tokens.secrets } }),
      ),
    );
    // no role yet: every answer is the service's 404 for an empty list, none a 429, and no limit advertised
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 40 }, () => 404));
    expect(answers[0]?.headers.get('x-ratelimit-limit')).toBeNull();
    expect(emulator.stats().rateLimited).toBe(0);
  });

  it('sends the limit headers on every API answer, errors included', async () => {
    const { call } = await start({ rateLimit: true });
    const first = await call('GET', '/api/v2/admin/users');
    expect(first.headers.get('x-ratelimit-limit')).toBe('30');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('29');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(1);
    const notFound = await call('GET', '/api/v2/admin/users', { token: 'unknown' });
    expect(notFound.status).toBe(401);
    expect(notFound.headers.get('x-ratelimit-limit')).toBe('30');
  });

  it('applies a new api-rate-limit at once, and nothing while api-rate-limiting-enabled is false', async () => {
    const { call } = await start({ rateLimit: true });
    const patched = await call('PATCH', '/api/v2/admin/general-settings', {
      body: doc('general-settings', { 'api-rate-limit': 50 }),
    });
    await waitForNextWindow(patched.headers.get('x-ratelimit-reset'));
    const burst = await Promise.all(Array.from({ length: 51 }, () => call('GET', '/api/v2/admin/tool-versions')));
    expect(burst.filter((a) => a.status === 200)).toHaveLength(50);
    expect(burst[0]!.headers.get('x-ratelimit-limit')).toBe('50');
    await waitForNextWindow('1');
    await call('PATCH', '/api/v2/admin/general-settings', {
      body: doc('general-settings', { 'api-rate-limiting-enabled': false }),
    });
    const free = await Promise.all(Array.from({ length: 80 }, () => call('GET', '/api/v2/admin/tool-versions')));
    expect(free.every((a) => a.status === 200)).toBe(true);
    expect(free[0]!.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('enforces nothing with the rateLimit option false', async () => {
    const { call, emulator } = await start({ rateLimit: false });
    const answers = await Promise.all(Array.from({ length: 60 }, () => call('GET', '/api/v2/admin/users')));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBeNull();
    expect(emulator.stats().rateLimited).toBe(0);
  });
});
