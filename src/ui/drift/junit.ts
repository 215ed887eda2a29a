/**
 * Drift as JUnit XML, the report format every CI system shows as test
 * results: one test suite per kind, one test case per declared object (in
 * sync passes, anything else fails with its field changes), and unmanaged
 * objects as skipped cases (failures with `--fail-on-unmanaged`). Pure.
 */

import pc from 'picocolors';
import type { PolicyResult } from '../../policy/evaluate.ts';
import { groupByKind } from '../../reconcile/group-by-kind.ts';
import { escapeXml, escapeXmlAttribute } from '../xml.ts';
import { changeLines, type DriftObject, type DriftReport, type DriftUnmanaged, stateLabel } from './report.ts';

/** A report file is read in a CI system's page: no colour codes. */
const PLAIN = pc.createColors(false);

interface Case {
  kind: string;
  name: string;
  /** Absent: the case passes. */
  failure?: { type: string; message: string; body: string };
  skipped?: string;
  out?: string;
}

export function formatDriftJunit(report: DriftReport): string {
  const all = [
    ...report.objects.map(objectCase),
    ...report.unmanaged.map((u) => unmanagedCase(u, report.unmanagedIsDrift === true)),
    ...(report.policies?.results ?? []).map(policyCase),
  ];
  const timestamp = `timestamp="${escapeXmlAttribute(report.generatedAt)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="converge drift" ${tally(all)} ${timestamp}>`,
  ];
  for (const [kind, cases] of groupByKind(all)) {
    lines.push(`  <testsuite name="${escapeXmlAttribute(`converge drift: ${kind}`)}" ${tally(cases)} ${timestamp}>`);
    for (const c of cases) lines.push(...caseXml(c));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** The counting attributes of a suite. */
function tally(cases: readonly Case[]): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  return `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
}

function objectCase(object: DriftObject): Case {
  const c: Case = { kind: object.kind, name: object.key };
  if (object.notes.length > 0) c.out = object.notes.join('\n');
  if (object.state === 'in-sync') return c;
  const what = stateLabel(object);
  const reason = object.reason ? ` (${object.reason})` : '';
  const fields = object.changes.map((ch) => ch.path);
  const message =
    fields.length > 0
      ? `${what}: ${fields.slice(0, 10).join(', ')}${fields.length > 10 ? `, and ${fields.length - 10} more` : ''}`
      : `${what}${reason}`;
  const body = [
    `${object.key} is ${what}${reason}.`,
    ...(object.changes.length > 0 ? ['Fields (live -> manifest):'] : []),
    ...object.changes.flatMap((ch) => changeLines(ch, object.state, 200, PLAIN)).map((line) => `  ${line}`),
  ].join('\n');
  c.failure = { type: object.state, message, body };
  return c;
}

/** One case per policy and object, in a suite per policy: a denial fails, a warning passes with its message. */
function policyCase(result: PolicyResult): Case {
  const c: Case = { kind: `Policy ${result.policy}`, name: result.object };
  const where = result.source ? ` (${result.source.file}:${result.source.line})` : '';
  if (result.outcome === 'deny') {
    c.failure = { type: 'policy-denied', message: result.message, body: `${result.object}${where}: ${result.message}` };
  } else if (result.outcome === 'warn') {
    c.out = `warning: ${result.object}${where}: ${result.message}`;
  }
  return c;
}

function unmanagedCase(u: DriftUnmanaged, isDrift: boolean): Case {
  const message = `unmanaged: live object in no manifest${u.prunable ? ' (--prune would delete it)' : ''}`;
  const c: Case = { kind: u.kind, name: u.key };
  if (isDrift) c.failure = { type: 'unmanaged', message, body: message };
  else c.skipped = message;
  return c;
}

function caseXml(c: Case): string[] {
  const open = `    <testcase classname="${escapeXmlAttribute(c.kind)}" name="${escapeXmlAttribute(c.name)}" time="0"`;
  const inner: string[] = [];
  if (c.failure) {
    inner.push(
      `      <failure type="${escapeXmlAttribute(c.failure.type)}" message="${escapeXmlAttribute(c.failure.message)}">` +
        `${escapeXml(c.failure.body)}</failure>`,
    );
  }
  if (c.skipped !== undefined) inner.push(`      <skipped message="${escapeXmlAttribute(c.skipped)}"/>`);
  if (c.out) inner.push(`      <system-out>${escapeXml(c.out)}</system-out>`);
  if (inner.length === 0) return [`${open}/>`];
  return [`${open}>`, ...inner, '    </testcase>'];
}
