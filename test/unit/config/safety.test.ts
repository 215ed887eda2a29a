/**
 * What the configuration refuses (docs/security.md, "Configuration"): code
 * that would run while loading unless the user opts in, a server URL from the
 * environment without http(s), a token with a line break inside; and the
 * interpolation keys it accepts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('config-safety');
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const RAN = join(tmpdir(), `converge-code-config-ran-${process.pid}`);
const CODE = `require('node:fs').writeFileSync(${JSON.stringify(RAN)}, 'ran'); module.exports = { parallelism: 3 };`;

describe('a configuration written as code', () => {
  it.each(['converge.config.js', '.convergerc.js', 'converge.config.cjs'])(
    'is refused, without running, when found as %s without opt-in',
    async (name) => {
      const cwd = await dirWith({ [name]: CODE });
      const error = (await loadConfig({ cwd, env: {} }).catch((e: unknown) => e)) as Error & { hint?: string };
      expect(error.message).toContain('a configuration written as code runs when loaded');
      expect(error.hint).toContain('--allow-code-config');
      await expect(import('node:fs').then((fs) => fs.existsSync(RAN))).resolves.toBe(false);
    },
  );

  it('is refused when named with --config, too', async () => {
    const cwd = await dirWith({ 'mine.cjs': CODE });
    await expect(loadConfig({ cwd, env: {}, file: 'mine.cjs' })).rejects.toThrow(/written as code/);
  });

  it('runs with --allow-code-config or CONVERGE_ALLOW_CODE_CONFIG=1', async () => {
    const cwd = await dirWith({ 'converge.config.cjs': 'module.exports = { parallelism: 3 };' });
    expect((await loadConfig({ cwd, env: {}, allowCode: true })).parallelism).toBe(3);
    expect((await loadConfig({ cwd, env: { CONVERGE_ALLOW_CODE_CONFIG: '1' } })).parallelism).toBe(3);
  });

  it('leaves YAML and JSON configurations alone', async () => {
    const cwd = await dirWith({ 'converge.config.yaml': 'parallelism: 5\n' });
    expect((await loadConfig({ cwd, env: {} })).parallelism).toBe(5);
  });
});

describe('connections from the environment', () => {
  it.each([
    ['127.0.0.1:8080', 'without a scheme'],
    ['ftp://tfe.example.com', 'with another scheme'],
    ['javascript:alert(1)', 'javascript'],
  ])('refuse a server URL %s (%s) with one line naming the variable', async (url) => {
    const cwd = await dirWith({});
    await expect(loadConfig({ cwd, env: { CONVERGE_PLATFORM_URL: url } })).rejects.toThrow(
      `CONVERGE_PLATFORM_URL must be an http:// or https:// URL (got "${url}")`,
    );
  });

  it.each(['http://', 'http://[bad'])(
    'and from the file: refuse %s, which passes the schema but no client could send to, naming the file',
    async (url) => {
      const cwd = await dirWith({ 'converge.config.yaml': `platform: {url: "${url}"}\n` });
      await expect(loadConfig({ cwd, env: {} })).rejects.toThrow(
        `platform.url in ${join(cwd, 'converge.config.yaml')} must be an http:// or https:// URL (got "${url}")`,
      );
    },
  );

  it('never show the user and password of a URL they refuse', async () => {
    const cwd = await dirWith({ 'converge.config.yaml': 'platform: {url: "http://SEKRITu:SEKRITp@[bad"}\n' });
    const error = (await loadConfig({ cwd, env: {} }).catch((e: Error) => e)) as Error;
    expect(error.message).toContain('(got "http://***@[bad")');
    const fromEnv = (await loadConfig({ cwd, env: { CONVERGE_PLATFORM_URL: 'http://u:SEKRITp@[x' } }).catch(
      (e: Error) => e,
    )) as Error;
    expect(`${error.message}${fromEnv.message}`).not.toContain('SEKRIT');
  });

  it('name the file -c gives when it cannot be read', async () => {
    const cwd = await dirWith({});
    await mkdir(join(cwd, 'sub'));
    await expect(loadConfig({ cwd, env: {}, file: 'sub' })).rejects.toThrow(
      `configuration ${join(cwd, 'sub')} cannot be read: EISDIR`,
    );
  });

  it('drop a trailing line end from a token, and refuse one with a line break inside', async () => {
    const cwd = await dirWith({});
    const env = { CONVERGE_PLATFORM_URL: 'https://tfe.example.com' };
    const trailing = await loadConfig({ cwd, env: { ...env, CONVERGE_PLATFORM_TOKEN: 'abc\r\n' } });
    expect(trailing.platform?.token).toBe('abc');
    await expect(loadConfig({ cwd, env: { ...env, CONVERGE_PLATFORM_TOKEN: 'ab\nc' } })).rejects.toThrow(
      'CONVERGE_PLATFORM_TOKEN holds a line break inside the token',
    );
  });
});

describe('interpolation settings', () => {
  it('resolve file roots against the configuration file, and keep the env allow-list', async () => {
    const cwd = await dirWith({
      'converge.config.yaml':
        'interpolation: {fileRoots: [../shared-certs], env: [LDAP_*, SMTP_PASSWORD], maxFileBytes: 4096}\n',
    });
    const config = await loadConfig({ cwd, env: {} });
    expect(config.interpolation).toEqual({
      fileRoots: [join(cwd, '../shared-certs')],
      env: ['LDAP_*', 'SMTP_PASSWORD'],
      maxFileBytes: 4096,
    });
  });

  it('refuse an env entry that is not a variable name or prefix', async () => {
    const cwd = await dirWith({ 'converge.config.yaml': 'interpolation: {env: ["$(id)"]}\n' });
    await expect(loadConfig({ cwd, env: {} })).rejects.toThrow(/interpolation\.env\.0/);
  });
});
