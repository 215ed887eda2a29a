/**
 * Throw-away git repositories for the registry's VCS publishing tests: the
 * network example module committed on `main`, removed after the test file.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEveryFile } from '../helpers/teardown.ts';
import { FIXTURES } from './registry-ingest/tarballs.ts';

const repositories: string[] = [];
afterEveryFile(() => {
  for (const path of repositories.splice(0)) rmSync(path, { recursive: true, force: true });
});

export interface GitRepository {
  path: string;
  /** Runs git in the repository, with a fixed identity and no user or system configuration; its trimmed output. */
  git(...args: string[]): string;
}

export function gitRepository(): GitRepository {
  const path = mkdtempSync(join(tmpdir(), 'converge-registry-vcs-'));
  repositories.push(path);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', path, ...args], {
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
      encoding: 'utf8',
    }).trim();
  git('init', '--quiet', '--initial-branch=main');
  cpSync(join(FIXTURES, 'network'), path, { recursive: true });
  git('add', '.');
  git('commit', '--quiet', '-m', 'network module');
  return { path, git };
}
