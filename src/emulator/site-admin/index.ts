/** The site-administration API (docs/apis.md, docs/emulator.md), under `/api/v2/admin`. */
import type { ApiModule } from '../context.ts';
import { JSONAPI_FORM } from '../wire-form.ts';
import { registerDataRetention } from './data-retention.ts';
import { registerOidc } from './oidc.ts';
import { API_PREFIX } from './paths.ts';
import { registerSettingActions } from './setting-actions.ts';
import { general, SETTINGS } from './setting-tables.ts';
import { registerSetting, settingsSlice } from './settings.ts';
import { registerUsers } from './users.ts';
import { POLICY_VERSIONS, registerVersions, TOOL_VERSIONS } from './versions.ts';

export const siteAdmin: ApiModule = {
  name: 'site-admin',
  prefix: API_PREFIX,
  form: JSONAPI_FORM,
  rateLimited: true,
  register(api, ctx) {
    registerUsers(api, ctx);
    for (const setting of SETTINGS) registerSetting(api, ctx, setting);
    registerSettingActions(api, ctx);
    registerVersions(api, ctx, TOOL_VERSIONS);
    registerVersions(api, ctx, POLICY_VERSIONS);
    registerOidc(api, ctx);
    registerDataRetention(api, ctx);

    // the platform's rate limit is a general setting, read on every request so a change applies at once
    const settings = settingsSlice(ctx);
    ctx.rateLimit = () => {
      const values = settings.get(general);
      return values['api-rate-limiting-enabled'] === true ? Number(values['api-rate-limit']) : undefined;
    };
  },
};
