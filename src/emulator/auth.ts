/**
 * Who is calling: a bearer token (API) or a session cookie (the
 * impersonation endpoints, which the platform means for its web UI). A
 * missing, unknown or suspended user's credential is a 401; a valid user who
 * is not a site administrator gets 404 from admin endpoints, as the platform
 * hides what it will not show (the site-admin API's authentication rules; docs/apis.md).
 */
import type { FastifyRequest } from 'fastify';
import { randomBase62 } from './ids.ts';
import { notFound, unauthorized } from './jsonapi.ts';
import type { State, User } from './state.ts';

export const SESSION_COOKIE = '_session';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The user of the request's bearer token, unless there is none or they are suspended. */
export function tokenUser(state: State, request: FastifyRequest): User | undefined {
  const token = bearerToken(request);
  const user = token === undefined ? undefined : state.userByToken(token);
  return user?.isSuspended === false ? user : undefined;
}

export function authenticate(state: State, request: FastifyRequest): User {
  const user = tokenUser(state, request);
  if (!user) throw unauthorized();
  return user;
}

export function requireAdmin(state: State, request: FastifyRequest): User {
  const user = authenticate(state, request);
  if (!user.isAdmin) throw notFound();
  return user;
}

export interface Session {
  id: string;
  /** The user who signed in. */
  userId: string;
  /** The user being impersonated, while impersonating. */
  impersonating?: string;
}

/** Browser sessions, in memory only: a restart signs everyone out, as a server restart with memory sessions would. */
export class Sessions {
  readonly #byId = new Map<string, Session>();

  create(user: User): Session {
    const session = { id: randomBase62(32), userId: user.id };
    this.#byId.set(session.id, session);
    return session;
  }

  /** A new id for the same session (the platform sets a fresh cookie when impersonation ends). */
  renew(session: Session): Session {
    this.#byId.delete(session.id);
    const renewed = { ...session, id: randomBase62(32) };
    this.#byId.set(renewed.id, renewed);
    return renewed;
  }

  /** The session of the request's cookie, and its signed-in user; 401 without a valid one. */
  fromRequest(state: State, request: FastifyRequest): { session: Session; user: User } {
    const id = cookie(request.headers.cookie, SESSION_COOKIE);
    const session = id === undefined ? undefined : this.#byId.get(id);
    const user = session === undefined ? undefined : state.users.get(session.userId);
    if (!session || !user || user.isSuspended) throw unauthorized();
    return { session, user };
  }
}

export function sessionCookie(session: Session): string {
  return `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax`;
}

function cookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
