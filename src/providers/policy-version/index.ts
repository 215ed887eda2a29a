import { jsonApiCollectionProvider } from '../shared/jsonapi-collection.ts';
import { versionFields } from '../shared/version-fields.ts';

/** Policy-engine versions available for runs (spec: site-admin-api, `/admin/policy-versions`). */
export const policyVersion = jsonApiCollectionProvider({
  kind: 'PolicyVersion',
  type: 'policy-versions',
  key: 'version',
  ...versionFields,
});
