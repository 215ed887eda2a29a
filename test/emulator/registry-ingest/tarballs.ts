/**
 * Builds module archives for the ingest tests, in memory, with the `tar`
 * package: a fixture directory packed as the registry expects (its contents
 * at the root), or hand-made entries, including hostile ones (`../x`,
 * absolute paths, links) that node-tar's packer would refuse to write from disk.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { create, Header } from 'tar';

export const FIXTURES = fileURLToPath(new URL('../../../examples/modules/', import.meta.url));

/** `examples/modules/<name>` packed from inside the directory, so `main.tf` is at the root. */
export async function fixtureTarball(name: string, prefix = ''): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = create({ gzip: true, cwd: `${FIXTURES}${name}`, portable: true, prefix }, ['.']);
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface RawEntry {
  path: string;
  body?: string | Buffer;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link';
  linkpath?: string;
}

const BLOCK = 512;

/** A tar stream written header by header, so any path can be put in it. */
export function rawTar(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? 'File';
    const body = type === 'File' ? Buffer.from(entry.body ?? '') : Buffer.alloc(0);
    const header = new Header({
      path: entry.path,
      type,
      mode: type === 'Directory' ? 0o755 : 0o644,
      size: body.length,
      mtime: new Date(0),
      ...(entry.linkpath !== undefined && { linkpath: entry.linkpath }),
    });
    const block = Buffer.alloc(BLOCK);
    header.encode(block, 0);
    parts.push(block, body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(2 * BLOCK)); // end of archive
  return Buffer.concat(parts);
}

export const tarball = (entries: RawEntry[]): Buffer => gzipSync(rawTar(entries));

/** A module whose files are given as path → text. */
export const moduleTarball = (files: Record<string, string>): Buffer =>
  tarball(Object.entries(files).map(([path, body]) => ({ path, body })));
