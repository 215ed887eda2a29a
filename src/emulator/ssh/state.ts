/** The SSH engine's objects in one mount, as plain JSON (they are saved with the emulator state). */
import type { Mount } from '../secrets/slice.ts';
import type { SshRole } from './roles.ts';

export interface SshCa {
  privateKey: string;
  publicKey: string;
}

export interface IssuedOtp {
  username: string;
  ip: string;
  role_name: string;
}

export interface SshData {
  roles: Record<string, SshRole>;
  zeroAddress: string[] | null;
  ca: SshCa | null;
  otps: Record<string, IssuedOtp>;
}

export function sshData(mount: Mount): SshData {
  const data = mount.data as Partial<SshData>;
  data.roles ??= {};
  data.zeroAddress ??= null;
  data.ca ??= null;
  data.otps ??= {};
  return data as SshData;
}
