import { describe, expect, it } from 'vitest';
import { attributesOf, CERT_A, CERT_B, type Client, details, doc, pointers, start } from './helpers.ts';

const patch = (call: Client['call'], name: string, attributes: Record<string, unknown>) =>
  call('PATCH', `/api/v2/admin/${name}-settings`, { body: doc(`${name}-settings`, attributes) });

describe('settings documents and defaults', () => {
  const defaults: Array<[string, string, Record<string, unknown>]> = [
    [
      'general',
      'general-settings',
      {
        'limit-user-organization-creation': true,
        'api-rate-limiting-enabled': true,
        'api-rate-limit': 30,
        'plan-timeout': '2h',
        'apply-timeout': '24h',
        'send-passing-statuses-for-untriggered-speculative-plans': false,
        'allow-speculative-plans-on-pull-requests-from-forks': false,
        'default-remote-state-access': true,
        'engine-build-worker-plan-timeout': '2h',
        'engine-build-worker-apply-timeout': '24h',
      },
    ],
    [
      'cost-estimation',
      'cost-estimation-settings',
      {
        enabled: false,
        'cloud-a-access-key-id': null,
        'cloud-c-client-id': null,
        'cloud-c-subscription-id': null,
        'cloud-c-tenant-id': null,
      },
    ],
    [
      'saml',
      'saml-settings',
      {
        enabled: false,
        debug: false,
        'idp-cert': null,
        'old-idp-cert': null,
        'slo-endpoint-url': null,
        'sso-endpoint-url': null,
        'attr-username': 'Username',
        'attr-groups': 'MemberOf',
        'attr-site-admin': 'SiteAdmin',
        'site-admin-role': 'site-admins',
        'sso-api-token-session-timeout': 1209600,
      },
    ],
    ['smtp', 'smtp-settings', { enabled: false, host: null, port: null, sender: null, auth: 'none', username: null }],
    ['sms', 'sms-settings', { enabled: false, 'account-sid': null, 'from-number': null }],
    [
      'customization',
      'customization-settings',
      { 'support-email-address': 'support@example.com', 'login-help': '', footer: '', error: '', 'new-user': '' },
    ],
  ];

  it.each(defaults)('GET %s-settings: id, type, link and defaults', async (name, type, attributes) => {
    const { call, emulator } = await start();
    const answer = await call('GET', `/api/v2/admin/${name}-settings`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    const data = answer.body.data as Record<string, unknown>;
    expect(data.id).toBe(name);
    expect(data.type).toBe(type);
    expect(data.links).toEqual({ self: `/api/v2/admin/${type}` });
    const computed =
      name === 'saml'
        ? {
            'acs-consumer-url': `${emulator.url}/users/saml/auth`,
            'metadata-url': `${emulator.url}/users/saml/metadata`,
          }
        : {};
    expect(data.attributes).toEqual({ ...attributes, ...computed });
  });

  it('PATCH changes only the given attributes and returns the document', async () => {
    const { call } = await start();
    const answer = await patch(call, 'customization', { footer: 'Example Corp', 'login-help': '<b>hi</b>' });
    expect(answer.status).toBe(200);
    expect(attributesOf(answer)).toMatchObject({ footer: 'Example Corp', 'login-help': '<b>hi</b>', error: '' });
    expect(attributesOf(await call('GET', '/api/v2/admin/customization-settings')).footer).toBe('Example Corp');
  });

  it('accepts application/json as well as JSON:API', async () => {
    const { call } = await start();
    const answer = await call('PATCH', '/api/v2/admin/customization-settings', {
      body: JSON.stringify(doc('customization-settings', { footer: 'plain json' })),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect(attributesOf(answer).footer).toBe('plain json');
  });
});

describe('settings validation', () => {
  it('reports every failed attribute at once, each with its pointer, and changes nothing', async () => {
    const { call } = await start();
    const answer = await patch(call, 'general', {
      'api-rate-limit': 29,
      'plan-timeout': 'two hours',
      'apply-timeout': '0h',
      'default-remote-state-access': 'yes',
      'no-such-setting': 1,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors?.[0]).toEqual({
      status: '422',
      title: 'invalid attribute',
      detail: 'Api rate limit must be greater than or equal to 30',
      source: { pointer: '/data/attributes/api-rate-limit' },
    });
    expect(pointers(answer)).toEqual([
      '/data/attributes/api-rate-limit',
      '/data/attributes/plan-timeout',
      '/data/attributes/apply-timeout',
      '/data/attributes/default-remote-state-access',
      '/data/attributes/no-such-setting',
    ]);
    expect(details(answer).slice(3)).toEqual([
      'Default remote state access must be true or false',
      'No such setting is not a known attribute',
    ]);
    expect(attributesOf(await call('GET', '/api/v2/admin/general-settings'))['api-rate-limit']).toBe(30);
  });

  it('accepts durations as a decimal number plus a unit and integers for the rate limit', async () => {
    const { call } = await start();
    const answer = await patch(call, 'general', {
      'api-rate-limit': 30,
      'plan-timeout': '1.5h',
      'apply-timeout': '90m',
    });
    expect(answer.status).toBe(200);
    expect((await patch(call, 'general', { 'api-rate-limit': 30.5 })).status).toBe(422);
    expect((await patch(call, 'general', { 'api-rate-limit': '60' })).status).toBe(422);
    expect((await patch(call, 'general', { 'plan-timeout': '3h30m' })).status).toBe(422);
    expect((await patch(call, 'general', { 'plan-timeout': 7200 })).status).toBe(422);
  });

  it('treats the deprecated timeouts as aliases: writing either sets both', async () => {
    const { call } = await start();
    let attributes = attributesOf(await patch(call, 'general', { 'plan-timeout': '3h' }));
    expect(attributes['engine-build-worker-plan-timeout']).toBe('3h');
    attributes = attributesOf(await patch(call, 'general', { 'engine-build-worker-apply-timeout': '12h' }));
    expect(attributes['apply-timeout']).toBe('12h');
    attributes = attributesOf(
      await patch(call, 'general', { 'plan-timeout': '4h', 'engine-build-worker-plan-timeout': '5h' }),
    );
    expect([attributes['plan-timeout'], attributes['engine-build-worker-plan-timeout']]).toEqual(['4h', '4h']);
  });

  it('answers 422 unprocessable entity to a malformed body', async () => {
    const { call } = await start();
    for (const body of ['{not json', '[]', JSON.stringify({ data: 'x' }), JSON.stringify({ attributes: {} })]) {
      const answer = await call('PATCH', '/api/v2/admin/general-settings', { body });
      expect(answer.status).toBe(422);
      expect(answer.body.errors?.[0]).toMatchObject({ status: '422', title: 'unprocessable entity' });
    }
    const wrongType = await call('PATCH', '/api/v2/admin/general-settings', { body: doc('saml-settings', {}) });
    expect(details(wrongType)).toEqual(['data.type must be general-settings']);
  });

  it('SMTP: needs host, port and sender when enabled, and username and password with plain or login auth', async () => {
    const { call } = await start();
    let answer = await patch(call, 'smtp', { enabled: true, auth: 'login' });
    expect(pointers(answer)).toEqual(
      ['host', 'port', 'sender', 'username', 'password'].map((a) => `/data/attributes/${a}`),
    );
    answer = await patch(call, 'smtp', { auth: 'cram-md5', port: 70000, sender: 'not-an-address' });
    expect(pointers(answer)).toEqual(['auth', 'port', 'sender'].map((a) => `/data/attributes/${a}`));
    const full = { enabled: true, host: 'smtp.example.com', port: 587, sender: 'ops@example.com', auth: 'plain' };
    answer = await patch(call, 'smtp', { ...full, username: 'mailer', password: 's3cret' });
    expect(answer.status).toBe(200);
    expect(attributesOf(answer)).toEqual({ ...full, username: 'mailer' });
    // the stored password still counts for the rule
    expect((await patch(call, 'smtp', { auth: 'login' })).status).toBe(200);
  });

  it('SMTP: never returns the password nor keeps the test address; a test message can fail by host', async () => {
    const { call } = await start();
    const base = { enabled: true, host: 'smtp.example.com', port: 25, sender: 'ops@example.com', password: 'hunter2' };
    const sent = await patch(call, 'smtp', { ...base, 'test-email-address': 'me@example.com' });
    expect(sent.status).toBe(200);
    expect(JSON.stringify(sent.body)).not.toContain('hunter2');
    expect(JSON.stringify(sent.body)).not.toContain('me@example.com');
    expect(attributesOf(await call('GET', '/api/v2/admin/smtp-settings'))).not.toHaveProperty('password');
    for (const [host, status] of [
      ['unauthorized.invalid', 401],
      ['fail.invalid', 500],
      ['timeout.invalid', 504],
    ] as const) {
      const failed = await patch(call, 'smtp', { host, 'test-email-address': 'me@example.com' });
      expect(failed.status).toBe(status);
      expect(failed.body.errors?.[0]?.status).toBe(String(status));
    }
    // a failed test leaves the settings as they were
    expect(attributesOf(await call('GET', '/api/v2/admin/smtp-settings')).host).toBe('smtp.example.com');
    // without a test address the failing host is just stored
    expect((await patch(call, 'smtp', { host: 'fail.invalid' })).status).toBe(200);
  });

  it('SMS: needs all three values when enabled and never returns the auth token', async () => {
    const { call } = await start();
    expect(pointers(await patch(call, 'sms', { enabled: true }))).toEqual(
      ['account-sid', 'auth-token', 'from-number'].map((a) => `/data/attributes/${a}`),
    );
    expect(pointers(await patch(call, 'sms', { 'from-number': 'call me' }))).toEqual(['/data/attributes/from-number']);
    const answer = await patch(call, 'sms', {
      enabled: true,
      'account-sid': 'AC123',
      'auth-token': 'tok-secret',
      'from-number': '+15550100',
    });
    expect(answer.status).toBe(200);
    expect(attributesOf(answer)).toEqual({ enabled: true, 'account-sid': 'AC123', 'from-number': '+15550100' });
    expect(JSON.stringify((await call('GET', '/api/v2/admin/sms-settings')).body)).not.toContain('tok-secret');
  });

  it('SMS verify: 400 without a test number or while disabled, 200 without a body otherwise; POST and PATCH', async () => {
    const { call } = await start();
    const verify = (method: string, number?: string) =>
      call(method, '/api/v2/admin/sms-settings/verify', {
        body: doc('sms-settings', number === undefined ? {} : { 'test-number': number }),
      });
    expect(details(await verify('POST', '+15550100'))).toEqual(['SMS is not enabled']);
    await patch(call, 'sms', { enabled: true, 'account-sid': 'AC1', 'auth-token': 't', 'from-number': '+15550100' });
    expect(details(await verify('POST'))).toEqual(['a test number is required']);
    for (const method of ['POST', 'PATCH']) {
      const answer = await verify(method, '+15550199');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({});
    }
  });

  it('cost estimation: enabling needs one complete credential set; secrets are never returned', async () => {
    const { call } = await start();
    const refused = await patch(call, 'cost-estimation', { enabled: true, 'cloud-a-access-key-id': 'AKIA1' });
    expect(pointers(refused)).toEqual(['/data/attributes/enabled']);
    expect(pointers(await patch(call, 'cost-estimation', { 'cloud-b-credentials': 'not json' }))).toEqual([
      '/data/attributes/cloud-b-credentials',
    ]);
    const cloudC = {
      'cloud-c-client-id': 'cid',
      'cloud-c-client-secret': 'c-secret-value',
      'cloud-c-subscription-id': 'sub',
      'cloud-c-tenant-id': 'ten',
    };
    expect((await patch(call, 'cost-estimation', { enabled: true, ...cloudC })).status).toBe(200);
    const answer = await patch(call, 'cost-estimation', {
      'cloud-a-secret-key': 'a-secret-value',
      'cloud-b-credentials': '{"type":"service_account","private_key":"b-secret-value"}',
    });
    expect(answer.status).toBe(200);
    const text = JSON.stringify((await call('GET', '/api/v2/admin/cost-estimation-settings')).body);
    for (const secret of ['a-secret-value', 'b-secret-value', 'c-secret-value']) expect(text).not.toContain(secret);
    // the refused PATCH stored nothing
    expect(attributesOf(answer)).toMatchObject({
      enabled: true,
      'cloud-a-access-key-id': null,
      'cloud-c-client-id': 'cid',
    });
    // cloud-b alone is a complete set
    const { call: fresh } = await start();
    expect((await patch(fresh, 'cost-estimation', { enabled: true, 'cloud-b-credentials': '{"k":1}' })).status).toBe(
      200,
    );
  });

  it('customization: strings only, and an email address for support', async () => {
    const { call } = await start();
    expect(pointers(await patch(call, 'customization', { footer: 3, 'support-email-address': 'nobody' }))).toEqual([
      '/data/attributes/footer',
      '/data/attributes/support-email-address',
    ]);
  });
});

describe('SAML', () => {
  const enabled = {
    enabled: true,
    'idp-cert': CERT_A,
    'sso-endpoint-url': 'https://idp.example.com/sso',
    'slo-endpoint-url': 'https://idp.example.com/slo',
  };

  it('needs a certificate and HTTPS endpoints when enabled', async () => {
    const { call } = await start();
    expect(pointers(await patch(call, 'saml', { enabled: true }))).toEqual(
      ['idp-cert', 'slo-endpoint-url', 'sso-endpoint-url'].map((a) => `/data/attributes/${a}`),
    );
    const bad = await patch(call, 'saml', {
      'idp-cert': 'MIIB...',
      'sso-endpoint-url': 'http://idp.example.com/sso',
      'slo-endpoint-url': 'not a url',
      'sso-api-token-session-timeout': 0,
    });
    expect(details(bad)).toEqual([
      'Idp cert must be a PEM-encoded X.509 certificate',
      'Sso endpoint url must be a valid HTTPS URL',
      'Slo endpoint url must be a valid HTTPS URL',
      'Sso api token session timeout must be greater than or equal to 1',
    ]);
    const answer = await patch(call, 'saml', { ...enabled, 'site-admin-role': 'admins' });
    expect(answer.status).toBe(200);
    expect(attributesOf(answer)).toMatchObject({ ...enabled, 'site-admin-role': 'admins', 'old-idp-cert': null });
  });

  it('refuses the read-only attributes', async () => {
    const { call } = await start();
    const answer = await patch(call, 'saml', {
      'acs-consumer-url': 'https://x',
      'metadata-url': 'https://y',
      'old-idp-cert': CERT_A,
    });
    expect(details(answer)).toEqual([
      'Acs consumer url is read-only',
      'Metadata url is read-only',
      'Old idp cert is read-only',
    ]);
  });

  it('rotates: a new certificate keeps the previous one as old-idp-cert until it is revoked', async () => {
    const { call } = await start();
    await patch(call, 'saml', enabled);
    // the same certificate with other line breaks is not a rotation
    const same = await patch(call, 'saml', { 'idp-cert': `${CERT_A.replaceAll('\n', '\r\n')}\n` });
    expect(attributesOf(same)['old-idp-cert']).toBeNull();
    const rotated = attributesOf(await patch(call, 'saml', { 'idp-cert': CERT_B }));
    expect(rotated['idp-cert']).toBe(CERT_B);
    expect(String(rotated['old-idp-cert']).replace(/\s+/g, '')).toBe(CERT_A.replace(/\s+/g, ''));
    const revoked = await call('POST', '/api/v2/admin/saml-settings/actions/revoke-old-certificate');
    expect(revoked.status).toBe(200);
    expect(attributesOf(revoked)).toMatchObject({ 'idp-cert': CERT_B, 'old-idp-cert': null });
    expect(attributesOf(await call('GET', '/api/v2/admin/saml-settings'))['old-idp-cert']).toBeNull();
  });
});
