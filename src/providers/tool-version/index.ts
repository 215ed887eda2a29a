import { jsonApiCollectionProvider } from '../shared/jsonapi-collection.ts';
import { ADMIN_PATH } from '../shared/platform.ts';
import { versionFields } from '../shared/version-fields.ts';

/** Tool versions available for runs (the site-admin API, `/admin/tool-versions`; docs/apis.md). */
export const toolVersion = jsonApiCollectionProvider({
  kind: 'ToolVersion',
  type: 'tool-versions',
  path: () => `${ADMIN_PATH}/tool-versions`,
  key: 'version',
  filterByKey: true,
  ...versionFields,
});
