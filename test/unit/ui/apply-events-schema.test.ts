/**
 * Every event type of `apply --json`, as the JSON reporter writes it, against
 * schemas/documents/converge-apply-events.schema.json (the e2e test validates
 * a real run's lines; this one the types a clean run never has: failures,
 * skips, retries, an interrupt).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { ReconcileEventBody } from '../../../src/reconcile/events.ts';
import { jsonReporter } from '../../../src/ui/choose-reporter.ts';
import { memoryOutput } from '../../../src/ui/output.ts';
import { ev, planned, planOf, summary } from './events.ts';

async function validator() {
  const dir = fileURLToPath(new URL('../../../schemas/documents/', import.meta.url));
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  for (const file of await readdir(dir)) ajv.addSchema(JSON.parse(await readFile(join(dir, file), 'utf8')));
  return ajv.getSchema('https://converge.dev/schemas/documents/converge-apply-events.schema.json')!;
}

const role = planned('SSHRole/web', 'replace');
const ann = planned('AdminUser/ann', 'create');
const bodies: ReconcileEventBody[] = [
  { type: 'read-start', kinds: ['SSHRole', 'AdminUser'] },
  { type: 'read-progress', kind: 'SSHRole', objects: 3, requests: 4, done: false },
  { type: 'read-done', objects: 3, requests: 5, elapsedMs: 40 },
  { type: 'plan-ready', plan: planOf([role, ann]) },
  { type: 'apply-start', total: 2 },
  { type: 'action-start', action: role },
  { type: 'retry', method: 'POST', path: '/v1/ssh/roles/web', attempt: 1, delayMs: 250, reason: '503' },
  {
    type: 'action-failed',
    action: role,
    error: { message: 'replace failed', status: 400, code: 'REPLACE_FAILED', live: 'restored' },
  },
  { type: 'action-skipped', action: ann, reason: 'dependency-failed', cause: role.key },
  {
    type: 'action-failed',
    action: ann,
    error: { message: 'POST /api/users: connection closed; reading back failed too', outcome: 'unknown' },
  },
  { type: 'interrupt' },
  { type: 'action-done', action: ann, elapsedMs: 12, recovered: true },
  {
    type: 'apply-done',
    summary: summary({
      failed: [{ key: role.key, action: 'replace', error: { message: 'replace failed', live: 'restored' } }],
      skipped: [{ key: ann.key, action: 'create', reason: 'interrupted' }],
      interrupted: true,
      elapsedMs: 90,
    }),
  },
];

describe('converge-apply-events', () => {
  it('accepts every line the JSON reporter writes, the header first', async () => {
    const validate = await validator();
    const output = memoryOutput();
    const write = jsonReporter(output, '0.1.0');
    for (const body of bodies) write(ev(body));
    const lines = output.stdout.map((line) => JSON.parse(line));
    expect(lines.map((l) => l.type)).toEqual(['header', ...bodies.map((b) => b.type)]);
    for (const line of lines) expect(validate(line), JSON.stringify([line.type, validate.errors])).toBe(true);
  });

  it('refuses a line that breaks its type, and a header of another format or version', async () => {
    const validate = await validator();
    const output = memoryOutput();
    jsonReporter(output, '0.1.0');
    const header = JSON.parse(output.stdout[0]!);
    expect(validate({ ...header, version: 2 })).toBe(false);
    expect(validate({ ...header, format: 'converge-drift' })).toBe(false);
    expect(validate({ ...ev({ type: 'read-done', objects: 1, requests: 1, elapsedMs: 3 }), requests: -1 })).toBe(false);
    expect(validate({ ...ev({ type: 'action-skipped', action: ann, reason: 'interrupted' }), reason: 'bored' })).toBe(
      false,
    );
    const { seq: _seq, ...unnumbered } = ev({ type: 'interrupt' });
    expect(validate(unnumbered)).toBe(false);
  });
});
