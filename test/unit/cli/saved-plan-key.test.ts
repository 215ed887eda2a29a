/**
 * The key of a saved plan's digests and the configuration it covers: the
 * plan key wins over the tokens, loses a trailing line end as a token does,
 * and the configuration's sections never hold a token.
 */
import { describe, expect, it } from 'vitest';
import { configSections, planDigester } from '../../../src/cli/saved-plan.ts';
import type { ConvergeConfig } from '../../../src/config/load.ts';

const CONFIG: ConvergeConfig = {
  file: '/repo/converge.yaml',
  platform: {
    url: 'https://tfe.example.com',
    token: 'platform-token-value',
    tokenEnv: 'CONVERGE_PLATFORM_TOKEN',
    rateLimit: undefined,
    requestTimeoutMs: undefined,
  },
  secrets: undefined,
  parallelism: 10,
  maxParallelism: 64,
  ownership: [{ kind: 'ToolVersion' }],
  ignore: [],
  maxDeletes: 10,
  fingerprints: undefined,
  interpolation: { fileRoots: [], env: undefined, maxFileBytes: undefined },
};

describe('a saved plan’s key', () => {
  it('comes from CONVERGE_PLAN_KEY when set, the same with or without a trailing line end', () => {
    const made = planDigester(CONFIG, ['platform'], { CONVERGE_PLAN_KEY: 'shared' });
    expect(made.record.from).toBe('plan-key');
    const again = planDigester(CONFIG, ['platform'], { CONVERGE_PLAN_KEY: 'shared\n' }, made.record.salt);
    expect(again.matches(made.record)).toBe(true);
    const tokens = planDigester(CONFIG, ['platform'], {}, made.record.salt);
    expect(tokens.record.from).toBe('tokens');
    expect(tokens.matches(made.record)).toBe(false);
  });

  it('needs the token of every API the plan reads when there is no plan key', () => {
    expect(() => planDigester(CONFIG, ['platform', 'secrets'], {})).toThrow('no token for the secrets API');
  });

  it('covers the configuration by section, named as the file writes them, without its token or path', () => {
    const sections = configSections(CONFIG);
    expect(Object.keys(sections)).toContain('guard.maxDeletes');
    expect(JSON.stringify(sections)).not.toContain('platform-token-value');
    expect(JSON.stringify(sections)).not.toContain('/repo/converge.yaml');
  });
});
