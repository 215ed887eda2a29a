import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userActions } from '../../../src/providers/admin-user/actions.ts';
import { adminUser as provider } from '../../../src/providers/admin-user/index.ts';
import { planObject } from '../../../src/reconcile/plan.ts';
import { capabilities } from '../../../src/reconcile/provider.ts';

import type { Fields } from '../../../src/reconcile/types.ts';
import { desired, live } from '../reconcile/builders.ts';
import { contextFor, FakeClient, pagedCollection, resource } from './fake-client.ts';

const path = '/api/v2/admin/users';

const user = (n: number, flags: Fields = {}) =>
  resource('users', `user-${n}`, {
    username: `user${n}`,
    email: `user${n}@example.com`,
    'is-admin': false,
    'is-suspended': false,
    'is-service-account': false,
    ...flags,
  });

/** A fake users endpoint whose actions change the flags as the spec's state table says (400 when already so). */
function usersServer(users: ReturnType<typeof user>[]) {
  const client = new FakeClient().on(
    'GET',
    path,
    pagedCollection(() => users),
  );
  const effects = {
    grant_admin: ['is-admin', true],
    revoke_admin: ['is-admin', false],
    suspend: ['is-suspended', true],
    unsuspend: ['is-suspended', false],
  } as const;
  client.on('POST', `${path}/:id/actions/:action`, (_request, [id, action]) => {
    const target = users.find((u) => u.id === id);
    const effect = effects[action as keyof typeof effects];
    if (!target || !effect) return { status: 404 };
    if (target.attributes[effect[0]] === effect[1]) return { status: 400 };
    target.attributes[effect[0]] = effect[1];
    return { body: { data: target } };
  });
  client.on('DELETE', `${path}/:id`, () => ({ status: 204 }));
  return client;
}

describe('AdminUser', () => {
  it('manages existing users only, deleted only by ensure: absent', () => {
    expect(provider).toMatchObject({ cardinality: 'many' });
    expect(capabilities(provider)).toEqual({ create: false, update: true, delete: 'absent-only', export: true });
    expect(provider.writeOnly({})).toEqual([]);
    expect(provider.address({ name: 'ann' })).toEqual({ kind: 'AdminUser', name: 'ann' });
  });

  it('has no defaults: a flag left out is not compared', () => {
    expect(provider.canonicalDesired({})).toEqual({});
    expect(provider.canonicalDesired({ 'is-admin': true })).toEqual({ 'is-admin': true });
    expect(provider.canonicalLive(user(1).attributes)).toEqual({ 'is-admin': false, 'is-suspended': false });
  });

  it('lists users by username with the user id as ref, 100 per request', async () => {
    const client = usersServer(Array.from({ length: 250 }, (_, i) => user(i)));
    const listed = await provider.list(contextFor(client), {});
    expect(listed).toHaveLength(250);
    expect(listed[7]).toMatchObject({
      kind: 'AdminUser',
      address: { kind: 'AdminUser', name: 'user7' },
      ref: 'user-7',
    });
    expect(client.requests).toHaveLength(3);
  });

  it('calls one action per changed flag', async () => {
    const users = [user(1, { 'is-suspended': true })];
    const client = usersServer(users);
    const [current] = await provider.list(contextFor(client), {});
    const d = desired('AdminUser', 'user1', { 'is-admin': true, 'is-suspended': false });
    await provider.update!(contextFor(client), d, current!, { 'is-admin': true, 'is-suspended': false });
    expect(client.lines.slice(1)).toEqual([
      `POST ${path}/user-1/actions/unsuspend`,
      `POST ${path}/user-1/actions/grant_admin`,
    ]);
    expect(provider.canonicalLive(users[0]!.attributes)).toEqual({ 'is-admin': true, 'is-suspended': false });
  });

  it('asks for nothing the user already has, since the actions answer 400 then', async () => {
    const client = usersServer([user(1, { 'is-admin': true })]);
    const [current] = await provider.list(contextFor(client), {});
    await provider.update!(contextFor(client), desired('AdminUser', 'user1', {}), current!, { 'is-admin': true });
    expect(client.requests).toHaveLength(1);
  });

  it('revokes rights before suspending', async () => {
    const client = usersServer([user(1, { 'is-admin': true })]);
    const [current] = await provider.list(contextFor(client), {});
    await provider.update!(contextFor(client), desired('AdminUser', 'user1', {}), current!, {
      'is-suspended': true,
      'is-admin': false,
    });
    expect(client.lines.slice(1)).toEqual([
      `POST ${path}/user-1/actions/revoke_admin`,
      `POST ${path}/user-1/actions/suspend`,
    ]);
  });

  it('reaches any wanted flags from any live flags, each action at most once', () => {
    const flags = fc.record({ 'is-admin': fc.boolean(), 'is-suspended': fc.boolean() }, { requiredKeys: [] });
    fc.assert(
      fc.property(flags, fc.record({ 'is-admin': fc.boolean(), 'is-suspended': fc.boolean() }), (wanted, now) => {
        const state: Fields = { ...now };
        const actions = userActions(wanted, now);
        for (const action of actions) {
          if (action === 'grant_admin' || action === 'revoke_admin') state['is-admin'] = action === 'grant_admin';
          else state['is-suspended'] = action === 'suspend';
        }
        expect(new Set(actions).size).toBe(actions.length);
        expect(state).toMatchObject(wanted);
      }),
    );
  });

  it('deletes with DELETE /users/:id', async () => {
    const client = usersServer([]);
    await provider.delete!(contextFor(client), live('AdminUser', 'user1', {}, 'user-1'));
    expect(client.lines).toEqual([`DELETE ${path}/user-1`]);
  });

  it('has no create: a declared user that does not exist is a plan problem, found before any request', () => {
    expect(provider.create).toBeUndefined();
    const zed = desired('AdminUser', 'zed', {});
    const secrets = { lookup: undefined, resend: false };
    expect(planObject(provider, zed, 'AdminUser/zed', undefined, { prune: false, ownership: [], secrets })).toEqual({
      problem: {
        key: 'AdminUser/zed',
        source: zed.source,
        message: 'AdminUser/zed does not exist, and the API does not create AdminUser objects',
      },
    });
  });

  it('exports only the two flags', () => {
    expect(provider.toManifest!(live('AdminUser', 'user1', user(1).attributes, 'user-1'))).toEqual({
      kind: 'AdminUser',
      metadata: { name: 'user1' },
      spec: { 'is-admin': false, 'is-suspended': false },
    });
  });
});
