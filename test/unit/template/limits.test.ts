/**
 * A render is bounded (src/template/limits.ts): a value, the output and the
 * work of all calls. What would build gigabytes is an error at the call's
 * line and column, quickly and without the allocation.
 */
import { describe, expect, it } from 'vitest';
import { checkTemplate, USERNAME_FIELDS } from '../../../src/template/index.ts';
import { failure, render } from './helpers.ts';

const LIMIT = 'a template value may hold at most 1048576 (1 MiB)';

describe('template limits', () => {
  it('refuses random beyond 1 MiB before drawing it', () => {
    expect(failure('x\n  {{random 999999999}}')).toBe(
      `2:5 error calling random: the result would be 999999999 characters long; ${LIMIT}`,
    );
    expect(render('{{random 1048576}}')).toHaveLength(1048576);
  });

  it('refuses a printf width or precision beyond 1 MiB before padding', () => {
    expect(failure('{{printf "%0999999999d" 1}}')).toBe(
      `1:3 error calling printf: printf: the width 999999999 would be 999999999 characters long; ${LIMIT}`,
    );
    expect(failure('{{printf "%.999999999d" 1}}')).toContain('printf: the precision 999999999 would be');
    // many verbs over one value add up
    const many = `{{printf "${'%s'.repeat(20)}" ${'(random 100000) '.repeat(20)}}}`;
    expect(failure(many)).toMatch(/^1:3 error calling printf: the result would be \d+ characters long/);
  });

  it('stops a chain of base64 at the value bound, quickly', () => {
    const started = Date.now();
    const chain = `{{random 8${' | base64'.repeat(60)}}}`;
    expect(failure(chain)).toMatch(/^1:\d+ error calling base64: the result would be \d+ characters long/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a replace that would grow past the bound before building it', () => {
    // an empty search string inserts the replacement around every character: 10,001 times 130 characters
    const replacement = '0123456789'.repeat(13);
    expect(failure(`{{random 10000 | replace "" "${replacement}"}}`)).toBe(
      `1:18 error calling replace: the result would be 1310130 characters long; ${LIMIT}`,
    );
  });

  it('bounds the work of all calls of one render and the output', () => {
    const calls = '{{random 1000000 | truncate 1}}'.repeat(17);
    expect(failure(calls)).toMatch(
      /the template's functions produce more than 16 MiB in one render; it stops at random$/,
    );
    const output = '{{random 600000}}{{random 600000}}';
    expect(failure(output)).toBe('1:18 the output passes 1 MiB here; a template may render at most that');
  });

  it('validate reports a limit as a problem at its place, never throwing', () => {
    expect(checkTemplate('{{printf "%0999999999d" 1}}', USERNAME_FIELDS).problems).toEqual([
      {
        line: 1,
        col: 3,
        message: `error calling printf: printf: the width 999999999 would be 999999999 characters long; ${LIMIT}`,
        limit: true,
      },
    ]);
  });

  it('marks a problem of a bound apart from other problems, so the emulator can answer it as bad input', () => {
    const over = checkTemplate('{{random 999999999}}', USERNAME_FIELDS).problems;
    expect(over).toEqual([expect.objectContaining({ line: 1, col: 3, limit: true })]);
    const output = checkTemplate('{{random 1048576}}{{.RoleName}}', USERNAME_FIELDS).problems;
    expect(output).toEqual([expect.objectContaining({ limit: true })]);
    for (const text of ['{{random -1}}', '{{.Nope}}', '{{if .RoleName}}x{{end}}']) {
      const problems = checkTemplate(text, USERNAME_FIELDS).problems;
      expect(problems.length, text).toBeGreaterThan(0);
      expect(
        problems.every((p) => p.limit === undefined),
        text,
      ).toBe(true);
    }
  });
});
