/**
 * A file that cannot be read fails the pack with the file's path. Tests run as
 * root in CI, where chmod 000 does not stop a read, so node:fs/promises' open
 * is made to fail for files named `unreadable*` instead.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConvergeError } from '../../../src/errors.ts';
import { contentDigest, packModule } from '../../../src/registry/pack.ts';
import { makeModule } from './module-fixture.ts';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    open: (path: string, ...rest: unknown[]) => {
      if (String(path).includes('unreadable')) {
        return Promise.reject(
          Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' }),
        );
      }
      return (real.open as (...args: unknown[]) => unknown)(path, ...rest);
    },
  };
});

describe('unreadable files', () => {
  it('fail packing and the digest with INPUT_INVALID naming the file', async () => {
    const dir = await makeModule({ 'main.tf': '', 'a.tf': '', 'unreadable.tf': '', 'z.tf': '' });
    for (const run of [packModule, contentDigest]) {
      const error = await run(dir).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ConvergeError.is(error) && error.code).toBe('INPUT_INVALID');
      expect((error as Error).message).toBe(
        `cannot read ${join(dir, 'unreadable.tf')}: EACCES: permission denied, open '${join(dir, 'unreadable.tf')}'`,
      );
    }
  });
});
