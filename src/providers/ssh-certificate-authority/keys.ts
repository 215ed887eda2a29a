/**
 * An SSH CA's keys read with sshpk: the given key pair checked offline before
 * anything is sent (an encrypted private key, or a public key that is not the
 * private key's, would otherwise pass validate and plan and fail only at
 * apply), and the loader key-shape.ts shares. Messages never quote a key, only
 * fingerprints of public keys.
 */
import { createRequire } from 'node:module';
import type SshPk from 'sshpk';

let loaded: typeof SshPk | undefined;

/**
 * sshpk takes a quarter of a second to load: it is loaded on the first CA whose keys are checked
 * or compared, not by every command that loads the providers.
 */
export function sshpk(): typeof SshPk {
  loaded ??= createRequire(import.meta.url)('sshpk') as typeof SshPk;
  return loaded;
}

export interface KeyPairProblem {
  field: 'private_key' | 'public_key';
  message: string;
}

export function keyPairProblem(privateKey: string, publicKey: string): KeyPairProblem | undefined {
  const lib = sshpk();
  let key: SshPk.PrivateKey;
  try {
    key = lib.parsePrivateKey(privateKey, 'auto');
  } catch (error) {
    if ((error as Error).name === 'KeyEncryptedError') {
      return {
        field: 'private_key',
        message:
          'private_key is encrypted (has a passphrase): the service takes it unencrypted (ssh-keygen -p -N "" -f KEY writes a copy without one)',
      };
    }
    // not a key at all: the placeholder of an exported CA whose key nobody has (a generated one); it
    // is never sent unless the CA is created or replaced, and the service then says what it is
    return undefined;
  }
  let given: SshPk.Key;
  try {
    given = lib.parseKey(publicKey, 'ssh');
  } catch {
    return { field: 'public_key', message: 'public_key is not an SSH public key line ("ssh-ed25519 AAAA...")' };
  }
  const expected = key.toPublic().fingerprint('sha256').toString();
  const actual = given.fingerprint('sha256').toString();
  if (expected === actual) return undefined;
  return {
    field: 'public_key',
    message: `public_key is not private_key's public key (${actual}; private_key's is ${expected})`,
  };
}
