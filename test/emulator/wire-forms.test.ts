/**
 * The emulator's server core serves each API module in its own wire form: a
 * plain-JSON module (as the secrets API is) plugs in beside the JSON:API one
 * with `{"errors": ["..."]}` bodies, for its handlers' errors, its unknown
 * paths, server errors and injected faults alike, without the core knowing it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiModule, route } from '../../src/emulator/context.ts';
import { badRequest, notFound } from '../../src/emulator/jsonapi.ts';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { PLAIN_JSON_FORM } from '../../src/emulator/wire-form.ts';

/** A test-only plain-JSON API under /v9. */
const plain: ApiModule = {
  name: 'plain-test',
  prefix: '/v9',
  form: PLAIN_JSON_FORM,
  register(api) {
    route(api, 'GET', '/things/:name', (request) => {
      const { name } = request.params as { name: string };
      if (name === 'missing') throw notFound();
      if (name === 'bad') throw badRequest('name is bad');
      if (name === 'boom') throw new Error('kaboom');
      return { status: 200, body: { data: { name } } };
    });
  },
};

let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await startEmulator({ port: 0, modules: [plain] });
});
afterEach(() => emulator.close());

async function get(path: string) {
  const response = await fetch(`${emulator.url}${path}`, {
    headers: { authorization: `Bearer ${emulator.tokens.admin}` },
  });
  const type = response.headers.get('content-type')?.split(';')[0];
  return {
    status: response.status,
    type,
    body: (await response.json()) as { errors?: unknown[] } & Record<string, unknown>,
  };
}

describe('a plain-JSON module', () => {
  it('answers in plain JSON', async () => {
    expect(await get('/v9/things/a')).toEqual({
      status: 200,
      type: 'application/json',
      body: { data: { name: 'a' } },
    });
  });

  it('renders its handlers’ errors as lists of strings, a missing object as an empty list', async () => {
    expect(await get('/v9/things/missing')).toEqual({ status: 404, type: 'application/json', body: { errors: [] } });
    expect(await get('/v9/things/bad')).toEqual({
      status: 400,
      type: 'application/json',
      body: { errors: ['name is bad'] },
    });
  });

  it('answers unknown paths and server errors under its prefix in its own form', async () => {
    expect(await get('/v9/no/such/path')).toEqual({ status: 404, type: 'application/json', body: { errors: [] } });
    const failed = await get('/v9/things/boom');
    expect(failed.status).toBe(500);
    expect(failed.type).toBe('application/json');
    expect(failed.body.errors?.every((e) => typeof e === 'string')).toBe(true);
  });

  it('gets injected faults in its own form, while the JSON:API module keeps its error objects', async () => {
    emulator.setFaults({ rate: 1, kinds: ['503'] });
    expect(await get('/v9/things/a')).toEqual({
      status: 503,
      type: 'application/json',
      body: { errors: ['injected fault'] },
    });
    const admin = await get('/api/v2/admin/general-settings');
    expect(admin.status).toBe(503);
    expect(admin.type).toBe('application/vnd.api+json');
    expect(admin.body).toEqual({ errors: [{ status: '503', title: 'service unavailable', detail: 'injected fault' }] });
  });

  it('leaves the JSON:API module’s unknown paths in JSON:API', async () => {
    const unknown = await get('/api/v2/admin/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.type).toBe('application/vnd.api+json');
    expect(unknown.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
  });
});
