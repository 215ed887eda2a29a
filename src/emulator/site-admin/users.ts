/**
 * User accounts (the site-admin API, Users and the user-account and
 * impersonation state tables). Users are not created by this API; they come
 * from the seed. `:id` is the user's id (`user-…`); the username is accepted
 * too, as a convenience for people trying the emulator by hand.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isPlainObject } from '../../reconcile/equal.ts';
import { requireAdmin, sessionCookie } from '../auth.ts';
import { type EmulatorContext, origin, paramsOf, queryOf, route } from '../context.ts';
import {
  type ApiResponse,
  badRequest,
  document,
  forbidden,
  notFound,
  type ResourceObject,
  unprocessable,
} from '../jsonapi.ts';
import { pageDocument, paginate, param } from '../pagination.ts';
import type { User } from '../state.ts';
import { ADMIN, API_PREFIX } from './paths.ts';

const USERS = `${ADMIN}/users`;

/** The user flags the actions turn on and off. */
type UserFlag = 'isSuspended' | 'isAdmin' | 'twoFactor';

/**
 * An action that sets one flag: the 400 when the flag already has that
 * value, and any rule (a 422) the change must also pass.
 */
interface FlagAction {
  name: string;
  flag: UserFlag;
  to: boolean;
  refusal: string;
  rule?: (user: User) => string | undefined;
}

const FLAG_ACTIONS: readonly FlagAction[] = [
  { name: 'suspend', flag: 'isSuspended', to: true, refusal: 'user is already suspended' },
  { name: 'unsuspend', flag: 'isSuspended', to: false, refusal: 'user is not suspended' },
  {
    name: 'grant_admin',
    flag: 'isAdmin',
    to: true,
    refusal: 'user is already an administrator',
    // the spec gives grant_admin a 422 and names no rule, so this one is ours
    rule: (u) => (u.isServiceAccount ? 'service accounts cannot be site administrators' : undefined),
  },
  { name: 'revoke_admin', flag: 'isAdmin', to: false, refusal: 'user is not an administrator' },
  {
    name: 'disable_two_factor',
    flag: 'twoFactor',
    to: false,
    refusal: 'user does not have two-factor authentication enabled',
  },
];

export function registerUsers(api: FastifyInstance, ctx: EmulatorContext): void {
  const { state } = ctx;
  const target = (request: FastifyRequest): User => {
    const id = paramsOf(request).id ?? '';
    const user = state.users.get(id) ?? state.users.byKey(id);
    if (!user) throw notFound();
    return user;
  };

  route(api, 'GET', USERS, (request) => {
    requireAdmin(state, request);
    return listUsers(ctx, request);
  });

  route(api, 'DELETE', `${USERS}/:id`, (request) => {
    requireAdmin(state, request);
    const user = target(request);
    const orphaned = state.soleOwnerships(user);
    if (orphaned.length > 0) {
      throw unprocessable(
        `${user.username} is the sole owner of ${orphaned.join(', ')}; give them a new owner or delete them first`,
      );
    }
    state.deleteUser(user);
    return { status: 204 };
  });

  for (const action of FLAG_ACTIONS) {
    route(api, 'POST', `${USERS}/:id/actions/${action.name}`, (request) => {
      requireAdmin(state, request);
      const user = target(request);
      if (user[action.flag] === action.to) throw badRequest(action.refusal);
      const broken = action.rule?.(user);
      if (broken !== undefined) throw unprocessable(broken);
      user[action.flag] = action.to;
      return { status: 200, body: document(userResource(user)) };
    });
  }

  // impersonation is for the web UI: it authenticates with the session cookie, not a token
  route(api, 'POST', `${USERS}/:id/actions/impersonate`, (request) => {
    const { session, user: admin } = ctx.sessions.fromRequest(state, request);
    if (!admin.isAdmin) throw notFound();
    const user = target(request);
    if (session.impersonating !== undefined) throw forbidden('already impersonating a user');
    const reason = reasonOf(request.body);
    if (reason === undefined) throw badRequest('a reason is required');
    if (user.isServiceAccount) throw forbidden('service accounts cannot be impersonated');
    if (user === admin) throw forbidden('you cannot impersonate yourself');
    session.impersonating = user.id;
    ctx.log(`audit: ${admin.username} impersonates ${user.username}: ${reason}`);
    return { status: 204 };
  });

  route(api, 'POST', `${USERS}/actions/unimpersonate`, (request) => {
    const { session, user: admin } = ctx.sessions.fromRequest(state, request);
    if (!admin.isAdmin) throw notFound();
    if (session.impersonating === undefined) throw badRequest('not impersonating a user');
    delete session.impersonating;
    const renewed = ctx.sessions.renew(session);
    return { status: 204, headers: { 'set-cookie': sessionCookie(renewed) } };
  });
}

function listUsers(ctx: EmulatorContext, request: FastifyRequest): ApiResponse {
  const query = queryOf(request);
  const all = ctx.state.users.values();
  const q = param(query, 'q')?.toLowerCase();
  const admin = booleanFilter(param(query, 'filter[admin]'));
  const suspended = booleanFilter(param(query, 'filter[suspended]'));
  const filtered =
    q === undefined && admin === undefined && suspended === undefined
      ? all
      : all.filter(
          (u) =>
            (admin === undefined || u.isAdmin === admin) &&
            (suspended === undefined || u.isSuspended === suspended) &&
            (q === undefined || u.username.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)),
        );
  const page = paginate(filtered, query, `${origin(request)}${API_PREFIX}${USERS}`);
  let suspendedCount = 0;
  let adminCount = 0;
  for (const u of all) {
    if (u.isSuspended) suspendedCount++;
    if (u.isAdmin) adminCount++;
  }
  const body = pageDocument(page, userResource, {
    'status-counts': { total: all.length, suspended: suspendedCount, admin: adminCount },
  });
  const include = param(query, 'include')?.split(',') ?? [];
  if (include.includes('organizations')) {
    const names = new Set(page.items.flatMap((u) => Object.keys(u.organizations)));
    body.included = [...names].map((name) => ({
      id: name,
      type: 'organizations',
      attributes: { name },
      links: { self: `${API_PREFIX}/organizations/${encodeURIComponent(name)}` },
    }));
  }
  return { status: 200, body };
}

/** `true`/`false`; anything else is no filter, as Rails' boolean casting of an unknown value would not match. */
function booleanFilter(value: string | undefined): boolean | undefined {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

function userResource(user: User): ResourceObject {
  return {
    id: user.id,
    type: 'users',
    attributes: {
      username: user.username,
      email: user.email,
      'avatar-url': user.avatarUrl,
      'is-admin': user.isAdmin,
      'is-suspended': user.isSuspended,
      'is-service-account': user.isServiceAccount,
    },
    relationships: {
      organizations: { data: Object.keys(user.organizations).map((name) => ({ id: name, type: 'organizations' })) },
    },
    links: { self: `${API_PREFIX}/users/${encodeURIComponent(user.username)}` },
  };
}

/** The reason, from `{reason}` (as the platform's UI sends it) or `{data: {attributes: {reason}}}`. */
function reasonOf(body: unknown): string | undefined {
  if (!isPlainObject(body)) return undefined;
  const nested =
    isPlainObject(body.data) && isPlainObject(body.data.attributes) ? body.data.attributes.reason : undefined;
  const reason = body.reason ?? nested;
  return typeof reason === 'string' && reason.trim() !== '' ? reason : undefined;
}
