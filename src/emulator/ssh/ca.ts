/**
 * The SSH engine's certificate authority: generated (200 with the public
 * key) or imported (204), replaced by a new submission, deleted, and its
 * public key served as plain text without authentication.
 */
import { envelope, missing, noContent, refused } from '../secrets/envelope.ts';
import { type Body, bodyOf, bool, int, str } from '../secrets/fields.ts';
import type { MountRouter } from '../secrets/routes.ts';
import { caKeyRequest, generateKeyPair, isKeyRequestError, keysMatch, parsePublicKey } from './keys.ts';
import type { SshCa, SshData } from './state.ts';

export function registerCa(router: MountRouter, data: SshData): void {
  router.on('POST', 'config/ca', ['update'], (request) => {
    const body = bodyOf(request.body);
    const { ca, generated } = caFromBody(body);
    data.ca = ca;
    return generated ? envelope({ public_key: ca.publicKey }) : noContent();
  });
  router.on('GET', 'config/ca', ['read'], () => {
    if (!data.ca) throw missing();
    return envelope({ public_key: data.ca.publicKey });
  });
  router.on('DELETE', 'config/ca', ['delete'], () => {
    data.ca = null;
    return noContent();
  });
  router.on('GET', 'public_key', 'unauthenticated', () => {
    if (!data.ca) throw missing();
    return { status: 200, text: `${data.ca.publicKey}\n` };
  });
}

function caFromBody(body: Body): { ca: SshCa; generated: boolean } {
  if (str(body, 'managed_key_name') !== '' || str(body, 'managed_key_id') !== '') {
    throw refused('managed keys are a commercial feature this service does not have');
  }
  const privateKey = str(body, 'private_key').trim();
  const publicKey = str(body, 'public_key').trim();
  const given = privateKey !== '' || publicKey !== '';
  const generate = bool(body, 'generate_signing_key', !given);
  if (generate) {
    if (given) throw refused('public_key and private_key must not be set when generate_signing_key is true');
    const wanted = caKeyRequest(str(body, 'key_type') || undefined, int(body, 'key_bits'));
    if (isKeyRequestError(wanted)) throw refused(wanted.error);
    const pair = generateKeyPair(wanted.type, wanted.bits);
    return { ca: { privateKey: pair.privateKey, publicKey: pair.publicKey }, generated: true };
  }
  if (publicKey === '') throw refused('missing public_key');
  if (privateKey === '') throw refused('missing private_key');
  const parsed = parsePublicKey(publicKey);
  if (isKeyRequestError(parsed)) throw refused(parsed.error);
  if (!keysMatch(privateKey, publicKey)) throw refused('public_key does not match private_key');
  return {
    ca: { privateKey, publicKey: `${parsed.sshType} ${parsed.key.toBuffer('rfc4253').toString('base64')}` },
    generated: false,
  };
}
