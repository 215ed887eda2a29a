import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('config');
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('loadConfig', () => {
  it('uses defaults and the CONVERGE_* variables without a file', async () => {
    const cwd = await dirWith({});
    const config = await loadConfig({
      cwd,
      env: { CONVERGE_PLATFORM_URL: 'http://127.0.0.1:9/', CONVERGE_PLATFORM_TOKEN: 't0ken' },
    });
    expect(config.platform).toEqual({
      url: 'http://127.0.0.1:9',
      token: 't0ken',
      tokenEnv: 'CONVERGE_PLATFORM_TOKEN',
      rateLimit: undefined,
      requestTimeoutMs: undefined,
    });
    expect(config.secrets).toBeUndefined();
    expect(config.parallelism).toBe(10);
    expect(config.maxParallelism).toBe(64);
    expect(config.maxDeletes).toBe(10);
    expect(config.fingerprints).toBe(join(cwd, '.converge/fingerprints.json'));
  });

  it('reads a YAML file, its token variable and ownership scopes', async () => {
    const cwd = await dirWith({
      'converge.config.yaml': [
        'platform: {url: "https://tfe.example.com", tokenEnv: TFE_TOKEN}',
        'parallelism: 4',
        'ownership: [{kind: ToolVersion, name: "1.*"}]',
        'guard: {maxDeletes: 2}',
        'fingerprints: false',
      ].join('\n'),
    });
    const config = await loadConfig({ cwd, env: { TFE_TOKEN: 'abc' } });
    expect(config.platform?.token).toBe('abc');
    expect(config.platform?.tokenEnv).toBe('TFE_TOKEN');
    expect(config.parallelism).toBe(4);
    expect(config.ownership).toEqual([{ kind: 'ToolVersion', name: '1.*' }]);
    expect(config.maxDeletes).toBe(2);
    expect(config.fingerprints).toBeUndefined();
  });

  it('lets the environment override the file', async () => {
    const cwd = await dirWith({ '.convergerc.json': JSON.stringify({ platform: { url: 'https://a.example.com' } }) });
    const config = await loadConfig({
      cwd,
      env: { CONVERGE_PLATFORM_URL: 'https://b.example.com', CONVERGE_FINGERPRINTS: 'off' },
    });
    expect(config.platform?.url).toBe('https://b.example.com');
    expect(config.fingerprints).toBeUndefined();
  });

  it('rejects unknown keys at file:line:col of the key, with the key it most likely meant, at any depth', async () => {
    const cwd = await dirWith({ 'converge.config.yaml': 'paralelism: 4\nplatform: {urll: "https://x"}\n' });
    const error = (await loadConfig({ cwd, env: {} }).catch((e: Error) => e)) as Error;
    expect(error.message.split('\n')).toEqual([
      `${join(cwd, 'converge.config.yaml')}:1:1: (top level): unknown key "paralelism"; did you mean "parallelism"?`,
      `${join(cwd, 'converge.config.yaml')}:2:12: platform: unknown key "urll"; did you mean "url"?`,
    ]);
  });

  it('places the problems of a JSON configuration too; one written as code has no lines to name', async () => {
    const cwd = await dirWith({ '.convergerc.json': '{\n  "guard": {\n    "maxDeletes": "ten"\n  }\n}\n' });
    await expect(loadConfig({ cwd, env: {} })).rejects.toThrow(
      /\.convergerc\.json:3:19: guard\.maxDeletes must be integer$/,
    );
  });

  it('says a value that fits none of its forms in one line naming them', async () => {
    const cwd = await dirWith({ 'converge.config.yaml': 'fingerprints: true\n' });
    await expect(loadConfig({ cwd, env: {} })).rejects.toThrow(
      /^\S+converge\.config\.yaml:1:15: fingerprints must be false, or a mapping with path$/,
    );
  });

  it('reads YAML as the manifests do, and places a syntax error at file:line:col', async () => {
    // YAML 1.2 core schema, as the manifests read it: `0x10` is the integer 16
    const quirky = await dirWith({ '.convergerc': 'guard: {maxDeletes: 3}\nparallelism: 0x10\n' });
    expect(await loadConfig({ cwd: quirky, env: {} })).toMatchObject({ parallelism: 16, maxDeletes: 3 });
    const cwd = await dirWith({ 'converge.config.yml': 'platform:\n  url: [unclosed\n' });
    const error = await loadConfig({ cwd, env: {} }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect((error as Error).message).toMatch(/converge\.config\.yml:3:1: Flow sequence in block collection/);
  });

  it('rejects a token in the file', async () => {
    const cwd = await dirWith({ 'converge.config.yaml': 'platform: {url: "https://x.example.com", token: "leak"}\n' });
    const error = await loadConfig({ cwd, env: {} }).catch((e: Error) => e);
    expect(String(error)).toMatch(
      /platform: unknown key "token": a token is never kept in a file; tokenEnv names the environment variable that holds it/,
    );
    expect(String(error)).not.toContain('leak');
  });
});

describe('variables', () => {
  it('resolves values files against the configuration file and keeps the values written there', async () => {
    const cwd = await tempDir('config-vars');
    await writeFile(
      join(cwd, 'converge.config.yaml'),
      'variables:\n  files: [values.yaml, ../shared/values.yaml]\n  engineer_ttl: 2h\n  port: 22\n',
    );
    const config = await loadConfig({ cwd, env: {} });
    expect(config.variables).toEqual({
      files: [join(cwd, 'values.yaml'), join(cwd, '../shared/values.yaml')],
      values: { engineer_ttl: '2h', port: 22 },
    });
  });

  it('refuses a key that cannot name a variable, and files that are not a list', async () => {
    const cwd = await tempDir('config-vars');
    await writeFile(join(cwd, 'converge.config.yaml'), 'variables:\n  files: values.yaml\n  bad-name: 1\n');
    const error = (await loadConfig({ cwd, env: {} }).catch((e: unknown) => e)) as Error;
    expect(error.message.split('\n').map((line) => line.slice(cwd.length + 1))).toEqual([
      'converge.config.yaml:3:3: variables: "bad-name" is not a name (letters, digits and _)',
      'converge.config.yaml:2:10: variables.files must be array',
    ]);
  });
});
