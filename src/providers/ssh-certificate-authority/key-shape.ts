/**
 * A CA key's type and size in one canonical form, `key_type` `rsa`, `ec` or
 * `ed25519` and `key_bits` (0 for ed25519, which has one size), so that what
 * a manifest asks the service to generate compares with the live public key:
 * `ssh-rsa` with 0 bits is RSA 4096 and `ecdsa-sha2-nistp384` is EC 384, as
 * the service reads them (docs/kinds.md, SSHCertificateAuthority).
 */
import type SshPk from 'sshpk';
import type { Fields, Json } from '../../reconcile/types.ts';
import { sshpk } from './keys.ts';

const DEFAULT_BITS: Record<string, number> = { rsa: 4096, ec: 256, ed25519: 0 };
const ALGORITHMS: Record<string, string> = { 'ssh-rsa': 'rsa', 'ssh-ed25519': 'ed25519' };
const CURVES: Record<string, number> = {
  'ecdsa-sha2-nistp256': 256,
  'ecdsa-sha2-nistp384': 384,
  'ecdsa-sha2-nistp521': 521,
};

/**
 * The table's rule across fields: the key a spec asks the service to generate, in the canonical
 * form; on the live side (which has no generate_signing_key: the service does not say how its key
 * came to be), the type and size read from the public key.
 */
export function keyShape(fields: Fields): Fields {
  if (fields.generate_signing_key === true) return requestedShape(fields);
  return fields.generate_signing_key === undefined ? withLiveShape(fields) : fields;
}

/** Fields whose generated key type and size (the defaults applied) are in the canonical form. */
function requestedShape(fields: Fields): Fields {
  const written = String(fields.key_type);
  const curve = CURVES[written];
  if (curve !== undefined) return { ...fields, key_type: 'ec', key_bits: curve };
  const type = ALGORITHMS[written] ?? written;
  const bits = typeof fields.key_bits === 'number' && fields.key_bits !== 0 ? fields.key_bits : DEFAULT_BITS[type];
  return { ...fields, key_type: type, key_bits: type === 'ed25519' ? 0 : (bits ?? null) };
}

/** Live fields with the type and size of their public key added, when it can be read. */
function withLiveShape(fields: Fields): Fields {
  const shape = typeof fields.public_key === 'string' ? liveShape(fields.public_key) : undefined;
  return shape ? { ...fields, ...shape } : fields;
}

type Shape = { key_type: Json; key_bits: Json } | undefined;

/** The last key read and its shape: canonicalLive runs several times per CA in one run, on the same key. */
let last: { publicKey: string; shape: Shape } | undefined;

function liveShape(publicKey: string): Shape {
  if (last?.publicKey !== publicKey) last = { publicKey, shape: readShape(publicKey) };
  return last.shape;
}

function readShape(publicKey: string): Shape {
  let key: SshPk.Key;
  try {
    key = sshpk().parseKey(publicKey, 'ssh');
  } catch {
    return undefined; // not a key sshpk reads: compared by the public key alone
  }
  if (key.type === 'ecdsa') return { key_type: 'ec', key_bits: key.size };
  if (key.type === 'ed25519') return { key_type: 'ed25519', key_bits: 0 };
  return { key_type: key.type, key_bits: key.size };
}
