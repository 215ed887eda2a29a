/**
 * The SSH role's field table (docs/kinds.md, SSHRole): each parameter with
 * the default the API applies and the key type it belongs to. The API reads
 * back only the fields of a role's key type, so the others are never
 * compared, and a manifest that sets one gets a plan note.
 */
import type { Fields } from '../../reconcile/types.ts';
import type { FieldRule, FieldsConfig } from '../shared/fields.ts';
import * as normalize from '../shared/normalize.ts';
import { commaSet, flag, integer, seconds, stringMap, text } from '../shared/rules.ts';

const ca = (fields: Fields) => fields.key_type === 'ca';
const otp = (fields: Fields) => fields.key_type === 'otp';
const forCa = (rule: FieldRule): FieldRule => ({ ...rule, appliesWhen: ca });
const forOtp = (rule: FieldRule): FieldRule => ({ ...rule, appliesWhen: otp });

export const SSH_ROLE_FIELDS: FieldsConfig = {
  fields: {
    key_type: { normalize: normalize.lowerCase },
    default_user: text(''),
    allowed_users: commaSet(),
    cidr_list: forOtp(commaSet()),
    exclude_cidr_list: forOtp(commaSet()),
    port: forOtp(integer(22)),
    default_user_template: forCa(flag(false)),
    allowed_users_template: forCa(flag(false)),
    allowed_domains: forCa(commaSet()),
    allowed_domains_template: forCa(flag(false)),
    ttl: forCa(seconds(0)),
    max_ttl: forCa(seconds(0)),
    allowed_critical_options: forCa(commaSet()),
    allowed_extensions: forCa(commaSet()),
    default_critical_options: forCa(stringMap()),
    default_extensions: forCa(stringMap()),
    default_extensions_template: forCa(flag(false)),
    allow_user_certificates: forCa(flag(false)),
    allow_host_certificates: forCa(flag(false)),
    allow_bare_domains: forCa(flag(false)),
    allow_subdomains: forCa(flag(false)),
    allow_user_key_ids: forCa(flag(false)),
    key_id_format: forCa(text('')),
    allowed_user_key_lengths: forCa({ default: {}, normalize: normalize.sizesByType }),
    allow_empty_principals: forCa(flag(false)),
    algorithm_signer: forCa({ default: 'default', normalize: normalize.emptyAs('default') }),
    not_before_duration: forCa(seconds(30)),
  },
};
