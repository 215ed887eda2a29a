import { describe, expect, it } from 'vitest';
import { redact, registerSecret } from '../../../src/api/redact.ts';

describe('redact', () => {
  it('masks every occurrence of every registered value', () => {
    registerSecret('s3cr3t-token-a');
    registerSecret('pa55-b');
    expect(redact('a=s3cr3t-token-a b=pa55-b again s3cr3t-token-a')).toBe('a=*** b=*** again ***');
  });

  it('masks a longer secret whole even when it contains a shorter one', () => {
    registerSecret('abcd1234');
    registerSecret('xxabcd1234yy');
    expect(redact('xxabcd1234yy')).toBe('***');
  });

  it('masks the forms a value takes inside JSON and URLs', () => {
    registerSecret('we"ird pass/1');
    expect(redact(JSON.stringify({ password: 'we"ird pass/1' }))).toBe('{"password":"***"}');
    expect(redact(`?p=${encodeURIComponent('we"ird pass/1')}`)).toBe('?p=***');
  });

  it('ignores values too short to be told from ordinary text', () => {
    registerSecret('abc');
    registerSecret('');
    expect(redact('abc is fine')).toBe('abc is fine');
  });

  it('masks the token a client was created with', async () => {
    const { createHttpClient } = await import('../../../src/api/client.ts');
    const client = createHttpClient({
      baseUrl: 'http://127.0.0.1:1',
      auth: { api: 'secrets', token: 'hvs.client-token-9' },
    });
    expect(redact('token hvs.client-token-9')).toBe('token ***');
    await client.close();
  });
});
