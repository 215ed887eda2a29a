/**
 * packModule is reproducible: the bytes depend only on the files' contents,
 * names and executable bits, never on when, in what order or by whom the
 * files were written. These are the properties the plan's "local content
 * changed" check relies on (src/registry/pack.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { chown, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { contentDigest, packModule } from '../../../src/registry/pack.ts';
import { type FixtureFile, makeModule, NETWORK_MODULE, tempDir, writeModule } from './module-fixture.ts';
import { parseEntries } from './tar-inspect.ts';

const isRoot = process.getuid?.() === 0;

describe('packModule is reproducible', () => {
  it('gives the same bytes twice for the same directory', async () => {
    const dir = await makeModule(NETWORK_MODULE);
    const first = await packModule(dir);
    const second = await packModule(dir);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(second.sha256).toBe(first.sha256);
  });

  it('gives the same bytes for a copy elsewhere with other mtimes and owners', async () => {
    const original = await makeModule(NETWORK_MODULE);
    const copy = await makeModule(NETWORK_MODULE);
    for (const path of Object.keys(NETWORK_MODULE)) {
      await utimes(join(copy, path), new Date('2031-05-06T07:08:09Z'), new Date('2001-02-03T04:05:06Z'));
      if (isRoot) await chown(join(copy, path), 1234, 5678);
    }
    expect((await packModule(copy)).bytes.equals((await packModule(original)).bytes)).toBe(true);
  });

  it('does not depend on the order the files were created in', async () => {
    const entries = Object.entries(NETWORK_MODULE);
    const forwards = await makeModule(Object.fromEntries(entries));
    const backwards = await makeModule(Object.fromEntries(entries.reverse()));
    const packed = await packModule(forwards);
    expect((await packModule(backwards)).bytes.equals(packed.bytes)).toBe(true);
  });

  it('sorts entries by the bytes of their path, not by locale or creation order', async () => {
    const dir = await makeModule({
      'b.tf': '',
      'B.tf': '',
      'a/z.tf': '',
      'a-b.tf': '',
      'a.tf': '',
      'é.txt': '',
      'Z/a.tf': '',
    });
    const packed = await packModule(dir);
    // '-' (0x2d) < '.' (0x2e) < '/' (0x2f) < uppercase < lowercase < UTF-8 multibyte
    const expected = ['B.tf', 'Z/a.tf', 'a-b.tf', 'a.tf', 'a/z.tf', 'b.tf', 'é.txt'];
    expect(packed.files).toEqual(expected);
    expect((await parseEntries(packed.bytes)).map((e) => e.path)).toEqual(expected);
  });

  it('writes fixed header fields: 1980 mtime, uid/gid 0, no owner names, no atime/ctime', async () => {
    const packed = await packModule(await makeModule(NETWORK_MODULE));
    for (const entry of await parseEntries(packed.bytes)) {
      expect(entry).toMatchObject({ type: 'File', uid: 0, gid: 0, uname: '', gname: '' });
      expect(entry.mtime?.toISOString()).toBe('1980-01-01T00:00:00.000Z');
      expect(entry.atime).toBeUndefined();
      expect(entry.ctime).toBeUndefined();
    }
  });

  it('writes a gzip header with mtime 0, no file name, fixed flags and OS byte', async () => {
    const { bytes } = await packModule(await makeModule(NETWORK_MODULE));
    // magic, deflate, FLG 0 (no FNAME/FCOMMENT/FEXTRA/FHCRC), MTIME 0, XFL 0 (level 6), OS 3 (Unix)
    expect([...bytes.subarray(0, 10)]).toEqual([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]);
    expect(gunzipSync(bytes).length % 512).toBe(0);
  });

  it('reports the digest, size and files consistently with the bytes', async () => {
    const dir = await makeModule(NETWORK_MODULE);
    const packed = await packModule(dir);
    expect(packed.sha256).toBe(createHash('sha256').update(packed.bytes).digest('hex'));
    expect(packed.size).toBe(packed.bytes.length);
    expect(packed.files).toEqual([...Object.keys(NETWORK_MODULE)].sort());
    expect(await contentDigest(dir)).toBe(packed.sha256);
  });

  it('changes the digest when a file content or an executable bit changes', async () => {
    const dir = await makeModule(NETWORK_MODULE);
    const before = await contentDigest(dir);
    await writeModule(dir, { 'README.md': '# network, v2\n' });
    const edited = await contentDigest(dir);
    expect(edited).not.toBe(before);
    await writeModule(dir, { 'README.md': { content: '# network, v2\n', mode: 0o755 } });
    expect(await contentDigest(dir)).not.toBe(edited);
  });

  it('packs a 5 MB module of a few hundred files, some large, reproducibly', async () => {
    const files: Record<string, FixtureFile> = { 'main.tf': 'variable "x" {}\n' };
    for (let i = 0; i < 300; i++) {
      const lines = Array.from({ length: 120 }, (_, j) => `resource "null_resource" "r${i}_${j}" {}\n`);
      files[`dir${i % 10}/file${i}.tf`] = lines.join('');
    }
    // incompressible data, so the archive stays large too
    files['blobs/a.bin'] = randomBytes(1536 * 1024);
    files['blobs/b.bin'] = randomBytes(1536 * 1024);
    files['docs/large.txt'] = 'lorem ipsum dolor sit amet '.repeat(40_000);
    const dir = await makeModule(files);
    const copy = await writeModule(await tempDir(), Object.fromEntries(Object.entries(files).reverse()));

    const packed = await packModule(dir);
    const unpacked = gunzipSync(packed.bytes);
    const contentBytes = Object.values(files).reduce<number>(
      (sum, f) => sum + Buffer.byteLength(f as string | Buffer),
      0,
    );
    expect(contentBytes).toBeGreaterThan(5_000_000);
    expect(unpacked.length).toBeGreaterThan(contentBytes);
    expect(packed.files).toHaveLength(304);
    expect(packed.size).toBeGreaterThan(3 * 1024 * 1024);
    expect((await packModule(copy)).bytes.equals(packed.bytes)).toBe(true);
    expect(await contentDigest(dir)).toBe(packed.sha256);
  });
});
