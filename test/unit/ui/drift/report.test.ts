import { describe, expect, it } from 'vitest';
import { displayUrl, driftChange, summarize } from '../../../../src/ui/drift/report.ts';
import { action, CANARY, mixedPlan, plan, report, unmanaged } from './builders.ts';

describe('the drift report model', () => {
  it('counts each declared object by state, per kind and in total', () => {
    const r = report(mixedPlan());
    expect(r.counts).toEqual({ objects: 7, inSync: 2, drifted: 3, missing: 1, toDelete: 1, unmanaged: 2 });
    const tools = r.kinds.find((k) => k.kind === 'ToolVersion');
    expect(tools).toMatchObject({ objects: 4, inSync: 1, drifted: 1, missing: 1, toDelete: 1, unmanaged: 1 });
    // a kind with only unmanaged objects still gets a row
    expect(r.kinds.find((k) => k.kind === 'PolicyVersion')).toMatchObject({ objects: 0, unmanaged: 1 });
    expect(r.inSync).toBe(false);
  });

  it('is in sync when every action is a no-op, even with unmanaged objects', () => {
    const p = plan([action('ToolVersion', '1.9.8', 'noop')], [unmanaged('ToolVersion', '1.0.0', false)]);
    expect(report(p).inSync).toBe(true);
    expect(summarize(report(p))).toBe('No drift: 1 object(s) match the manifests; 1 unmanaged.');
  });

  it('counts unmanaged objects as drift when asked to', () => {
    const p = plan([action('ToolVersion', '1.9.8', 'noop')], [unmanaged('ToolVersion', '1.0.0', false)]);
    const r = report(p, { unmanagedIsDrift: true });
    expect(r.inSync).toBe(false);
    expect(summarize(r)).toMatch(/^Drift: 0 of 1 object\(s\) differ.*; 1 unmanaged\.$/);
  });

  it('drops the values of a secret change, keeping its path and note', () => {
    const change = driftChange({ path: 'password', secret: true, before: CANARY, after: CANARY, note: 'changed' });
    expect(change).toEqual({ path: 'password', secret: true, note: 'changed' });
    expect(JSON.stringify(report(mixedPlan()))).not.toContain(CANARY);
  });

  it('keeps null as a value and leaves an unset side out', () => {
    expect(driftChange({ path: 'a', before: null, after: 'x' })).toEqual({
      path: 'a',
      secret: false,
      before: null,
      after: 'x',
    });
    expect(driftChange({ path: 'a', after: 1 })).toEqual({ path: 'a', secret: false, after: 1 });
  });

  it('summarises drift in one line', () => {
    expect(summarize(report(mixedPlan()))).toBe(
      'Drift: 5 of 7 object(s) differ from the manifests (3 drifted, 1 missing, 1 to delete); 2 unmanaged.',
    );
  });

  it('shows server URLs without credentials, query or fragment', () => {
    expect(displayUrl('https://user:pass@tfe.example.com:8443/base/?token=abc#x')).toBe(
      'https://tfe.example.com:8443/base',
    );
    expect(displayUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(displayUrl('not a url')).toBe('(invalid URL)');
  });
});
