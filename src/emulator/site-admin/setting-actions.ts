/**
 * The settings endpoints that are not GET/PATCH of the document: revoking
 * the old SAML certificate and sending a test SMS.
 */
import type { FastifyInstance } from 'fastify';
import { isPlainObject } from '../../reconcile/equal.ts';
import { requireAdmin } from '../auth.ts';
import { type EmulatorContext, route } from '../context.ts';
import { badRequest, requestAttributes } from '../jsonapi.ts';
import { present } from '../validate.ts';
import { ADMIN } from './paths.ts';
import { saml, sms } from './setting-tables.ts';
import { settingDocument, settingsSlice } from './settings.ts';

export function registerSettingActions(api: FastifyInstance, ctx: EmulatorContext): void {
  const slice = settingsSlice(ctx);

  // status not given by the spec: 200 with the document, as the spec says the document is returned
  route(api, 'POST', `${ADMIN}/saml-settings/actions/revoke-old-certificate`, (request) => {
    requireAdmin(ctx.state, request);
    const next = { ...slice.get(saml), 'old-idp-cert': null };
    slice.set(saml, next);
    return { status: 200, body: settingDocument(ctx, saml, next) };
  });

  // the platform documents POST; go-tfe sends PATCH: both are served
  route(api, ['POST', 'PATCH'], `${ADMIN}/sms-settings/verify`, (request) => {
    requireAdmin(ctx.state, request);
    const attributes = isPlainObject(request.body) ? requestAttributes(request.body) : {};
    const number = attributes['test-number'];
    if (!present(number) || typeof number !== 'string') throw badRequest('a test number is required');
    const settings = slice.get(sms);
    if (settings.enabled !== true) throw badRequest('SMS is not enabled');
    return { status: 200 };
  });
}
