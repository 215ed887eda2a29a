/**
 * VCS webhooks (src/emulator/registry/webhooks.ts): a POST to a VCS module's
 * `vcs-repo.webhook-url`, the stand-in for the provider's push event, reads
 * the module's real local git repository again: new semantic-version tags
 * become versions of a tag-based module; a new commit on a branch-based
 * module's branch publishes nothing and, with tests enabled, is tested.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Answer, type Client, doc, start } from './helpers.ts';
import { type GitRepository, gitRepository } from './registry-git.ts';

const ORG = 'example-org';
const MODULES = `/api/v2/organizations/${ORG}/registry-modules`;
const MODULE = `${MODULES}/private/${ORG}/network/aws`;
const TESTS = `/api/v2/organizations/${ORG}/tests/registry-modules/private/${ORG}/network/aws`;
const IDENTIFIER = 'acme/terraform-aws-network';

type Attributes = Record<string, unknown>;
type Status = { version: string; status: string; error?: string };
const attributes = (answer: Answer) => (answer.body.data as { attributes: Attributes }).attributes;
const statuses = (answer: Answer) => attributes(answer)['version-statuses'] as Status[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function publish(repo: GitRepository, vcs: Attributes = {}): Promise<{ client: Client; webhook: string }> {
  const client = await start({ seed: { registry: { repositories: { [IDENTIFIER]: repo.path } } } });
  const answer = await client.call('POST', `${MODULES}/vcs`, {
    body: doc('registry-modules', { 'vcs-repo': { identifier: IDENTIFIER, 'oauth-token-id': 'ot-abc', ...vcs } }),
  });
  expect(answer.status).toBe(201);
  return { client, webhook: String((attributes(answer)['vcs-repo'] as Attributes)['webhook-url']) };
}

/** The push event: a POST with the provider's kind of body and no credentials. */
async function push(webhook: string): Promise<{ status: number; body: string }> {
  const response = await fetch(webhook, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ref: 'refs/heads/main' }),
  });
  return { status: response.status, body: await response.text() };
}

/** Reads the module until it has `count` versions (publishing reads the tags after its answer), none still being built. */
async function settled(client: Client, count: number): Promise<Answer> {
  for (let i = 0; ; i++) {
    const answer = await client.call('GET', MODULE);
    const done = statuses(answer).filter((s) => ['ok', 'reg_ingress_failed', 'clone_failed'].includes(s.status));
    if (done.length === count && statuses(answer).length === count) return answer;
    if (i > 400) throw new Error(`versions never settled: ${JSON.stringify(statuses(answer))}`);
    await sleep(25);
  }
}

/** The module's inputs in one version, from the registry protocol. */
async function inputsOf(client: Client, version: string): Promise<string[]> {
  const answer = await client.call('GET', `/api/registry/v1/modules/${ORG}/network/aws/${version}`);
  expect(answer.status).toBe(200);
  return ((answer.body.root as { inputs: Array<{ name: string }> }).inputs ?? []).map((input) => input.name);
}

describe('the webhook of a tag-based module', () => {
  it('publishes the tags pushed since, each from its own commit, and nothing twice', async () => {
    const repo = gitRepository();
    repo.git('tag', 'v1.0.0');
    const { client, webhook } = await publish(repo);
    expect(statuses(await settled(client, 1))).toEqual([{ version: '1.0.0', status: 'ok' }]);

    writeFileSync(join(repo.path, 'extra.tf'), 'variable "added_in_1_1" {\n  type = string\n}\n');
    repo.git('add', '.');
    repo.git('commit', '--quiet', '-m', 'a variable');
    repo.git('tag', '1.1.0');
    repo.git('tag', 'not-a-version');
    expect(await push(webhook)).toEqual({ status: 204, body: '' });
    // answered once read: the new version is there and final
    const after = await client.call('GET', MODULE);
    expect(statuses(after)).toEqual([
      { version: '1.1.0', status: 'ok' },
      { version: '1.0.0', status: 'ok' },
    ]);
    expect(await inputsOf(client, '1.1.0')).toContain('added_in_1_1');
    expect(await inputsOf(client, '1.0.0')).not.toContain('added_in_1_1');

    expect((await push(webhook)).status).toBe(204);
    expect(statuses(await client.call('GET', MODULE))).toHaveLength(2);
  });

  it('fails a pushed tag whose Terraform does not parse, with the parse error, and no other', async () => {
    const repo = gitRepository();
    repo.git('tag', 'v1.0.0');
    const { client, webhook } = await publish(repo);
    await settled(client, 1);
    writeFileSync(join(repo.path, 'broken.tf'), 'variable "x" {\n  default = \n}\n');
    repo.git('add', '.');
    repo.git('commit', '--quiet', '-m', 'broken');
    repo.git('tag', 'v1.0.1');
    expect((await push(webhook)).status).toBe(204);
    const after = statuses(await client.call('GET', MODULE));
    expect(after.map((s) => [s.version, s.status])).toEqual([
      ['1.0.1', 'reg_ingress_failed'],
      ['1.0.0', 'ok'],
    ]);
    expect(after[0]?.error).toMatch(/^broken\.tf:2,13-3,1: Invalid expression/);
  });

  it('answers 404 for a webhook no module has, and needs no token for one that exists', async () => {
    const repo = gitRepository();
    const { client, webhook } = await publish(repo);
    expect((await push(webhook.replace(/[0-9a-f]{12}$/, '000000000000'))).status).toBe(404);
    expect((await push(`${client.emulator.url}/_archivist/v1/webhooks/vcs/`)).status).toBe(404);
    expect((await push(webhook)).status).toBe(204);
  });
});

describe('the webhook of a branch-based module', () => {
  const runs = async (client: Client) => {
    const answer = await client.call('GET', `${TESTS}/test-runs`);
    expect(answer.status).toBe(200);
    return answer.body.data as Array<{
      id: string;
      attributes: Attributes;
      relationships: Record<string, { data: { id: string } }>;
    }>;
  };
  const enableTests = async (client: Client, enabled: boolean) =>
    expect(
      (
        await client.call('PATCH', MODULE, {
          body: doc('registry-modules', { 'test-config': { 'tests-enabled': enabled } }),
        })
      ).status,
    ).toBe(200);

  it('publishes no version on a push, and tests a new commit only when tests are enabled', async () => {
    const repo = gitRepository();
    repo.git('tag', 'v1.0.0');
    const { client, webhook } = await publish(repo, { branch: 'main' });
    // tests off: a push is only noted
    expect((await push(webhook)).status).toBe(204);
    expect(await runs(client)).toEqual([]);
    // tests on, the same commit: nothing new to test
    await enableTests(client, true);
    expect((await push(webhook)).status).toBe(204);
    expect(await runs(client)).toEqual([]);

    writeFileSync(join(repo.path, 'NOTES.md'), 'a new commit\n');
    repo.git('add', '.');
    repo.git('commit', '--quiet', '-m', 'notes');
    const head = repo.git('rev-parse', 'HEAD');
    expect((await push(webhook)).status).toBe(204);
    const [run, ...others] = await runs(client);
    expect(others).toEqual([]);
    expect(run?.attributes).toMatchObject({
      source: 'platform-configuration-version',
      message: `Queued automatically by a push to main (${head.slice(0, 7)})`,
      'test-configurable-type': 'RegistryModule',
    });
    // the run is of the pushed commit's files: the example's test file, found and counted once it ends
    const cv = run?.relationships['configuration-version']?.data.id ?? '';
    expect(cv).toMatch(/^cv-/);
    for (let i = 0; ; i++) {
      const current = await client.call('GET', `${TESTS}/test-runs/${run?.id}`);
      const status = attributes(current).status;
      if (status === 'finished') {
        expect(attributes(current)).toMatchObject({ 'test-status': 'pass', 'tests-passed': 2, 'tests-failed': 0 });
        break;
      }
      expect(['queued', 'running']).toContain(status);
      if (i > 200) throw new Error('the run never finished');
      await sleep(50);
    }
    // branch-based: versions come from the versions endpoint only, not from pushes or tags
    expect(statuses(await client.call('GET', MODULE))).toEqual([]);
    expect((await push(webhook)).status).toBe(204);
    expect(await runs(client)).toHaveLength(1);
  });

  it('answers 422 when the module publishes from a branch the repository does not have', async () => {
    const repo = gitRepository();
    const { client, webhook } = await publish(repo, { branch: 'main' });
    const patched = await client.call('PATCH', MODULE, {
      body: doc('registry-modules', { 'vcs-repo': { branch: 'release' } }),
    });
    expect(patched.status).toBe(200);
    const answer = await push(webhook);
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('the repository has no branch \\"release\\"');
  });
});
