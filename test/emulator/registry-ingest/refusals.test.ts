/**
 * Uploads the registry must refuse, each with the reason a version's
 * `reg_ingress_failed` status shows: archives that are not gzip tarballs,
 * modules not at the root, hostile paths, oversize archives, and Terraform
 * that Terraform itself would not load.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IngestError, ingestModule } from '../../../src/emulator/registry/ingest/index.ts';
import { MAX_ENTRIES } from '../../../src/emulator/registry/ingest/limits.ts';
import { fixtureTarball, moduleTarball, rawTar, tarball } from './tarballs.ts';

/** The IngestError an archive is refused with. */
async function refusal(archive: Buffer): Promise<IngestError> {
  const error = await ingestModule(archive).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(IngestError);
  return error as IngestError;
}

const MAIN = { path: 'main.tf', body: 'variable "a" {}\n' };

describe('archives that are not gzip tarballs', () => {
  it('refuses a file that is not gzip', async () => {
    const error = await refusal(Buffer.from('PK\x03\x04 a zip file, say'));
    expect(error.message).toBe('the archive is not a gzip tarball');
    expect(error.stage).toBe('archive');
  });

  it('refuses an empty upload', async () => {
    expect((await refusal(Buffer.alloc(0))).message).toBe('the archive is not a gzip tarball');
  });

  it('refuses gzip that does not hold a tarball', async () => {
    expect((await refusal(gzipSync('just some text, not tar headers'))).message).toBe(
      'the archive is not a gzip tarball (no tar data inside the gzip)',
    );
  });

  it('refuses a truncated gzip stream', async () => {
    const archive = await fixtureTarball('network');
    expect((await refusal(archive.subarray(0, archive.length / 2))).message).toMatch(
      /^the archive is not a gzip tarball: unexpected end of file/,
    );
  });

  it('refuses a tarball cut in the middle of a file', async () => {
    const tar = rawTar([MAIN, { path: 'big.tf', body: '#'.repeat(5000) }]);
    expect((await refusal(gzipSync(tar.subarray(0, 2048)))).message).toMatch(
      /^the tarball is damaged: Truncated input/,
    );
  });

  it('refuses a gzip inside the gzip, which would escape the size limit', async () => {
    expect((await refusal(gzipSync(tarball([MAIN])))).message).toBe(
      'the archive is not a gzip tarball (its gzip holds another compressed stream)',
    );
  });
});

describe('modules not at the root', () => {
  it('refuses a tarball of the module directory rather than its contents, and says where the files are', async () => {
    const error = await refusal(await fixtureTarball('network', 'network'));
    expect(error.message).toBe(
      "the module must be at the archive's root: there is no .tf file at the root (found some under network/)",
    );
    expect(error.stage).toBe('layout');
  });

  it('refuses an archive without Terraform files', async () => {
    expect((await refusal(moduleTarball({ 'README.md': '# hello\n' }))).message).toBe(
      "the module must be at the archive's root: the archive holds no .tf file",
    );
  });

  it('refuses an empty tarball', async () => {
    expect(await refusal(tarball([]))).toMatchObject({
      message: "the module must be at the archive's root: the archive holds no .tf file",
    });
  });
});

describe('hostile archives', () => {
  it.each([
    ['../x', "the archive entry \"../x\" leaves the module's root ('..' in its path)"],
    [
      'modules/../../etc/passwd',
      "the archive entry \"modules/../../etc/passwd\" leaves the module's root ('..' in its path)",
    ],
    ['..\\windows.tf', "the archive entry \"..\\\\windows.tf\" leaves the module's root ('..' in its path)"],
    ['/etc/passwd', 'the archive entry "/etc/passwd" has an absolute path'],
    ['C:/Windows/x.tf', 'the archive entry "C:/Windows/x.tf" has an absolute path'],
  ])('refuses the entry %s', async (path, reason) => {
    const error = await refusal(tarball([MAIN, { path, body: 'x' }]));
    expect(error.message).toBe(reason);
    expect(error.stage).toBe('archive');
  });

  it('refuses a link pointing out of the root, and ignores one that stays inside', async () => {
    const outside = await refusal(tarball([MAIN, { path: 'secrets', type: 'SymbolicLink', linkpath: '../../etc' }]));
    expect(outside.message).toBe('the archive entry "secrets" links outside the module\'s root');
    const absolute = await refusal(tarball([MAIN, { path: 'passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }]));
    expect(absolute.message).toBe('the archive entry "passwd" links to an absolute path');
    const inside = await ingestModule(tarball([MAIN, { path: 'alias.tf', type: 'SymbolicLink', linkpath: 'main.tf' }]));
    expect(inside.files).toEqual(['main.tf']);
  });

  it("refuses a hard link whose target, read from the archive's root, leaves it", async () => {
    const error = await refusal(tarball([MAIN, { path: 'a/b/c', type: 'Link', linkpath: '../../etc/passwd' }]));
    expect(error.message).toBe('the archive entry "a/b/c" links outside the module\'s root');
    expect(error.stage).toBe('archive');
    const inside = await ingestModule(tarball([MAIN, { path: 'a/b/c', type: 'Link', linkpath: 'main.tf' }]));
    expect(inside.files).toEqual(['main.tf']);
  });

  it('refuses a chain of symbolic links that leaves the root, each link staying inside on its own', async () => {
    const up = { path: 'd/up', type: 'SymbolicLink' as const, linkpath: '..' };
    const chain = await refusal(tarball([MAIN, up, { path: 'd/out', type: 'SymbolicLink', linkpath: 'up/..' }]));
    expect(chain.message).toBe('the archive entry "d/out" links outside the module\'s root');
    // a link named before the one it goes through
    const early = await refusal(tarball([MAIN, { path: 'x', type: 'SymbolicLink', linkpath: 'd/up/../..' }, up]));
    expect(early.message).toBe('the archive entry "x" links outside the module\'s root');
    const loop = await refusal(
      tarball([
        MAIN,
        { path: 'p', type: 'SymbolicLink', linkpath: 'q' },
        { path: 'q', type: 'SymbolicLink', linkpath: 'p' },
      ]),
    );
    expect(loop.message).toMatch(/^the archive's links loop \(through "[pq]"\)$/);
    const inside = await ingestModule(
      tarball([MAIN, up, { path: 'd/main-again.tf', type: 'SymbolicLink', linkpath: 'up/main.tf' }]),
    );
    expect(inside.files).toEqual(['main.tf']);
  });

  it('refuses more than 50 MiB uncompressed (a gzip bomb), before reading it all', async () => {
    const bomb = gzipSync(rawTar([MAIN, { path: 'zeros.bin', body: Buffer.alloc(51 * 1024 * 1024) }]));
    expect(bomb.length).toBeLessThan(100 * 1024); // compresses about 1000:1
    expect((await refusal(bomb)).message).toBe('the archive is larger than 50 MiB uncompressed');
  });

  it(`refuses more than ${MAX_ENTRIES} entries`, async () => {
    const entries = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ path: `d${i}/`, type: 'Directory' as const }));
    expect((await refusal(tarball([MAIN, ...entries]))).message).toBe(
      `the archive holds more than ${MAX_ENTRIES} entries`,
    );
  });
});

describe('configuration Terraform would not load', () => {
  it("refuses invalid HCL with hcl2json's diagnostic, file and position", async () => {
    const error = await refusal(
      moduleTarball({ 'main.tf': 'variable "ok" {}\n', 'outputs.tf': 'output "x" {\n  value = \n}\n' }),
    );
    expect(error.message).toBe(
      'outputs.tf:2,11-3,1: Invalid expression; Expected the start of an expression, but found an invalid expression token.',
    );
    expect(error.stage).toBe('config');
  });

  it('names the submodule file, one diagnostic per line', async () => {
    const error = await refusal(
      moduleTarball({
        'main.tf': 'variable "ok" {}\n',
        'modules/net/main.tf': 'variable "a" { type = string\n}\n\nvariable "b" { default = 1\n}\n',
      }),
    );
    const lines = error.message.split('\n');
    expect(lines.map((line) => line.split(';')[0])).toEqual([
      'modules/net/main.tf:1,29-2,1: Invalid single-argument block definition',
      'modules/net/main.tf:4,27-5,1: Invalid single-argument block definition',
    ]);
    expect(lines[0]).toMatch(/; An argument definition on the same line as its containing block creates/);
  });

  it('refuses an unclosed block', async () => {
    expect((await refusal(moduleTarball({ 'main.tf': 'resource "aws_vpc" "x" {\n' }))).message).toMatch(
      /^main\.tf:1,24-25: Unclosed configuration block; /,
    );
  });

  it('refuses a variable declared twice', async () => {
    const error = await refusal(
      moduleTarball({ 'a.tf': 'variable "region" {}\n', 'b.tf': 'variable "region" {\n  default = "x"\n}\n' }),
    );
    expect(error.message).toBe(
      'b.tf: Duplicate variable declaration; a variable named "region" was already declared in a.tf',
    );
  });

  it('refuses a module call without a literal source', async () => {
    expect((await refusal(moduleTarball({ 'main.tf': 'module "x" {\n  version = "1.0"\n}\n' }))).message).toBe(
      'main.tf: module "x": Missing required argument; "source" must be set',
    );
    expect((await refusal(moduleTarball({ 'main.tf': 'module "x" {\n  source = var.src\n}\n' }))).message).toBe(
      'main.tf: module "x": "source" must be a literal string, not an expression',
    );
  });

  it('refuses a .tf file that is not UTF-8, and broken .tf.json', async () => {
    const latin1 = Buffer.from('variable "caf\xe9" {}\n', 'latin1');
    expect((await refusal(tarball([{ path: 'main.tf', body: latin1 }]))).message).toBe(
      'main.tf: the file is not UTF-8 text',
    );
    expect((await refusal(moduleTarball({ 'main.tf.json': '{"variable": ' }))).message).toMatch(
      /^main\.tf\.json: invalid JSON: /,
    );
  });

  it('does not parse test files: a broken one is kept as text for the test runner to report', async () => {
    const module = await ingestModule(moduleTarball({ 'main.tf': 'variable "a" {}\n', 'tests/x.tftest.hcl': 'run {' }));
    expect(module.tests).toEqual([{ path: 'tests/x.tftest.hcl', text: 'run {' }]);
  });
});
