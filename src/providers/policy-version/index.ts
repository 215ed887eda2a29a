import { jsonApiCollectionProvider } from '../shared/jsonapi-collection.ts';
import { ADMIN_PATH } from '../shared/platform.ts';
import { versionFields } from '../shared/version-fields.ts';

/** Policy-engine versions available for runs (the site-admin API, `/admin/policy-versions`; docs/apis.md). */
export const policyVersion = jsonApiCollectionProvider({
  kind: 'PolicyVersion',
  type: 'policy-versions',
  path: () => `${ADMIN_PATH}/policy-versions`,
  key: 'version',
  filterByKey: true,
  ...versionFields,
});
