import { describe, expect, it } from 'vitest';
import { formatDriftJunit } from '../../../../src/ui/drift/junit.ts';
import { action, CANARY, mixedPlan, plan, report } from './builders.ts';
import { all, parseXml } from './xml.ts';

describe('drift as JUnit XML', () => {
  const xml = formatDriftJunit(report(mixedPlan()));
  const root = parseXml(xml);

  it('is well-formed: one testsuite per kind, one testcase per object', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(root.name).toBe('testsuites');
    const suites = all(root, 'testsuite');
    expect(suites.map((s) => s.attributes.name)).toEqual([
      'converge drift: GeneralSettings',
      'converge drift: SMTPSettings',
      'converge drift: SMSSettings',
      'converge drift: ToolVersion',
      'converge drift: PolicyVersion',
    ]);
    const tools = suites.find((s) => s.attributes.name === 'converge drift: ToolVersion')!;
    expect(tools.attributes).toMatchObject({ tests: '5', failures: '3', skipped: '1' });
    expect(tools.children.map((c) => c.attributes.name)).toEqual([
      'ToolVersion/1.10.0',
      'ToolVersion/1.9.8',
      'ToolVersion/1.2.0',
      'ToolVersion/1.3.0',
      'ToolVersion/0.9.0',
    ]);
    expect(all(root, 'testcase').every((c) => c.attributes.classname && c.attributes.name)).toBe(true);
    expect(root.attributes).toMatchObject({ tests: '9', failures: '5', skipped: '2' });
  });

  it('passes objects in sync and fails drifted ones with their field changes', () => {
    const cases = all(root, 'testcase');
    const inSync = cases.find((c) => c.attributes.name === 'ToolVersion/1.9.8')!;
    expect(inSync.children).toEqual([]);
    const general = cases.find((c) => c.attributes.name === 'GeneralSettings')!;
    const failure = general.children.find((c) => c.name === 'failure')!;
    expect(failure.attributes).toEqual({ type: 'drifted', message: 'drifted: api-rate-limit, plan-timeout' });
    expect(failure.text).toContain('api-rate-limit: 250 -> 60');
    expect(failure.text).toContain('plan-timeout: 18000 -> 10800');
    const missing = cases.find((c) => c.attributes.name === 'ToolVersion/1.10.0')!;
    expect(missing.children[0]?.attributes.type).toBe('missing');
  });

  it('shows unmanaged objects as skipped, or as failures with --fail-on-unmanaged', () => {
    const skipped = all(root, 'testcase').find((c) => c.attributes.name === 'PolicyVersion/0.1.0')!;
    expect(skipped.children[0]?.name).toBe('skipped');
    const strict = parseXml(formatDriftJunit(report(mixedPlan(), { unmanagedIsDrift: true })));
    const failed = all(strict, 'testcase').find((c) => c.attributes.name === 'PolicyVersion/0.1.0')!;
    expect(failed.children[0]?.name).toBe('failure');
    expect(strict.attributes.failures).toBe('7');
  });

  it('writes notes of objects in sync as system-out', () => {
    const sms = all(root, 'testcase').find((c) => c.attributes.name === 'SMSSettings')!;
    expect(sms.children.map((c) => c.name)).toEqual(['system-out']);
    expect(sms.children[0]?.text).toContain('auth-token is write-only');
  });

  it('marks secrets as (sensitive) and never includes their values', () => {
    expect(xml).toContain('password: (sensitive) changed since last apply');
    expect(xml).not.toContain(CANARY);
  });

  it('escapes names, messages and values, and drops characters XML forbids', () => {
    const nasty = 'a<b>&"c\'\u0001\ud800';
    const p = plan([action('ToolVersion', nasty, 'update', [{ path: `f<&>${'"'}`, before: nasty, after: ']]>' }])]);
    const text = formatDriftJunit(report(p));
    const parsed = parseXml(text);
    const tc = all(parsed, 'testcase')[0]!;
    expect(tc.attributes.name).toBe('ToolVersion/a<b>&"c\'\ufffd\ufffd');
    const failure = tc.children[0]!;
    expect(failure.attributes.message).toBe('drifted: f<&>"');
    expect(failure.text).toContain('f<&>": "a<b>&\\"c\'\\u0001\\ud800" -> "]]>"');
    expect(text).not.toContain('\u0001');
  });

  it('keeps newlines in a message attribute as character references', () => {
    const p = plan([action('ToolVersion', 'x', 'delete', [], { reason: 'line one\nline two' })]);
    const failure = all(parseXml(formatDriftJunit(report(p))), 'failure')[0]!;
    expect(failure.attributes.message).toBe('to delete (line one\nline two)');
  });
});

describe('the XML checker used above', () => {
  it('rejects what is not well-formed', () => {
    for (const bad of [
      '<a><b></a></b>',
      '<a x="1" x="2"/>',
      '<a>&bogus;</a>',
      '<a>1 < 2</a>',
      '<a x=1/>',
      '<a/><b/>',
      '<a>',
    ]) {
      expect(() => parseXml(bad), bad).toThrow();
    }
    expect(parseXml('<a x="&lt;&#10;"><b/>t&amp;</a>')).toMatchObject({ attributes: { x: '<\n' }, text: 't&' });
  });
});
