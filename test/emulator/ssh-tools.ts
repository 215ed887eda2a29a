/**
 * OpenSSH as the judge of the emulator's SSH engine, shared by the SSH
 * tests: `ssh-keygen -L` to read a certificate back (it also checks the
 * CA's signature), and a throw-away `sshd` on loopback that trusts a given
 * CA, with an `ssh` client that logs in to it with a key and certificate.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { GeneratedKeyPair } from '../../src/emulator/ssh/keys.ts';

export const SSH_KEYGEN_MISSING =
  'ssh-keygen is not installed; these tests read certificates back with it (apt-get install -y openssh-client)';

export const hasSshKeygen = spawnSync('ssh-keygen', ['-?'], { encoding: 'utf8' }).error === undefined;

/** The OS user the tests run as: the login user of the sshd tests. */
export const USER = userInfo().username;

/** A certificate as `ssh-keygen -L` prints it. */
export interface Listing {
  type: string;
  publicKey: string;
  signingCa: string;
  keyId: string;
  serial: string;
  valid: string;
  principals: string[];
  criticalOptions: string[];
  extensions: string[];
}

/** The indented lines under a `Name:` heading of `ssh-keygen -L` output. */
function section(lines: string[], heading: string): string[] {
  const start = lines.findIndex((line) => line.trim().startsWith(`${heading}:`));
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('                ')) break;
    items.push(line.trim());
  }
  return items;
}

function field(lines: string[], name: string): string {
  const line = lines.find((candidate) => candidate.trim().startsWith(`${name}:`));
  return line === undefined
    ? ''
    : line
        .trim()
        .slice(name.length + 1)
        .trim();
}

/** Writes the certificate to a temporary file and lists it with `ssh-keygen -L` (UTC, so validity times compare). */
export function listCertificate(signedKey: string): Listing {
  if (!hasSshKeygen) throw new Error(SSH_KEYGEN_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'converge-ssh-cert-'));
  try {
    const file = join(dir, 'cert.pub');
    writeFileSync(file, signedKey);
    const result = spawnSync('ssh-keygen', ['-L', '-f', file], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    });
    if (result.status !== 0) throw new Error(`ssh-keygen -L failed: ${result.stderr}`);
    const lines = result.stdout.split('\n');
    return {
      type: field(lines, 'Type'),
      publicKey: field(lines, 'Public key'),
      signingCa: field(lines, 'Signing CA'),
      keyId: field(lines, 'Key ID'),
      serial: field(lines, 'Serial'),
      valid: field(lines, 'Valid'),
      principals: section(lines, 'Principals'),
      criticalOptions: section(lines, 'Critical Options'),
      extensions: section(lines, 'Extensions'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two ends of a listing's `Valid: from … to …`, in seconds since the epoch. */
export function validityOf(listing: Listing): { from: number; to: number } {
  const match = /^from (\S+) to (\S+)$/.exec(listing.valid);
  if (!match) throw new Error(`not a bounded validity: ${listing.valid}`);
  const at = (text: string) => Date.parse(`${text}Z`) / 1000;
  return { from: at(match[1]!), to: at(match[2]!) };
}

/** OpenSSH's `SHA256:` fingerprint of a public key line: unpadded base64 of the blob's SHA-256. */
export function sshFingerprint(publicLine: string): string {
  const blob = Buffer.from(publicLine.trim().split(' ')[1] ?? '', 'base64');
  return 'SHA256:' + createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
}

/** Hex SHA-256 of a public key line's blob: `{{public_key_hash}}` in a key id. */
export function keyBlobSha256(publicLine: string): string {
  const blob = Buffer.from(publicLine.trim().split(' ')[1] ?? '', 'base64');
  return createHash('sha256').update(blob).digest('hex');
}

/** `2024-05-01T10:00:00`: how ssh-keygen prints a time in UTC. */
export function sshTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** sshd refuses to start unless invoked by an absolute path (it re-executes itself). */
export const SSHD = '/usr/sbin/sshd';

export interface SshResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface SshdOptions {
  /** The text of sshd's TrustedUserCAKeys file: one public key line per CA. */
  trustedUserCaKeys: string;
  /** sshd's host key. */
  hostKey: GeneratedKeyPair;
  /** A host certificate for the host key, offered to clients that trust its CA. */
  hostCertificate?: string;
  /** The temporary directory's name prefix. */
  prefix?: string;
}

/** The client options for a host the client does not check (these tests are about user certificates). */
export const INSECURE_HOST = [
  '-o',
  'StrictHostKeyChecking=no',
  '-o',
  'UserKnownHostsFile=/dev/null',
  '-o',
  'LogLevel=ERROR',
];

/**
 * A throw-away sshd on loopback, with its files in a temporary directory.
 * The files are written at once, so `unavailable` can be asked before any
 * test is declared; `start` runs sshd in the foreground.
 */
export class ThrowawaySshd {
  readonly dir: string;
  readonly configFile: string;
  /** Why sshd cannot run here, or undefined when it can. */
  readonly unavailable: string | undefined;
  port = 0;
  log = '';
  #child: ChildProcess | undefined;
  #logins = 0;

  constructor(options: SshdOptions) {
    this.dir = mkdtempSync(join(tmpdir(), options.prefix ?? 'converge-sshd-'));
    const hostKeyFile = this.write('host_key', options.hostKey.privateKey);
    const hostCert =
      options.hostCertificate === undefined
        ? []
        : [`HostCertificate ${this.write('host_key-cert.pub', options.hostCertificate)}`];
    const caFile = this.write('trusted_user_ca_keys', options.trustedUserCaKeys);
    this.configFile = this.write(
      'sshd_config',
      [
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKeyFile}`,
        ...hostCert,
        `TrustedUserCAKeys ${caFile}`,
        // With no principals file, a certificate must name the login user as a principal.
        'AuthorizedPrincipalsFile none',
        'AuthorizedKeysFile none',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'StrictModes no',
        `PidFile ${join(this.dir, 'sshd.pid')}`,
        'LogLevel VERBOSE',
      ].join('\n'),
    );
    this.unavailable = this.#check();
  }

  /** Replaces the trusted user CAs (sshd reads the file at each login), e.g. with a key fetched after construction. */
  trust(trustedUserCaKeys: string): void {
    this.write('trusted_user_ca_keys', trustedUserCaKeys);
  }

  /** Writes a file into the directory; private keys must not be readable by others, or ssh and sshd ignore them. */
  write(name: string, text: string): string {
    const file = join(this.dir, name);
    writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`, { mode: 0o600 });
    return file;
  }

  #check(): string | undefined {
    if (!existsSync(SSHD)) return `${SSHD} is missing (apt-get install -y openssh-server)`;
    if (spawnSync('ssh', ['-V']).error !== undefined)
      return 'the ssh client is missing (apt-get install -y openssh-client)';
    // As root, sshd needs its privilege-separation directory.
    if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    const check = spawnSync(SSHD, ['-t', '-f', this.configFile], { encoding: 'utf8' });
    if (check.error !== undefined) return `${SSHD} cannot run: ${check.error.message}`;
    if (check.status !== 0) return `${SSHD} -t refuses the test configuration: ${check.stderr.trim()}`;
    return undefined;
  }

  /** Starts sshd in the foreground and resolves once it says it listens. */
  async start(): Promise<void> {
    this.port = await freePort();
    const child = spawn(SSHD, ['-D', '-e', '-f', this.configFile, '-p', String(this.port)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sshd did not start in time:\n${this.log}`)), 15_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        this.log += chunk.toString();
        if (this.log.includes('Server listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`sshd exited with ${code}:\n${this.log}`));
      });
    });
  }

  /** Stops sshd (if it runs) and removes the directory. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Runs `ssh` as the test user with the given key and certificate, with no user configuration or agent. */
  async ssh(privateKey: string, signedKey: string, hostOptions: string[] = INSECURE_HOST): Promise<SshResult> {
    const name = `login-${++this.#logins}`;
    const keyFile = this.write(name, privateKey);
    const certFile = this.write(`${name}-cert.pub`, signedKey);
    const args = [
      '-F',
      '/dev/null',
      '-i',
      keyFile,
      '-o',
      `CertificateFile=${certFile}`,
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'IdentityAgent=none',
      '-o',
      'BatchMode=yes',
      '-o',
      'ConnectTimeout=10',
      ...hostOptions,
      '-p',
      String(this.port),
      `${USER}@127.0.0.1`,
      'echo converge-ok',
    ];
    return new Promise((resolve, reject) => {
      const child = spawn('ssh', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.once('error', reject);
      child.once('close', (status) => resolve({ status, stdout, stderr }));
    });
  }

  /** Resolves once sshd has logged the text (its log can trail the client's exit a little), or fails after a while. */
  async logged(text: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!this.log.includes(text)) {
      if (Date.now() > deadline) throw new Error(`sshd never logged ${JSON.stringify(text)}:\n${this.log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** On a refusal, sshd's log says why; shown when an assertion fails. */
  context(result: SshResult): string {
    return `ssh status ${result.status}\nssh stderr: ${result.stderr}\nsshd log:\n${this.log}`;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
