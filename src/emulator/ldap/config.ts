/**
 * The LDAP engine's configuration: written by POST (a new one from its
 * defaults, an existing one updated with the fields sent), read back without
 * `bindpass`, and the connection to the directory it names. Validation
 * failures are plain errors in the real engine, hence 500 with the
 * service's wrapped text (docs/apis.md).
 */
import { randomInt } from 'node:crypto';
import { failed, refused } from '../secrets/envelope.ts';
import { type Body, bool, int, seconds, str } from '../secrets/fields.ts';
import type { LdapConfig } from './state.ts';

const SCHEMAS = ['openldap', 'ad', 'racf'];
const USER_ATTR: Record<string, string> = { openldap: 'cn', ad: 'userPrincipalName', racf: 'racfid' };

/** Fields of the config with their defaults, as the engine reads them back (wire form). */
const DEFAULTS: LdapConfig = {
  url: 'ldap://127.0.0.1',
  binddn: '',
  userdn: '',
  groupdn: '',
  groupfilter: '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))',
  groupattr: 'cn',
  upndomain: '',
  userfilter: '({{.UserAttr}}={{.Username}})',
  userattr: '',
  certificate: '',
  client_tls_cert: '',
  client_tls_key: '',
  insecure_tls: false,
  starttls: false,
  deny_null_bind: true,
  discoverdn: false,
  tls_min_version: 'tls12',
  tls_max_version: 'tls12',
  use_token_groups: false,
  anonymous_group_search: false,
  request_timeout: 90,
  connection_timeout: 30,
  username_as_alias: false,
  dereference_aliases: 'never',
  max_page_size: 0,
  enable_samaccountname_login: false,
  schema: 'openldap',
  credential_type: 'password',
  skip_static_role_import_rotation: false,
  password_policy: '',
  length: 0,
  rotation_period: 0,
  rotation_window: 0,
  rotation_schedule: '',
  rotation_policy: '',
  disable_automated_rotation: false,
};

const DURATIONS = ['request_timeout', 'connection_timeout', 'rotation_period', 'rotation_window'];
const INTEGERS = ['max_page_size', 'length'];

/** The configuration a POST leaves: `existing` updated with what `body` sends, or a new one. */
export function configFromBody(body: Body, existing: LdapConfig | null): LdapConfig {
  const config: LdapConfig = { ...DEFAULTS, bindpass: '', ...existing };
  for (const field of Object.keys(body)) {
    if (body[field] === undefined) continue;
    if (!(field in config) && field !== 'bindpass') continue; // the service ignores parameters it does not know
    if (field === 'last_bind_password_rotation') continue; // the engine's own record, not a parameter
    const fallback = config[field];
    if (DURATIONS.includes(field)) config[field] = seconds(body, field);
    else if (INTEGERS.includes(field)) config[field] = int(body, field);
    else if (typeof fallback === 'boolean') config[field] = bool(body, field);
    else config[field] = str(body, field);
  }
  if (body.password_policy !== undefined && body.length !== undefined && config.password_policy && config.length) {
    throw failed("cannot set both 'password_policy' and 'length'");
  }
  if (config.password_policy && Number(config.length) > 0)
    throw failed("cannot set both 'password_policy' and 'length'");
  const schema = String(config.schema || 'openldap').toLowerCase();
  if (!SCHEMAS.includes(schema)) throw failed(`configured schema ${schema} not valid`);
  config.schema = schema;
  if (String(config.url).trim() === '') throw failed('at least one url must be provided');
  if (!config.binddn) throw refused('missing binddn');
  if (!config.bindpass) throw refused('missing bindpass');
  checkRotation(config);
  return config;
}

/** The commercial root-rotation parameters: their errors are 400s in the real engine. */
function checkRotation(config: LdapConfig): void {
  const period = Number(config.rotation_period);
  if (period > 0 && period < 10) throw refused('rotation_period must be at least 10 seconds');
  if (period > 0 && config.rotation_schedule)
    throw refused('mutually exclusive fields rotation_period and rotation_schedule were both specified');
  const window = Number(config.rotation_window);
  if (window > 0 && !config.rotation_schedule) throw refused('rotation_window does not apply to period-based rotation');
  if (window > 0 && window < 3600) throw refused('rotation_window must be 3600 seconds or more');
  if (config.rotation_schedule && String(config.rotation_schedule).trim().split(/\s+/).length !== 5) {
    throw refused('rotation_schedule must be a cron-style schedule of five fields');
  }
}

/** What a read answers: no `bindpass`, fields shown only when set where the engine does so. */
export function readBack(config: LdapConfig): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [field, value] of Object.entries(config)) {
    // secrets are never read back: the password and the client certificate's key (and, as the engine does, its certificate)
    if (field === 'bindpass' || field === 'client_tls_key' || field === 'client_tls_cert') continue;
    if (field === 'password_policy' && !value) continue;
    if (field === 'length' && !(Number(value) > 0)) continue;
    if (field === 'last_bind_password_rotation' && !value) continue;
    out[field] = value;
  }
  out.userattr = config.userattr || (USER_ATTR[String(config.schema)] ?? 'cn');
  return out;
}

export function userAttribute(config: LdapConfig): string {
  return String(config.userattr || USER_ATTR[String(config.schema)] || 'cn');
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new password: `length` characters (64 by default); a password policy is named, not emulated: the default rule applies. */
export function newPassword(config: LdapConfig | null): string {
  const length = Number(config?.length) > 0 ? Number(config?.length) : 64;
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
