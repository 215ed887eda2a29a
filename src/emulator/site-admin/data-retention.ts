/**
 * The global data retention policy (the site-admin API; docs/apis.md). The spec leaves
 * the payloads and statuses open; the emulator's choices (documented in
 * docs/emulator.md):
 * - GET: 200 with `data: null` when no policy is set (a 404 would read as
 *   "not an administrator");
 * - POST: create (201) or replace (200) the policy; the only type is
 *   `data-retention-policy-delete-olders` with `delete-older-than-n-days` >= 1;
 * - DELETE: 204, also when no policy was set (the wanted state holds).
 */
import type { FastifyInstance } from 'fastify';
import { isPlainObject } from '../../reconcile/equal.ts';
import { requireAdmin } from '../auth.ts';
import { type EmulatorContext, route } from '../context.ts';
import { newId } from '../ids.ts';
import { type Attributes, document, invalid, type Problem, requestAttributes, unprocessable } from '../jsonapi.ts';
import type { Slice } from '../state.ts';
import { ADMIN, API_PREFIX } from './paths.ts';

const POLICY_TYPE = 'data-retention-policy-delete-olders';
const PATH = `${ADMIN}/data-retention-policy-settings`;

interface Policy {
  id: string;
  attributes: Attributes;
}

class RetentionSlice implements Slice {
  policy: Policy | null;

  constructor(saved: unknown) {
    const s = saved as Partial<Policy> | null | undefined;
    this.policy = typeof s?.id === 'string' && isPlainObject(s.attributes) ? (s as Policy) : null;
  }

  save(): unknown {
    return this.policy;
  }
}

export function registerDataRetention(api: FastifyInstance, ctx: EmulatorContext): void {
  const slice = ctx.state.slice('data-retention', (saved) => new RetentionSlice(saved));
  const resource = (policy: Policy | null) =>
    policy && {
      id: policy.id,
      type: POLICY_TYPE,
      attributes: policy.attributes,
      links: { self: `${API_PREFIX}${PATH}` },
    };

  route(api, 'GET', PATH, (request) => {
    requireAdmin(ctx.state, request);
    return { status: 200, body: document(resource(slice.policy)) };
  });

  route(api, 'POST', PATH, (request) => {
    requireAdmin(ctx.state, request);
    const body = request.body;
    const type = isPlainObject(body) && isPlainObject(body.data) ? body.data.type : undefined;
    if (type !== POLICY_TYPE) throw unprocessable(`the only supported policy type is ${POLICY_TYPE}`);
    const attributes = requestAttributes(body);
    const problems: Problem[] = [];
    for (const attribute of Object.keys(attributes)) {
      if (attribute !== 'delete-older-than-n-days') problems.push({ attribute, message: 'is not a known attribute' });
    }
    const days = attributes['delete-older-than-n-days'];
    if (!Number.isInteger(days) || (days as number) < 1) {
      problems.push({
        attribute: 'delete-older-than-n-days',
        message: 'must be an integer greater than or equal to 1',
      });
    }
    if (problems.length > 0) throw invalid(problems);
    const created = slice.policy === null;
    slice.policy = { id: slice.policy?.id ?? newId('drp'), attributes: { 'delete-older-than-n-days': days as number } };
    return { status: created ? 201 : 200, body: document(resource(slice.policy)) };
  });

  route(api, 'DELETE', PATH, (request) => {
    requireAdmin(ctx.state, request);
    slice.policy = null;
    return { status: 204 };
  });
}
