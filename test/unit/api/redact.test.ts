import { describe, expect, it } from 'vitest';
import { redact, registerSecret } from '../../../src/api/redact.ts';

describe('redact', () => {
  it('masks every occurrence of every registered value', () => {
    registerSecret('s3cr3t-token-a');
    registerSecret('pa55-word-b');
    expect(redact('a=s3cr3t-token-a b=pa55-word-b again s3cr3t-token-a')).toBe('a=*** b=*** again ***');
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

  it('masks a value shorter than 8 characters only where it stands whole in quotes, never inside words', () => {
    registerSecret('changed');
    registerSecret('abc');
    registerSecret('');
    // the message of a stale saved plan, with a password `changed`: intact
    expect(redact('live state changed since the plan was made')).toBe('live state changed since the plan was made');
    expect(redact('abc is fine, abcdef too')).toBe('abc is fine, abcdef too');
    // as a server echoes a value, or a message quotes it
    expect(redact('{"errors":[{"detail":"password \\"changed\\" is too weak"}],"value":"changed"}')).toBe(
      '{"errors":[{"detail":"password \\"***\\" is too weak"}],"value":"***"}',
    );
    expect(redact("invalid value 'abc' for password")).toBe("invalid value '***' for password");
  });

  it('masks a value of 8 characters or more anywhere, also inside other text', () => {
    registerSecret('hunter22');
    expect(redact('bind failed for hunter22@ldap, retrying hunter22')).toBe('bind failed for ***@ldap, retrying ***');
  });

  it('masks the parts of a secret list of URLs a server names alone: each URL, its host, host:port and user info', () => {
    registerSecret(
      'ldap://first-dc-p1.invalid, ldaps://Second-DC-p1.invalid:636/ou=x,ldap://bind%40corp-p1:pa%3Ass-p1@[fd00:abcd::17]',
    );
    const echoed =
      'no LDAP server could be reached (ldap://first-dc-p1.invalid: getaddrinfo ENOTFOUND first-dc-p1.invalid; ' +
      'ldaps://Second-DC-p1.invalid:636/ou=x: connect to second-dc-p1.invalid:636 failed; ' +
      'bind as bind@corp-p1 with pa:ss-p1 to fd00:abcd::17 failed)';
    expect(redact(echoed)).toBe(
      'no LDAP server could be reached (***: getaddrinfo ENOTFOUND ***; ***: connect to *** failed; bind as *** with *** to *** failed)',
    );
  });

  it('masks a short part of a URL list only where it stands quoted, and cuts no other secret into parts', () => {
    registerSecret('ldap://dc7,ldap://long-host-p2.invalid');
    expect(redact('host dc7 is down; "dc7" refused')).toBe('host dc7 is down; "***" refused');
    // a value with commas and no URL is one secret, not a list of words
    registerSecret('alpha,bravo-charlie-p2');
    expect(redact('alpha and bravo-charlie-p2')).toBe('alpha and bravo-charlie-p2');
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

describe('the report escapers', () => {
  it('mask a secret before escaping it: escaped, it would no longer match', async () => {
    const { escapeMarkdownHtml } = await import('../../../src/ui/markdown.ts');
    const { escapeXml, escapeXmlAttribute } = await import('../../../src/ui/xml.ts');
    registerSecret('p&ss_w!rd<x>');
    expect(escapeMarkdownHtml('help: p&ss_w!rd<x>')).toBe('help: &#42;&#42;&#42;');
    expect(escapeXml('help: "p&ss_w!rd<x>"')).toBe('help: &quot;***&quot;');
    expect(escapeXmlAttribute('p&ss_w!rd<x>')).toBe('***');
    // what is not a secret is escaped as before
    expect(escapeXml('a & b')).toBe('a &amp; b');
  });
});
