/**
 * The circuit breaker's row of failures: requests in flight together that
 * fail together are one piece of evidence; the row opens the breaker only
 * once a request sent after its first failure failed too, and any answer
 * ends it. Times are given explicitly (sent, arrived).
 */
import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../../src/api/circuit-breaker.ts';

describe('CircuitBreaker', () => {
  it('stays closed when requests sent together time out together, however many', () => {
    const breaker = new CircuitBreaker('https://api.example.com', 4);
    // 64 requests sent at 0..10 ms, held by the server, all timing out at 400 ms
    for (let i = 0; i < 64; i++) expect(breaker.failure('timeout', i / 6, 400 + i / 100)).toBe(false);
    expect(breaker.open).toBe(false);
  });

  it('opens once a request sent after the row began fails too, and the row is long enough', () => {
    const breaker = new CircuitBreaker('https://api.example.com', 4);
    expect(breaker.failure('connection refused', 0, 1)).toBe(false);
    expect(breaker.failure('connection refused', 0.5, 1.2)).toBe(false);
    // sent after the first failure (a retry, or the next request): the server is still not there
    expect(breaker.failure('connection refused', 2, 3)).toBe(false);
    expect(breaker.failure('connection refused', 3.5, 4)).toBe(true);
    expect(breaker.open).toBe(true);
    expect(breaker.error('GET', '/x', false).message).toMatch(
      /failed 4 connections in a row \(last: connection refused\)/,
    );
  });

  it('starts a new row after any answer', () => {
    const breaker = new CircuitBreaker('https://api.example.com', 3);
    breaker.failure('timeout', 0, 400);
    breaker.failure('timeout', 500, 900);
    breaker.success();
    // a new row: these were sent before its first failure
    expect(breaker.failure('timeout', 950, 1300)).toBe(false);
    expect(breaker.failure('timeout', 960, 1301)).toBe(false);
    expect(breaker.failure('timeout', 970, 1302)).toBe(false);
    expect(breaker.open).toBe(false);
    expect(breaker.failure('timeout', 1400, 1800)).toBe(true);
  });
});
