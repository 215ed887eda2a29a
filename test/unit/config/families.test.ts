/**
 * Each API family is one record (src/api/profiles.ts): its key in the
 * configuration file, its environment variables, its schema entry, the token
 * variables `${env:}` may not read and its set-up hints all come from it, so
 * every family is configured the same way.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectFamily } from '../../../src/api/connect.ts';
import { API_NAMES, API_TOKEN_VARIABLES, PROFILES } from '../../../src/api/profiles.ts';
import { loadConfig } from '../../../src/config/load.ts';
import { configSchema } from '../../../src/config/schema.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

describe('API family records', () => {
  it('keep the environment variable names the documentation promises', () => {
    expect(API_NAMES.map((api) => PROFILES[api].env)).toEqual([
      { url: 'CONVERGE_PLATFORM_URL', token: 'CONVERGE_PLATFORM_TOKEN' },
      { url: 'CONVERGE_SECRETS_URL', token: 'CONVERGE_SECRETS_TOKEN' },
    ]);
    expect(API_TOKEN_VARIABLES).toEqual(['CONVERGE_PLATFORM_TOKEN', 'CONVERGE_SECRETS_TOKEN']);
  });

  it('give each family a connection entry in the configuration schema', () => {
    for (const api of API_NAMES) expect(configSchema.properties[api]).toEqual({ $ref: '#/$defs/connection' });
  });

  it.each(API_NAMES)(
    'configure %s from its variables, or from its key in the file with its own token variable',
    async (api) => {
      const { env } = PROFILES[api];
      const cwd = await tempDir('family');
      const fromEnv = await loadConfig({ cwd, env: { [env.url]: 'http://127.0.0.1:9/', [env.token]: 't0ken' } });
      expect(fromEnv[api]).toMatchObject({ url: 'http://127.0.0.1:9', token: 't0ken', tokenEnv: env.token });
      for (const other of API_NAMES.filter((a) => a !== api)) expect(fromEnv[other]).toBeUndefined();

      await writeFile(
        join(cwd, '.convergerc.json'),
        JSON.stringify({ [api]: { url: 'https://a.test', tokenEnv: 'MINE' } }),
      );
      const fromFile = await loadConfig({ cwd, env: { MINE: 'x' } });
      expect(fromFile[api]).toMatchObject({ url: 'https://a.test', token: 'x', tokenEnv: 'MINE' });
    },
  );

  it.each(API_NAMES)('say how to set up %s when it has no URL, and which variable lacks the token', (api) => {
    const { env, title } = PROFILES[api];
    expect(() => connectFamily(api, undefined, {})).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: `no URL for ${title}`,
        hint: `set ${env.url} or \`${api}.url\` in the configuration file`,
      }),
    );
    const tokenless = {
      url: 'https://a.test',
      token: undefined,
      tokenEnv: 'MINE',
      rateLimit: undefined,
      requestTimeoutMs: undefined,
    };
    expect(() => connectFamily(api, tokenless, {})).toThrow(
      expect.objectContaining({ message: `no token for ${title}`, hint: 'set the environment variable MINE' }),
    );
  });
});
