/**
 * The part of undici the clients load (src/api/undici-core.cjs) is undici's own Pool and Agent,
 * with its `request`: the modules it names by path exist in the undici installed, and are the
 * ones undici's index exports. An undici that moves them fails here, not in a user's plan.
 */
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';

const require = createRequire(import.meta.url);
const core = require('../../../src/api/undici-core.cjs') as typeof import('undici');

describe('undici-core', () => {
  test("holds undici's own Pool and Agent", () => {
    const undici = require('undici') as typeof import('undici');
    expect(core.Pool).toBe(undici.Pool);
    expect(core.Agent).toBe(undici.Agent);
  });

  test("gives every dispatcher undici's request", () => {
    const request = require('undici/lib/api/api-request.js') as unknown;
    const pool = new core.Pool('http://127.0.0.1:1');
    expect(pool.request).toBe(request);
    expect(new core.Agent().request).toBe(request);
  });
});
