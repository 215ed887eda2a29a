/** The registry's deprecated paths answer as the endpoints that replaced them (the spec's "Versioning"). */
import { describe, expect, it } from 'vitest';
import { attributesOf, doc, start } from './helpers.ts';

const ORG = 'example-org';
const MODULES = `/api/v2/organizations/${ORG}/registry-modules`;

describe('deprecated registry paths', () => {
  it('create versions, show and delete through the old forms, with the same answers and rights', async () => {
    const { call, emulator } = await start();
    expect(
      (await call('POST', MODULES, { body: doc('registry-modules', { name: 'net', provider: 'aws' }) })).status,
    ).toBe(201);

    const version = await call('POST', `/api/v2/registry-modules/${ORG}/net/aws/versions`, {
      body: doc('registry-module-versions', { version: '1.0.0' }),
    });
    expect(version.status).toBe(201);
    expect((version.body.data as { links: { upload: string } }).links.upload).toMatch(/\/_archivist\/v1\/object\//);

    const shown = await call('GET', `/api/v2/registry-modules/show/${ORG}/net/aws`);
    expect(shown.status).toBe(200);
    expect(attributesOf(shown)).toMatchObject({
      name: 'net',
      provider: 'aws',
      'version-statuses': [{ version: '1.0.0', status: 'pending' }],
    });
    // rights are the replacement's: a member without them gets the platform's 404
    expect((await call('GET', `/api/v2/registry-modules/show/${ORG}/net/aws`, { token: 'nobody' })).status).toBe(401);
    expect(
      (await call('POST', `/api/v2/registry-modules/actions/delete/${ORG}/net`, { token: emulator.tokens.member }))
        .status,
    ).toBe(404);

    // deleting the last version deletes the provider, as item 8 says
    expect((await call('POST', `/api/v2/registry-modules/actions/delete/${ORG}/net/aws/1.0.0`)).status).toBe(204);
    expect((await call('GET', `/api/v2/registry-modules/show/${ORG}/net/aws`)).status).toBe(404);
  });

  it('publishes from VCS through POST /registry-modules, naming the organization', async () => {
    const { call } = await start();
    const refused = await call('POST', '/api/v2/registry-modules', {
      body: doc('registry-modules', { 'vcs-repo': { identifier: 'acme/terraform-aws-net', 'oauth-token-id': 'ot-1' } }),
    });
    expect(refused.status).toBe(422);
    // the repository is not one the seed knows: the replacement's 404
    const unknown = await call('POST', '/api/v2/registry-modules', {
      body: doc('registry-modules', {
        organization: ORG,
        'vcs-repo': { identifier: 'acme/terraform-aws-net', 'oauth-token-id': 'ot-1' },
      }),
    });
    expect(unknown.status).toBe(404);
  });
});
