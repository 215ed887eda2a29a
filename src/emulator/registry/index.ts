/**
 * The registry (docs/emulator.md, "Registry"): module management and module
 * tests under `/api/v2/organizations`, the upload store and capability URLs
 * under `/_archivist`, and the registry protocol with its discovery.
 */
import type { ApiModule } from '../context.ts';
import { JSONAPI_FORM } from '../wire-form.ts';
import { registerModules } from './modules.ts';
import { registrySlice } from './state.ts';
import { registerTests } from './tests-api.ts';

export { deprecatedRegistry } from './deprecated.ts';
export { discovery, registryProtocol } from './protocol.ts';
export { archivist } from './uploads.ts';

export const registryManagement: ApiModule = {
  name: 'registry',
  prefix: '/api/v2/organizations',
  form: JSONAPI_FORM,
  rateLimited: true,
  register(api, ctx) {
    const slice = registrySlice(ctx.state);
    registerModules(api, ctx, slice);
    registerTests(api, ctx, slice);
  },
};
