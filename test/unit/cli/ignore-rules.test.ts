/**
 * The configuration's `ignore` entries (src/cli/ignore-rules.ts) and a document's own list, as
 * the manifests load them (src/manifest/document.ts): checked against the kinds' field tables,
 * and folded into each declared object once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIgnoreRules, withIgnoreRules } from '../../../src/cli/ignore-rules.ts';
import { loadConfig } from '../../../src/config/load.ts';
import { InputError } from '../../../src/errors.ts';
import { loadManifests } from '../../../src/manifest/load.ts';
import { catalog } from '../../../src/providers/index.ts';
import type { DesiredObject } from '../../../src/reconcile/types.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { desired } from '../reconcile/builders.ts';

const role = (mount: string, name: string, ignore?: string[]): DesiredObject =>
  desired('SSHRole', name, {}, { address: { kind: 'SSHRole', scope: mount, name }, ...(ignore && { ignore }) });

describe("the configuration's ignore entries", () => {
  it('are read from the file as written', async () => {
    const cwd = await tempDir('ignore');
    await writeFile(
      join(cwd, 'converge.config.yaml'),
      'ignore:\n  - {kind: SSHRole, scope: ssh, name: "web-*", fields: [port, "default_extensions.*"]}\n',
    );
    const config = await loadConfig({ cwd, env: {} });
    expect(config.ignore).toEqual([
      { kind: 'SSHRole', scope: 'ssh', name: 'web-*', fields: ['port', 'default_extensions.*'] },
    ]);
  });

  it('are refused without fields, or with an empty list', async () => {
    const cwd = await tempDir('ignore');
    await writeFile(
      join(cwd, 'converge.config.yaml'),
      'ignore:\n  - {kind: SSHRole, fields: []}\n  - {kind: SSHRole}\n',
    );
    await expect(loadConfig({ cwd, env: {} })).rejects.toThrow(/ignore\.0\.fields must NOT have fewer than 1 items/);
  });

  it('add their fields to every object they select, by kind, scope and name glob, to its own list', () => {
    const rules = [
      { kind: 'SSHRole', fields: ['port'] },
      { kind: 'SSHRole', scope: 'ssh', name: 'web-*', fields: ['default_extensions.*', 'port'] },
      { kind: 'GeneralSettings', fields: ['plan-timeout'] },
    ];
    const [web, db, other] = withIgnoreRules(
      [role('ssh', 'web-1', ['ttl']), role('ssh', 'db'), role('ssh-prod', 'web-1')],
      { ignore: rules },
    );
    expect(web?.ignore).toEqual(['ttl', 'port', 'default_extensions.*']);
    expect(db?.ignore).toEqual(['port']);
    expect(other?.ignore).toEqual(['port']);
  });

  it('name the file and the entry for an unknown kind or a field the kind does not have', () => {
    const check = (ignore: Array<{ kind: string; fields: string[] }>) => () =>
      checkIgnoreRules({ file: '/repo/converge.config.yaml', ignore });
    expect(check([{ kind: 'SSHRole', fields: ['port', 'default_extensions.*', 'ttl'] }])).not.toThrow();
    expect(check([{ kind: 'SshRole', fields: ['port'] }])).toThrow(
      '/repo/converge.config.yaml: ignore[0]: unknown kind "SshRole"; did you mean "SSHRole"?',
    );
    expect(
      check([
        { kind: 'GeneralSettings', fields: ['plan-timeout'] },
        { kind: 'SSHRole', fields: ['nope.*'] },
      ]),
    ).toThrow(
      /^\/repo\/converge\.config\.yaml: ignore\[1\]: "nope\.\*" names no field of SSHRole; its fields: key_type, /,
    );
  });

  it('refuse a path below a field that holds no map, or with an empty segment: it would cover nothing', () => {
    const check = (fields: string[]) => () =>
      checkIgnoreRules({ file: '/repo/converge.config.yaml', ignore: [{ kind: 'SSHRole', fields }] });
    expect(check(['default_extensions.*', 'allowed_user_key_lengths.rsa'])).not.toThrow();
    expect(check(['ttl.*'])).toThrow('ignore[0]: "ttl.*" names no field of SSHRole; did you mean "ttl"?');
    expect(check(['default_extensions.*.x'])).toThrow('"default_extensions.*.x" names no field of SSHRole');
    expect(check(['ttl.'])).toThrow('ignore[0]: "ttl." is no field path: it has an empty segment');
  });
});

describe("a document's ignore list", () => {
  async function load(text: string) {
    const cwd = await tempDir('ignore');
    await writeFile(join(cwd, 'm.yaml'), text);
    return loadManifests(['m.yaml'], catalog, { cwd, env: {} });
  }

  it('rides on the declared object', async () => {
    const [object] = await load(
      'kind: SSHRole\nmetadata: {name: web}\nignore: [port, "default_extensions.*"]\nspec: {key_type: otp, default_user: u, cidr_list: 10.0.0.0/8}\n',
    );
    expect(object?.ignore).toEqual(['port', 'default_extensions.*']);
  });

  it('is refused at the entry that names no field, every such entry at once', async () => {
    const text =
      'kind: SSHRole\nmetadata: {name: web}\nignore:\n  - prot\n  - port\n  - nope.x\nspec: {key_type: otp, default_user: u, cidr_list: 10.0.0.0/8}\n';
    const error = await load(text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems.map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([
      '4:5: ignore: "prot" names no field of SSHRole; did you mean "port"?',
      expect.stringMatching(/^6:5: ignore: "nope\.x" names no field of SSHRole; /),
    ]);
  });
});
