/** The server's window as the headers tell it: room, requests in flight, and telling windows apart. */
import { describe, expect, it } from 'vitest';
import { Quota } from '../../../src/api/rate-quota.ts';

const report = (sentAt: number, now: number, remaining: number, resetMs: number) => ({
  sentAt,
  now,
  remaining,
  resetMs,
});

describe('Quota', () => {
  it('has no room until an answer tells one', () => {
    const quota = new Quota();
    quota.sent();
    expect(quota.room()).toBe(0);
    expect(quota.settled(undefined)).toBe(false);
    expect(quota.room()).toBe(0);
  });

  it('counts every request in flight against the remaining the server reported', () => {
    const quota = new Quota();
    for (let i = 0; i < 4; i++) quota.sent();
    // the first answer: 10 left when it was counted; the 3 still in flight may not have been yet
    expect(quota.settled(report(0, 5, 10, 900))).toBe(true);
    expect(quota.room()).toBe(7);
    // another answer lower by one: it was one of the three; room unchanged
    quota.settled(report(0, 6, 9, 899));
    expect(quota.room()).toBe(7);
  });

  it('keeps the lowest remaining of a window, whatever order the answers arrive in', () => {
    const quota = new Quota();
    quota.sent();
    quota.sent();
    quota.settled(report(0, 5, 8, 900));
    // an answer counted earlier (more left) but arriving later tells nothing new
    quota.settled(report(0, 6, 9, 900));
    expect(quota.room()).toBe(8);
  });

  it('starts a new window with the first answer to a request sent after the known end', () => {
    const quota = new Quota();
    quota.sent();
    quota.settled(report(0, 10, 0, 500));
    expect(quota.current(100)).toBe(true);
    expect(quota.current(510)).toBe(false);
    // a request sent after the end: its answer is the next window's
    quota.sent();
    quota.settled(report(520, 540, 29, 1000));
    expect(quota.room()).toBe(29);
    expect(quota.windowEnd).toBe(1540);
  });
});
