/**
 * Mount paths on the secrets API (docs/apis.md, "The secrets API"). The
 * service keeps some paths for itself: no engine is mounted at or under
 * `sys/`, `auth/`, `identity/`, `cubbyhole/` or `audit/` (it answers `cannot
 * mount`), so a manifest naming one can only mean the service's own
 * endpoints. converge's validation and the emulator's seed check both read
 * this list.
 */

export const RESERVED_MOUNTS = ['sys', 'auth', 'identity', 'cubbyhole', 'audit'] as const;

/** Whether an engine could never be mounted at `mount` (`sys`, `auth/token`, `identity/x`). */
export function isReservedMount(mount: string): boolean {
  const first = mount.split('/')[0] ?? '';
  return (RESERVED_MOUNTS as readonly string[]).includes(first);
}
