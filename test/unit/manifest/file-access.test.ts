// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * What `${file:}` and `${env:}` may read: confined to the allowed roots after
 * symbolic links, regular files only, bounded, text unless base64 is asked
 * for; never converge's own tokens, and only listed variables when a list is
 * configured.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envRefusal, type FileAccess, readConfined } from '../../../src/manifest/file-access.ts';

let base: string;
let access: FileAccess;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'converge-access-')));
  await mkdir(join(base, 'repo/certs'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'repo/certs/ca.pem'), 'PEM\n');
  await writeFile(join(base, 'outside/secret.txt'), 'do-not-read');
  access = { roots: [join(base, 'repo')], maxBytes: 64 };
});
afterEach(() => rm(base, { recursive: true, force: true }));

const OUTSIDE = /^it is outside the directories \$\{file:\} may read/;

describe('readConfined', () => {
  it('reads a text file inside a root', () => {
    expect(readConfined(join(base, 'repo/certs/ca.pem'), 'text', access)).toEqual({ text: 'PEM\n' });
  });

  it('refuses a path outside every root, as written or after .., without looking at it', () => {
    expect(readConfined(join(base, 'outside/secret.txt'), 'text', access)).toMatchObject({ error: OUTSIDE });
    expect(readConfined(join(base, 'repo/../outside/secret.txt'), 'text', access)).toMatchObject({ error: OUTSIDE });
    expect(readConfined('/etc/shadow', 'text', access)).toMatchObject({ error: OUTSIDE });
    expect(readConfined(join(base, 'outside/no-such-file'), 'text', access)).toMatchObject({ error: OUTSIDE });
  });

  it('refuses a symbolic link inside a root that leads outside it', async () => {
    await symlink(join(base, 'outside/secret.txt'), join(base, 'repo/link.txt'));
    await symlink(join(base, 'outside'), join(base, 'repo/dir-link'));
    expect(readConfined(join(base, 'repo/link.txt'), 'text', access)).toMatchObject({ error: OUTSIDE });
    expect(readConfined(join(base, 'repo/dir-link/secret.txt'), 'text', access)).toMatchObject({ error: OUTSIDE });
  });

  it('reads what a configured root allows', () => {
    const wider = { ...access, roots: [...access.roots, join(base, 'outside')] };
    expect(readConfined(join(base, 'outside/secret.txt'), 'text', wider)).toEqual({ text: 'do-not-read' });
  });

  it('refuses directories, FIFOs and devices', () => {
    expect(readConfined(join(base, 'repo/certs'), 'text', access)).toEqual({ error: 'is a directory' });
    execFileSync('mkfifo', [join(base, 'repo/pipe')]);
    expect(readConfined(join(base, 'repo/pipe'), 'text', access)).toEqual({
      error: 'is not a regular file (a device, FIFO or socket)',
    });
    expect(readConfined('/dev/zero', 'text', { ...access, roots: ['/dev'] })).toEqual({
      error: 'is not a regular file (a device, FIFO or socket)',
    });
  });

  it('refuses a file over the size limit', async () => {
    await writeFile(join(base, 'repo/big.txt'), 'x'.repeat(65));
    expect(readConfined(join(base, 'repo/big.txt'), 'text', access)).toEqual({
      error: 'it holds 65 bytes, more than 64 (interpolation.maxFileBytes)',
    });
  });

  it('refuses binary content as text, and gives it as base64 when asked', async () => {
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff]);
    await writeFile(join(base, 'repo/a.bin'), bytes);
    await writeFile(join(base, 'repo/latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const binary = { error: 'it holds binary content; use ${file.base64:path} where the field takes base64' };
    expect(readConfined(join(base, 'repo/a.bin'), 'text', access)).toEqual(binary);
    expect(readConfined(join(base, 'repo/latin1.txt'), 'text', access)).toEqual(binary);
    expect(readConfined(join(base, 'repo/a.bin'), 'base64', access)).toEqual({ text: bytes.toString('base64') });
  });
});

describe('envRefusal', () => {
  const forbidden = new Set(['CONVERGE_PLATFORM_TOKEN', 'MY_TOKEN_VAR']);

  it("never allows converge's own tokens, whatever the allow-list says", () => {
    expect(envRefusal('CONVERGE_PLATFORM_TOKEN', { forbidden })).toMatch(/never interpolated/);
    expect(envRefusal('MY_TOKEN_VAR', { forbidden, allow: ['MY_*'] })).toMatch(/never interpolated/);
  });

  it('allows any other variable without a list, and only listed names or prefixes with one', () => {
    expect(envRefusal('SMTP_PASSWORD', { forbidden })).toBeUndefined();
    const allow = ['LDAP_*', 'SMTP_PASSWORD'];
    expect(envRefusal('LDAP_BINDPASS', { forbidden, allow })).toBeUndefined();
    expect(envRefusal('SMTP_PASSWORD', { forbidden, allow })).toBeUndefined();
    expect(envRefusal('HOME', { forbidden, allow })).toBe('"HOME" is not in interpolation.env of the configuration');
  });
});
