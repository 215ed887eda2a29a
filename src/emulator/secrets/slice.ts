/**
 * The secrets API's part of the emulator state: tokens, policies and the
 * mounted engines, each mount holding its engine's objects as plain JSON so
 * that saving the state is saving this record.
 */
import { newToken } from '../ids.ts';
import type { State } from '../state.ts';
import type { Policies, PolicyRule, SecretsToken } from './access.ts';
import { type Lease, Leases } from './leases.ts';
import type { SecretsSeed } from './seed.ts';

export type EngineType = 'ssh' | 'ldap';

export interface Mount {
  path: string;
  type: EngineType;
  /** The engine's objects (roles, CA, …), plain JSON. */
  data: Record<string, unknown>;
}

interface Saved {
  tokens: SecretsToken[];
  policies: Record<string, PolicyRule[]>;
  mounts: Mount[];
  leases?: Lease[];
}

export class SecretsSlice {
  readonly tokens = new Map<string, SecretsToken>();
  readonly policies: Record<string, PolicyRule[]>;
  readonly mounts = new Map<string, Mount>();
  readonly leases: Leases;

  constructor(saved: Saved, now: () => number) {
    this.leases = new Leases(saved.leases ?? [], now);
    for (const token of saved.tokens) this.tokens.set(token.token, token);
    this.policies = saved.policies;
    for (const mount of saved.mounts) this.mounts.set(mount.path, mount);
  }

  get policyTable(): Policies {
    return this.policies;
  }

  mint(displayName: string, policies: string[]): SecretsToken {
    const token = { token: `s.${newToken()}`, displayName, policies };
    this.tokens.set(token.token, token);
    return token;
  }

  save(): Saved {
    return {
      tokens: [...this.tokens.values()],
      policies: this.policies,
      mounts: [...this.mounts.values()],
      leases: this.leases.save(),
    };
  }
}

/**
 * The slice, from the saved state or else from the seed: the root token is the state's `secrets` token.
 * `now` is the emulator's clock (EmulatorOptions.now): leases start and end by it, as rotations do.
 */
export function secretsSlice(state: State, now: () => number): SecretsSlice {
  return state.slice('secrets', (saved) => {
    if (saved) return new SecretsSlice(saved as Saved, now);
    const seed: SecretsSeed = state.seed.secrets ?? {};
    const tokens: SecretsToken[] = [{ token: state.tokens.secrets, displayName: 'root', policies: ['root'] }];
    for (const t of seed.tokens ?? []) {
      tokens.push({ token: t.token ?? `s.${newToken()}`, displayName: t.displayName ?? 'token', policies: t.policies });
    }
    const mounts = (seed.mounts ?? []).map((m) => ({ path: m.path, type: m.type, data: {} }));
    return new SecretsSlice({ tokens, policies: { ...seed.policies }, mounts }, now);
  });
}
