/**
 * Signing and issuing certificates by a `ca` role: the role decides cert
 * type, principals, validity, key id, options and extensions; the
 * certificate itself is built by ./certificate.ts. Issued keys and
 * certificates are answered, never stored.
 */
import type { FastifyRequest } from 'fastify';
import type { SecretsToken } from '../secrets/access.ts';
import { envelope, refused } from '../secrets/envelope.ts';
import { type Body, bodyOf, int, seconds, str, stringMap } from '../secrets/fields.ts';
import type { MountRouter } from '../secrets/routes.ts';
import { type AlgorithmSigner, signCertificate } from './certificate.ts';
import { generateKeyPair, isKeyRequestError, issueKeyRequest, parsePrivateKey, parsePublicKey } from './keys.ts';
import { checkKeyLength, criticalOptionsFor, extensionsFor, keyIdFor, principalsFor } from './principals.ts';
import type { SshRole } from './roles.ts';
import type { SshData } from './state.ts';

/** The service's own ceiling when a role sets no `max_ttl` (its system maximum lease TTL). */
export const SYSTEM_MAX_TTL = 768 * 3600;

export function registerSigning(router: MountRouter, data: SshData): void {
  // signing needs both create and update on the path (the spec's rule 2)
  router.on('POST', 'sign/:name', ['create', 'update'], (request, token) => {
    const body = bodyOf(request.body);
    const publicKey = str(body, 'public_key');
    if (publicKey.trim() === '') throw refused('missing public_key');
    const { role, name } = caRole(request, data);
    const signed = certify(role, name, body, publicKey, data, token, false, router.ctx.now);
    return envelope({ serial_number: signed.serialHex, signed_key: signed.signedKey });
  });

  router.on('POST', 'issue/:name', ['create', 'update'], (request, token) => {
    const body = bodyOf(request.body);
    const { role, name } = caRole(request, data);
    const wanted = issueKeyRequest(str(body, 'key_type') || undefined, int(body, 'key_bits'));
    if (isKeyRequestError(wanted)) throw refused(wanted.error);
    const pair = generateKeyPair(wanted.type, wanted.bits);
    const signed = certify(role, name, body, pair.publicKey, data, token, true, router.ctx.now);
    return envelope({
      serial_number: signed.serialHex,
      signed_key: signed.signedKey,
      private_key: pair.privateKey,
      private_key_type: wanted.type,
    });
  });
}

function caRole(request: FastifyRequest, data: SshData): { role: SshRole; name: string } {
  const name = (request.params as { name: string }).name;
  const role = data.roles[name];
  if (!role) throw refused(`Unknown role: ${name}`);
  if (role.key_type !== 'ca')
    throw refused(`role key type "${role.key_type}" is not allowed to sign or issue certificates`);
  return { role, name };
}

function certify(
  role: SshRole,
  name: string,
  body: Body,
  publicKeyText: string,
  data: SshData,
  token: SecretsToken | undefined,
  issuing: boolean,
  /** The emulator's clock (EmulatorOptions.now), as leases and rotations read it. */
  clock: () => number,
) {
  if (!data.ca) throw refused('backend not configured with a CA key pair');
  const key = parsePublicKey(publicKeyText);
  if (isKeyRequestError(key)) throw refused(`failed to parse public_key as SSH key: ${key.error}`);
  checkKeyLength(role, key);
  const certType = str(body, 'cert_type', 'user');
  // the service's own messages, single quotes included (clients match on them)
  if (certType !== 'user' && certType !== 'host') throw refused("cert_type must be either 'user' or 'host'");
  if (certType === 'user' && !role.allow_user_certificates) throw refused("cert_type 'user' is not allowed by role");
  if (certType === 'host' && !role.allow_host_certificates) throw refused("cert_type 'host' is not allowed by role");

  const caller = { displayName: token?.displayName ?? '' };
  const requested =
    body.valid_principals === undefined || body.valid_principals === null ? undefined : str(body, 'valid_principals');
  const principals = principalsFor(role, certType, requested, caller, issuing);
  const ttl = validity(role, seconds(body, 'ttl'));
  const signer = signerFor(role, data.ca.privateKey);
  const now = Math.floor(clock() / 1000);
  return signCertificate({
    caPrivateKey: data.ca.privateKey,
    subjectPublicKey: publicKeyText,
    certType,
    keyId: keyIdFor(role, name, str(body, 'key_id'), caller, key.fingerprintSha256),
    principals,
    validAfter: now - role.not_before_duration,
    validBefore: now + ttl,
    criticalOptions: criticalOptionsFor(role, stringMap(body, 'critical_options')),
    extensions: certType === 'user' ? extensionsFor(role, stringMap(body, 'extensions'), caller) : {},
    algorithmSigner: signer,
  });
}

/** The certificate's lifetime: asked, else the role's `ttl`, else the maximum; never above `max_ttl`. */
function validity(role: SshRole, asked: number): number {
  const max = role.max_ttl || SYSTEM_MAX_TTL;
  if (asked > max) throw refused(`ttl is larger than maximum allowed ${max}`);
  return asked || Math.min(role.ttl || max, max);
}

function signerFor(role: SshRole, caPrivateKey: string): AlgorithmSigner {
  const signer = role.algorithm_signer as AlgorithmSigner;
  if (signer === '' || signer === 'default') return signer;
  const ca = parsePrivateKey(caPrivateKey);
  if (!isKeyRequestError(ca) && ca.type !== 'rsa') {
    throw refused(`algorithm_signer "${signer}" is not compatible with a ${ca.type} CA key; use "default"`);
  }
  return signer;
}
