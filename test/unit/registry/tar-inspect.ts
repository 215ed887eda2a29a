/**
 * Reads back what the packing tests produced, with node-tar's parser (header
 * fields as a reader sees them) and GNU tar (what an operator sees), so the
 * tests check the archive, not the code that wrote it.
 */
import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';

export interface ParsedEntry {
  path: string;
  type: string;
  mode: number | undefined;
  uid: number | undefined;
  gid: number | undefined;
  uname: string | undefined;
  gname: string | undefined;
  mtime: Date | undefined;
  atime: Date | undefined;
  ctime: Date | undefined;
  content: Buffer;
}

export async function parseEntries(gzipped: Buffer): Promise<ParsedEntry[]> {
  const entries: ParsedEntry[] = [];
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        const h = entry.header;
        entries.push({
          path: entry.path,
          type: entry.type,
          mode: h.mode,
          uid: h.uid,
          gid: h.gid,
          uname: h.uname,
          gname: h.gname,
          mtime: h.mtime,
          atime: h.atime,
          ctime: h.ctime,
          content: Buffer.concat(chunks),
        });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('end', () => resolve());
    parser.end(gzipped);
  });
  return entries;
}

/** The typeflag of every header block in the uncompressed tar, pax headers included. */
export function rawTypeflags(gzipped: Buffer): string[] {
  const tar = gunzipSync(gzipped);
  const flags: string[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length && tar[offset] !== 0) {
    const size = Number.parseInt(
      tar
        .subarray(offset + 124, offset + 136)
        .toString('ascii')
        .replace(/\0.*/, ''),
      8,
    );
    flags.push(String.fromCharCode(tar[offset + 156]!));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return flags;
}

export function gnuTar(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('tar', args, { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
