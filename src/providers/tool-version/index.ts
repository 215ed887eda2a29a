import { jsonApiCollectionProvider } from '../shared/jsonapi-collection.ts';
import { versionFields } from '../shared/version-fields.ts';

/** Tool versions available for runs (spec: site-admin-api, `/admin/tool-versions`). */
export const toolVersion = jsonApiCollectionProvider({
  kind: 'ToolVersion',
  type: 'tool-versions',
  key: 'version',
  ...versionFields,
});
