/** CIDR blocks of OTP roles: checked when a role is written, matched when an OTP is asked for an address. */
import { BlockList, isIP } from 'node:net';

export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText, extra] = text.trim().split('/');
  if (address === undefined || prefixText === undefined || extra !== undefined || !/^\d+$/.test(prefixText))
    return undefined;
  const version = isIP(address);
  const prefix = Number(prefixText);
  if (version === 0 || prefix > (version === 4 ? 32 : 128)) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Every block of a comma-separated list, or undefined when one of them is not a CIDR block. */
export function parseCidrList(text: string): Cidr[] | undefined {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const blocks = parts.map(parseCidr);
  return blocks.every((b) => b !== undefined) ? (blocks as Cidr[]) : undefined;
}

export function contains(blocks: readonly Cidr[], ip: string): boolean {
  const version = isIP(ip);
  if (version === 0 || blocks.length === 0) return false;
  const list = new BlockList();
  for (const block of blocks) list.addSubnet(block.address, block.prefix, block.family);
  return list.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}
