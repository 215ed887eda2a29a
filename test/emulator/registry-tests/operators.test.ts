/**
 * Each operator and literal kind the emulator evaluates in an assert
 * condition: a true condition passes the run, a false one fails it.
 */

import { describe, expect, it } from 'vitest';
import { statusOf } from './helpers.ts';

describe('comparison operators', () => {
  it.each([
    ['var.s == "eu-west-1"', 'pass'],
    ['var.s == "us-east-1"', 'fail'],
    ['var.s != "us-east-1"', 'pass'],
    ['var.s != "eu-west-1"', 'fail'],
    ['var.n == 3', 'pass'],
    ['var.n != 3', 'fail'],
    ['var.n < 4', 'pass'],
    ['var.n < 3', 'fail'],
    ['var.n <= 3', 'pass'],
    ['var.n <= 2', 'fail'],
    ['var.n > 2', 'pass'],
    ['var.n > 3', 'fail'],
    ['var.n >= 3', 'pass'],
    ['var.n >= 3.5', 'fail'],
    ['var.n > -1', 'pass'],
    ['var.f == 2.5', 'pass'],
    ['var.b == true', 'pass'],
    ['var.b == false', 'fail'],
    ['var.b', 'pass'],
  ])('%s → %s', async (condition, status) => {
    expect(await statusOf(condition, ['s = "eu-west-1"', 'n = 3', 'f = 2.5', 'b = true'])).toBe(status);
  });
});

describe('logical operators and parentheses', () => {
  const variables = ['x = "a"', 'y = 2', 'on = true', 'off = false'];
  it.each([
    ['var.x == "a" && var.y > 1', 'pass'],
    ['var.x == "a" && var.y > 2', 'fail'],
    ['var.x == "b" || var.y > 1', 'pass'],
    ['var.x == "b" || var.y > 2', 'fail'],
    ['!var.off', 'pass'],
    ['!var.on', 'fail'],
    ['!(var.x == "b")', 'pass'],
    ['(var.x == "b" || var.y == 2) && var.on', 'pass'],
    ['var.x == "b" || var.y == 2 && var.off', 'fail'],
  ])('%s → %s', async (condition, status) => {
    expect(await statusOf(condition, variables)).toBe(status);
  });
});

describe('length()', () => {
  it.each([
    ['length(var.list) == 2', 'pass'],
    ['length(var.list) == 3', 'fail'],
    ['length(var.name) == 5', 'pass'],
    ['length(var.name) > 5', 'fail'],
    ['length(var.tags) == 1', 'pass'],
    ['length(["x", "y", "z"]) == 3', 'pass'],
  ])('%s → %s', async (condition, status) => {
    expect(await statusOf(condition, ['list = ["a", "b"]', 'name = "hello"', 'tags = { env = "dev" }'])).toBe(status);
  });
});

describe('literal kinds', () => {
  it.each([
    ['string', 'var.v == "text"', 'v = "text"', 'pass'],
    ['integer', 'var.v == 42', 'v = 42', 'pass'],
    ['negative number', 'var.v == -7', 'v = -7', 'pass'],
    ['float', 'var.v == 0.5', 'v = 0.5', 'pass'],
    ['bool', 'var.v == false', 'v = false', 'pass'],
    ['null', 'var.v == null', 'v = null', 'pass'],
    ['list', 'var.v == ["a", "b"]', 'v = ["a", "b"]', 'pass'],
    ['list order matters', 'var.v == ["b", "a"]', 'v = ["a", "b"]', 'fail'],
    ['template', `var.v == "web-\${var.w}"`, 'v = "web-1"', 'pass'],
    ['string is not number (no conversion of "x")', 'var.v == 1', 'v = "x"', 'fail'],
    ['list is not string', 'var.v == "a"', 'v = ["a"]', 'fail'],
  ])('%s: %s → %s', async (_kind, condition, variable, status) => {
    expect(await statusOf(condition, [variable, 'w = 1'])).toBe(status);
  });

  it('a literal condition needs no variables: true passes, false fails', async () => {
    expect(await statusOf('true')).toBe('pass');
    expect(await statusOf('false')).toBe('fail');
    expect(await statusOf('1 < 2')).toBe('pass');
  });
});
