/**
 * The fields tool versions and policy-engine versions share (the site-admin
 * API; docs/apis.md). `version` is the identity (metadata.name); `usage` and
 * `created-at` are read-only and so not managed.
 */
import type { Fields } from '../../reconcile/types.ts';
import type { FieldsConfig } from './fields.ts';
import { checksum, flag, optionalText, text } from './rules.ts';

export const versionFields: FieldsConfig = {
  fields: {
    url: text(),
    sha: checksum(),
    deprecated: flag(false),
    'deprecated-reason': optionalText(null),
    official: flag(false),
    enabled: flag(true),
    beta: flag(false),
  },
  finish: deprecatedReasonOnlyWhenDeprecated,
  // it sets deprecated-reason whenever either field is there, by key
  finishByKeys: true,
};

/** A reason is null unless the version is deprecated (the API clears it too). */
function deprecatedReasonOnlyWhenDeprecated(fields: Fields): Fields {
  if (!('deprecated' in fields) && !('deprecated-reason' in fields)) return fields;
  const reason = fields.deprecated === true ? (fields['deprecated-reason'] ?? null) : null;
  return { ...fields, 'deprecated-reason': reason };
}
