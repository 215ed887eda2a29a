/** The APIs the emulator serves, one line each; each registers its routes under its own prefix. */
import type { ApiModule } from './context.ts';
import { archivist, deprecatedRegistry, discovery, registryManagement, registryProtocol } from './registry/index.ts';
import { secrets } from './secrets/index.ts';
import { siteAdmin } from './site-admin/index.ts';

export const API_MODULES: readonly ApiModule[] = [
  siteAdmin,
  registryManagement,
  deprecatedRegistry,
  archivist,
  registryProtocol,
  discovery,
  secrets,
];
