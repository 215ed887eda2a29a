import { describe, expect, it } from 'vitest';
import { errorMessages } from '../../../src/api/error-messages.ts';
import { ApiError, NetworkError } from '../../../src/api/errors.ts';
import { classifyNetworkError } from '../../../src/api/network.ts';
import { registerSecret } from '../../../src/api/redact.ts';
import { ConvergeError } from '../../../src/errors.ts';

describe('errorMessages', () => {
  it('reads JSON:API error objects as "title: detail", or the title alone', () => {
    const body = {
      errors: [
        { status: '422', title: 'invalid attribute', detail: 'Name has already been taken' },
        { status: '404', title: 'not found' },
      ],
    };
    expect(errorMessages(body)).toEqual(['invalid attribute: Name has already been taken', 'not found']);
  });

  it("reads Vault's string errors, unwrapping go-multierror text", () => {
    expect(errorMessages({ errors: ['missing default user'] })).toEqual(['missing default user']);
    expect(errorMessages({ errors: ['1 error occurred:\n\t* permission denied\n\n'] })).toEqual(['permission denied']);
    expect(errorMessages({ errors: [] })).toEqual([]);
  });

  it('falls back to a short text body, without markup', () => {
    expect(errorMessages('<html><body><h1>502 Bad Gateway</h1></body></html>')).toEqual(['502 Bad Gateway']);
    expect(errorMessages('x'.repeat(400))[0]).toHaveLength(303);
    expect(errorMessages(undefined)).toEqual([]);
  });
});

describe('ApiError', () => {
  it('names method, path, status and what the server said', () => {
    const error = new ApiError({
      status: 422,
      method: 'PATCH',
      path: '/api/v2/admin/general-settings',
      messages: ['invalid attribute: Api rate limit must be greater than or equal to 30'],
      outcome: 'failed',
      api: 'platform',
    });
    expect(error.message).toBe(
      'PATCH /api/v2/admin/general-settings: 422 invalid attribute: Api rate limit must be greater than or equal to 30',
    );
    expect(ConvergeError.is(error)).toBe(true);
    expect(error.code).toBe('API_ERROR');
    expect(error.hint).toBeUndefined();
  });

  it('uses the status text when the server said nothing, and hints at tokens and rights', () => {
    const init = {
      method: 'GET',
      path: '/v1/ssh/roles/x',
      messages: [],
      outcome: 'failed' as const,
      api: 'secrets' as const,
    };
    expect(new ApiError({ ...init, status: 404 }).message).toBe('GET /v1/ssh/roles/x: 404 not found');
    expect(new ApiError({ ...init, status: 401 }).hint).toMatch(/token/);
    expect(new ApiError({ ...init, status: 403 }).hint).toMatch(/policies/);
    expect(new ApiError({ ...init, status: 404 }).hint).toMatch(/mounted/);
    expect(new ApiError({ ...init, status: 404, api: 'platform' }).hint).toMatch(/rights/);
  });

  it('hints by API family: a registry 403 is curation or module rights, not a site-admin token', () => {
    const init = { method: 'POST', messages: [], outcome: 'failed' as const, api: 'platform' as const };
    const registry = new ApiError({ ...init, status: 403, path: '/api/v2/organizations/corp/registry-modules' });
    expect(registry.hint).toMatch(/public curation/);
    expect(registry.hint).not.toMatch(/site-admin/);
    const protocol = new ApiError({ ...init, status: 404, path: '/api/registry/v1/modules/corp/net/aws' });
    expect(protocol.hint).toMatch(/Manage modules/);
    expect(new ApiError({ ...init, status: 403, path: '/api/v2/admin/users' }).hint).toMatch(/site-admin token/);
  });

  it('redacts registered secrets the server echoes back', () => {
    registerSecret('hunter2-password');
    const error = new ApiError({
      status: 400,
      method: 'POST',
      path: '/v1/ldap/config',
      messages: ['bindpass hunter2-password rejected'],
      outcome: 'failed',
      api: 'secrets',
    });
    expect(error.message).toBe('POST /v1/ldap/config: 400 bindpass *** rejected');
    expect(error.messages).toEqual(['bindpass *** rejected']);
  });
});

describe('NetworkError and classifyNetworkError', () => {
  const origin = 'http://127.0.0.1:8080';

  it('says a refused connection was never sent, with the address', () => {
    const failure = classifyNetworkError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }), origin);
    expect(failure).toEqual({
      sent: false,
      retryable: true,
      reason: `connection refused to ${origin}`,
      errno: 'ECONNREFUSED',
    });
    const error = new NetworkError({ method: 'GET', path: '/v1/ssh/roles', ...failure!, outcome: 'not-sent' });
    expect(error.message).toBe(`GET /v1/ssh/roles: connection refused to ${origin}`);
    expect(error.code).toBe('NETWORK_ERROR');
  });

  it('finds the code inside an AggregateError from a dual-stack connect', () => {
    const aggregate = new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'all failed');
    expect(classifyNetworkError(aggregate, origin)?.sent).toBe(false);
  });

  it('treats resets and closed sockets as sent, unknown hosts and TLS failures as final', () => {
    expect(classifyNetworkError({ code: 'UND_ERR_SOCKET' }, origin)).toMatchObject({ sent: true, retryable: true });
    expect(classifyNetworkError({ code: 'ECONNRESET' }, origin)).toMatchObject({ sent: true, retryable: true });
    expect(classifyNetworkError({ code: 'ENOTFOUND' }, 'https://tfe.example.com')).toMatchObject({
      sent: false,
      retryable: false,
      reason: 'host not found: tfe.example.com',
    });
    expect(classifyNetworkError({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, origin)).toMatchObject({ retryable: false });
  });

  it('leaves errors that are not about the network to the caller', () => {
    expect(classifyNetworkError(new TypeError('bug'), origin)).toBeUndefined();
    expect(classifyNetworkError({ code: 'UND_ERR_INVALID_ARG' }, origin)).toBeUndefined();
  });
});
