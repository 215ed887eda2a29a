/**
 * Multi-line values as line diffs (src/ui/line-diff.ts), and the reporters
 * that show them: the text plan, the plan's Markdown, the drift report as
 * text, Markdown and JUnit. Pure, from hand-built plans.
 */
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { FieldChange } from '../../../src/reconcile/types.ts';
import { formatDriftJunit } from '../../../src/ui/drift/junit.ts';
import { formatDriftMarkdown } from '../../../src/ui/drift/markdown.ts';
import { formatDriftText } from '../../../src/ui/drift/text.ts';
import { formatPlan } from '../../../src/ui/format-plan.ts';
import { changeDiffMarkdown, changeDiffText, diffSummary, lineDiff, showsAsLines } from '../../../src/ui/line-diff.ts';
import { formatPlanMarkdown } from '../../../src/ui/plan/markdown.ts';
import { action, CANARY, plan, report } from './drift/builders.ts';

const plain = pc.createColors(false);
const coloured = pc.createColors(true);

/** A 40-line creation template: an entry with numbered descriptions. */
const LDIF = [
  'dn: cn={{.Username}},ou=users,dc=example,dc=org',
  'objectClass: inetOrgPerson',
  ...Array.from({ length: 38 }, (_, i) => `description: line ${i + 3}`),
].join('\n');
const LDIF_CHANGED = LDIF.replace('description: line 20', 'description: line twenty');

/** Any C0 control but tab and line feed, DEL, C1: none may reach a report. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const texts = (before: string | null | undefined, after: string | null | undefined, max = 200) =>
  lineDiff(before, after, max).lines.map((line) => line.text);

describe('a line diff', () => {
  it('shows only the hunk around a change in the middle of a 40-line LDIF, and counts the lines', () => {
    const diff = lineDiff(LDIF, LDIF_CHANGED, 200);
    expect(diff.lines.map((line) => line.text)).toEqual([
      '@@ -17,7 +17,7 @@',
      ' description: line 17',
      ' description: line 18',
      ' description: line 19',
      '-description: line 20',
      '+description: line twenty',
      ' description: line 21',
      ' description: line 22',
      ' description: line 23',
    ]);
    expect(diff.lines.map((line) => line.kind)).toEqual([
      'hunk',
      'context',
      'context',
      'context',
      'remove',
      'add',
      'context',
      'context',
      'context',
    ]);
    expect(diffSummary(diff)).toBe('1 line added, 1 removed');
  });

  it('gives each distant change its own hunk', () => {
    const after = LDIF_CHANGED.replace('line 3\n', 'line three\n').replace('line 40', 'line forty');
    const hunks = texts(LDIF, after).filter((line) => line.startsWith('@@'));
    expect(hunks).toEqual(['@@ -1,6 +1,6 @@', '@@ -17,7 +17,7 @@', '@@ -37,4 +37,4 @@']);
    expect(texts(LDIF, after)).not.toContain(' description: line 10');
  });

  it('shows a created value as every line added, and a removed one as every line removed', () => {
    expect(texts(undefined, 'a\nb\n')).toEqual(['@@ -0,0 +1,2 @@', '+a', '+b']);
    expect(texts('a\nb\n', undefined)).toEqual(['@@ -1,2 +0,0 @@', '-a', '-b']);
    expect(diffSummary(lineDiff(undefined, 'a\nb\n', 200))).toBe('2 lines added');
    expect(diffSummary(lineDiff('a\nb\n', undefined, 200))).toBe('2 lines removed');
  });

  it('shows a value set where the API had null as its lines added, and one cleared to null as its lines removed', () => {
    // null is the APIs' unset field (a SAML certificate never set), not a line of text
    expect(texts(null, 'a\nb\n')).toEqual(['@@ -0,0 +1,2 @@', '+a', '+b']);
    expect(texts('a\nb\n', null)).toEqual(['@@ -1,2 +0,0 @@', '-a', '-b']);
    expect(diffSummary(lineDiff(null, 'a\nb\n', 200))).toBe('2 lines added');
    expect(diffSummary(lineDiff('a\nb\n', null, 200))).toBe('2 lines removed');
  });

  it('says a change of CRLF to LF once instead of changing every line', () => {
    const only = lineDiff('a\r\nb\r\nc\r\n', 'a\nb\nc\n', 200);
    expect(only.lines).toEqual([]);
    expect(diffSummary(only)).toBe('line ends CRLF -> LF');

    const withContent = lineDiff('a\r\nb\r\nc\r\n', 'a\nB\nc\n', 200);
    expect(withContent.lines.map((line) => line.text)).toEqual(['@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c']);
    expect(diffSummary(withContent)).toBe('1 line added, 1 removed; line ends CRLF -> LF');

    // both in CRLF: nothing about line ends to say
    expect(diffSummary(lineDiff('a\r\nb\r\n', 'a\r\nc\r\n', 200))).toBe('1 line added, 1 removed');
    // a created value in CRLF says so: its lines do not show it
    expect(diffSummary(lineDiff(undefined, 'a\r\nb\r\n', 200))).toBe('2 lines added; line ends CRLF');
  });

  it('shows each carriage return when a value mixes CRLF and LF', () => {
    expect(texts('a\r\nb\nc\n', 'a\nb\nc\n')).toEqual(['@@ -1,3 +1,3 @@', '-a␍', '+a', ' b', ' c']);
  });

  it('marks a missing final line end only when the two values differ in it', () => {
    expect(texts('a\nb', 'a\nb\n')).toEqual(['@@ -1,2 +1,2 @@', ' a', '-b', '\\ No newline at end of file', '+b']);
    expect(texts('a\nb\n', 'a\nb')).toEqual(['@@ -1,2 +1,2 @@', ' a', '-b', '+b', '\\ No newline at end of file']);
    // neither ends in one (LDIF is compared without its trailing line ends): no marker
    expect(texts('a\nb', 'a\nc')).toEqual(['@@ -1,2 +1,2 @@', ' a', '-b', '+c']);
    expect(texts(undefined, 'a\nb')).toEqual(['@@ -0,0 +1,2 @@', '+a', '+b']);
  });

  it('shows a value that becomes multi-line', () => {
    const change = { path: 'creation_ldif', before: 'dn: cn=x', after: 'dn: cn=x\nobjectClass: person' };
    expect(showsAsLines(change)).toBe(true);
    expect(texts(change.before, change.after)).toEqual(['@@ -1,1 +1,2 @@', ' dn: cn=x', '+objectClass: person']);
  });

  it('leaves the last line unchanged when a line is added after it, neither value ending in a line end', () => {
    const lines = texts(LDIF, `${LDIF}\ndescription: line 41`);
    expect(lines).toEqual([
      '@@ -38,3 +38,4 @@',
      ' description: line 38',
      ' description: line 39',
      ' description: line 40',
      '+description: line 41',
    ]);
  });

  it('shows the control characters of a live value, never runs them', () => {
    const live = 'dn: cn=x\ndescription: \u001b]52;c;ZXZpbA==\u0007\u001b[2J\rSuccess!\u009b31m\u202e\n';
    const lines = texts(live, 'dn: cn=x\ndescription: ok\n');
    expect(lines).toContain('-description: ␛]52;c;ZXZpbA==␇␛[2J␍Success!\\u009b31m\\u202e');
    const change = { path: 'creation_ldif', before: live, after: 'dn: cn=x\n' };
    const shown = [
      ...changeDiffText(change, lineDiff(live, change.after, 200), coloured),
      ...changeDiffMarkdown(change, lineDiff(live, change.after, 200)),
    ].join('\n');
    // the only escape sequences are the colours' own
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the colours' escape codes
    expect(shown.replace(/\u001b\[\d+m/g, '')).not.toMatch(CONTROL);
  });

  it('colours added, removed and header lines on a terminal, and writes no escape code without colour', () => {
    const diff = lineDiff('a\nb\n', 'a\nc\n', 200);
    const lines = changeDiffText({ path: 'body' }, diff, coloured);
    expect(lines).toEqual([
      'body: 1 line added, 1 removed',
      `  ${coloured.cyan('@@ -1,2 +1,2 @@')}`,
      '   a',
      `  ${coloured.red('-b')}`,
      `  ${coloured.green('+c')}`,
    ]);
    expect(lines[3]).toContain('\u001b[31m');
    expect(changeDiffText({ path: 'body' }, diff, plain).join('\n')).not.toContain('\u001b');
  });

  it('stops at the line limit and says how many diff lines are left', () => {
    const long = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const diff = lineDiff(undefined, long, 10);
    expect(diff.lines).toHaveLength(10);
    expect(diff.more).toBe(41);
    expect(diffSummary(diff)).toBe('50 lines added');
    expect(changeDiffText({ path: 'body' }, diff, plain).at(-1)).toBe('  … and 41 more diff line(s)');
    expect(changeDiffMarkdown({ path: 'body' }, diff)).toContain('_and 41 more diff line(s)_');
  });

  it('shows two values too different to align as every line removed and every line added', () => {
    const live = Array.from({ length: 2000 }, (_, i) => `live ${i}`).join('\n');
    const planned = Array.from({ length: 2000 }, (_, i) => `planned ${i}`).join('\n');
    const diff = lineDiff(live, planned, 3);
    expect(diff.whole).toBe(true);
    expect(diff.lines.map((line) => line.text)).toEqual(['@@ -1,2000 +1,2000 @@', '-live 0', '-live 1']);
    expect(diffSummary(diff)).toBe('2000 lines added, 2000 removed; too many changes to align: shown whole');
    // the final line end that only the planned value has is said after the last live line
    const ended = texts(live, `${planned}\n`, 5000);
    expect(ended.slice(2000, 2003)).toEqual(['-live 1999', '\\ No newline at end of file', '+planned 0']);
    expect(ended.at(-1)).toBe('+planned 1999');
    // one change in as many lines is aligned
    const one = lineDiff(live, live.replace('live 1000\n', 'changed\n'), 200);
    expect(one.whole).toBeUndefined();
    expect(diffSummary(one)).toBe('1 line added, 1 removed');
  });

  it('is never used for a secret, a single-line value, or a value the service will make', () => {
    expect(showsAsLines({ secret: true, before: 'a\nb', after: 'a\nc' })).toBe(false);
    expect(showsAsLines({ before: 'a', after: 'b' })).toBe(false);
    expect(showsAsLines({ before: '-----BEGIN\nX\n', note: 'a new one, made by the service' })).toBe(false);
    expect(showsAsLines({ before: 1, after: 'a\n' })).toBe(true);
  });
});

const ldifChange: FieldChange = { path: 'creation_ldif', before: LDIF, after: LDIF_CHANGED };
const secretChange: FieldChange = {
  path: 'bindpass',
  secret: true,
  note: 'changed since last apply',
  before: `${CANARY}\nline`,
  after: `${CANARY}\nother`,
};
const changes = plan([
  action('LDAPDynamicRole', 'ldap/dev', 'update', [ldifChange, { path: 'default_ttl', before: 3600, after: 7200 }]),
  action('LDAPConfig', 'ldap', 'update', [secretChange]),
  action('LDAPDynamicRole', 'ldap/new', 'create', [{ path: 'creation_ldif', after: 'dn: cn=x\nobjectClass: person' }]),
]);

/** The hunk of LDIF_CHANGED as the text reports print it, under a field eight spaces in. */
const TEXT_HUNK = [
  '        creation_ldif: 1 line added, 1 removed',
  '          @@ -17,7 +17,7 @@',
  '           description: line 17',
  '           description: line 18',
  '           description: line 19',
  '          -description: line 20',
  '          +description: line twenty',
  '           description: line 21',
].join('\n');

describe('every reporter shows multi-line values as line diffs', () => {
  it('the text plan (and apply, which prints it)', () => {
    const text = formatPlan(changes, plain).join('\n');
    expect(text).toContain(TEXT_HUNK);
    expect(text).not.toContain('description: line 3\n');
    expect(text).toContain('        default_ttl: 3600 -> 7200');
    expect(text).toContain(
      '  + create LDAPDynamicRole/ldap/new\n        creation_ldif: 2 lines added\n          @@ -0,0 +1,2 @@\n          +dn: cn=x',
    );
    expect(text).toContain('        bindpass: (secret) changed since last apply');
    expect(text).not.toContain(CANARY);
  });

  it('the plan as Markdown', () => {
    const md = formatPlanMarkdown(changes);
    expect(md).toContain(
      '<code>creation&#95;ldif</code>: 1 line added, 1 removed\n\n```diff\n@@ -17,7 +17,7 @@\n description: line 17',
    );
    expect(md).toContain('-description: line 20\n+description: line twenty\n');
    expect(md).toContain('| <code>default&#95;ttl</code> | <code>3600</code> | <code>7200</code> |');
    expect(md).not.toContain(CANARY);
  });

  it('the drift report as text, Markdown and JUnit', () => {
    const drift = report(changes);
    const text = formatDriftText(drift, plain).join('\n');
    expect(text).toContain(TEXT_HUNK);
    expect(text).toContain('  + missing LDAPDynamicRole/ldap/new\n        creation_ldif: 2 lines added');
    expect(text).toContain('bindpass: (sensitive) changed since last apply');

    const md = formatDriftMarkdown(drift);
    const section = md.slice(md.indexOf('<code>LDAPDynamicRole/ldap/dev</code>'), md.indexOf('</details>'));
    expect(section).toContain('| <code>default&#95;ttl</code> | <code>3600</code> | <code>7200</code> |');
    expect(section).toContain('<code>creation&#95;ldif</code>: 1 line added, 1 removed\n\n```diff\n@@ -17,7 +17,7 @@');
    expect(section).not.toContain('| <code>creation&#95;ldif</code>');
    expect(md.split('<details>').length).toBe(md.split('</details>').length);

    const junit = formatDriftJunit(drift);
    expect(junit).toContain('  creation_ldif: 1 line added, 1 removed\n    @@ -17,7 +17,7 @@');
    expect(junit).toContain('    +description: line twenty');
    for (const out of [text, md, junit]) expect(out).not.toContain(CANARY);
  });

  it('the drift Markdown tells a long diff in fewer lines when the report must shrink', () => {
    const long = Array.from({ length: 400 }, (_, i) => `description: ${'x'.repeat(60)} ${i}`).join('\n');
    const many = plan(
      Array.from({ length: 12 }, (_, i) =>
        action('LDAPDynamicRole', `ldap/r${i}`, 'update', [
          { path: 'creation_ldif', before: 'dn: cn=x\n', after: long },
        ]),
      ),
    );
    const md = formatDriftMarkdown(report(many));
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md).toMatch(/_and \d+ more diff line\(s\)_/);
    expect(md.split('```diff').length - 1).toBeGreaterThan(0);
    expect(md.split('<details>').length).toBe(md.split('</details>').length);
  });
});
