/**
 * Policy results for people and machines, one model for every output: text
 * lines, a JSON summary, a Markdown section (the drift report's, the plan's,
 * and any other Markdown report's) and the error a denial stops a run with.
 * Pure, but for reportPolicies, which writes to the output it is given.
 */
import { ConvergeError, formatPosition } from '../errors.ts';
import type { Colors } from '../ui/colors.ts';
import { escapeMarkdownHtml, mdCode } from '../ui/markdown.ts';
import type { Output } from '../ui/output.ts';
import { terminalLine } from '../ui/terminal-text.ts';
import type { Evaluation, PolicyResult } from './evaluate.ts';

export interface PolicySummary {
  /** Policy-and-object pairs evaluated. */
  evaluated: number;
  denied: number;
  warned: number;
  /** The violations (denials, then warnings), in the order found. */
  violations: PolicyResult[];
  /** Every result kept: the violations, and the passes when they were asked for (a JUnit report's cases). */
  results: readonly PolicyResult[];
}

export function summarizePolicies({ evaluated, results }: Evaluation): PolicySummary {
  const denials = results.filter((r) => r.outcome === 'deny');
  const warnings = results.filter((r) => r.outcome === 'warn');
  return {
    evaluated,
    denied: denials.length,
    warned: warnings.length,
    violations: [...denials, ...warnings],
    results,
  };
}

/**
 * `denied by policy ssh-ttl-cap: SSHRole/ssh/web (base/ssh.yaml:3:1): SSH certificates live at most 24h`.
 * The object may be a live one no manifest names (a prune), its name written by whoever made it:
 * its control characters are shown, never run, as in every other text report.
 */
export function violationLine(r: PolicyResult): string {
  const where = r.source ? ` (${formatPosition(r.source)})` : '';
  const verdict = r.outcome === 'deny' ? 'denied by' : 'warning from';
  return terminalLine(`${verdict} policy ${r.policy}: ${r.object}${where}: ${r.message}`);
}

/** The count line every report ends its policy part with. */
export function policyCountLine(s: PolicySummary): string {
  return `Policies: ${s.evaluated} check(s), ${s.denied} denied, ${s.warned} warning(s).`;
}

/** Text lines: each violation, then the count; nothing when no policy matched anything. */
export function policyTextLines(s: PolicySummary): string[] {
  if (s.evaluated === 0) return [];
  return [...s.violations.map(violationLine), policyCountLine(s)];
}

/** The JSON form (`--json` outputs and the drift report's `policies`). */
export function policyJson(s: PolicySummary) {
  return {
    evaluated: s.evaluated,
    denied: s.denied,
    warned: s.warned,
    violations: s.violations.map((r) => ({
      policy: r.policy,
      outcome: r.outcome,
      object: r.object,
      kind: r.kind,
      message: r.message,
      ...(r.source && { source: formatPosition(r.source) }),
    })),
  };
}

export interface PolicyMarkdownOptions {
  /**
   * Violations listed in the table, denials first; the rest are counted under it. A report that
   * shrinks to fit a comment (src/ui/markdown.ts, fitToLimit) shrinks this with its other
   * sections, so that hundreds of warnings do not leave no room for the objects.
   */
  rows?: number;
  heading?: string;
}

/** A Markdown section: a table of the violations, or one line saying all passed. */
export function policyMarkdown(s: PolicySummary, options: PolicyMarkdownOptions = {}): string[] {
  const { rows = Number.POSITIVE_INFINITY, heading = '###' } = options;
  if (s.evaluated === 0) return [];
  const lines = [`${heading} Policies`, '', policyCountLine(s)];
  const shown = s.violations.slice(0, rows);
  if (shown.length > 0) {
    lines.push('', '| Result | Policy | Object | Manifest | Message |', '|---|---|---|---|---|');
    for (const r of shown) lines.push(violationRow(r));
  }
  const rest = s.violations.slice(shown.length);
  if (rest.length > 0) lines.push('', notListed(rest, shown.length > 0));
  return lines;
}

function violationRow(r: PolicyResult): string {
  const where = r.source ? mdCode(formatPosition(r.source)) : '';
  const result = r.outcome === 'deny' ? '❌ denied' : '⚠️ warning';
  return `| ${result} | ${mdCode(r.policy)} | ${mdCode(r.object)} | ${where} | ${escapeMarkdownHtml(r.message)} |`;
}

/** `_and 2 more denial(s) and 350 more warning(s) not listed here; ..._` */
function notListed(rest: readonly PolicyResult[], after: boolean): string {
  const denied = rest.filter((r) => r.outcome === 'deny').length;
  const more = after ? 'more ' : '';
  const counts = [
    ...(denied > 0 ? [`${denied} ${more}denial(s)`] : []),
    ...(rest.length > denied ? [`${rest.length - denied} ${more}warning(s)`] : []),
  ];
  return `_${after ? 'and ' : ''}${counts.join(' and ')} not listed here; the JSON report (\`--format json\`) lists every one._`;
}

/** The text lines (in yellow), then the denial error when a policy denied: `validate` and `apply` as text. */
export function reportPolicies(output: Output, colors: Colors, s: PolicySummary): void {
  for (const line of policyTextLines(s)) output.out(colors.yellow(line));
  if (s.denied > 0) throw denialError(s);
}

/** The error a run stops with when a policy denies; the violations themselves were printed before it. */
export function denialError(s: PolicySummary): ConvergeError {
  const policies = [...new Set(s.violations.filter((r) => r.outcome === 'deny').map((r) => r.policy))];
  return new ConvergeError(
    'POLICY_DENIED',
    `${s.denied} policy violation(s) (${policies.join(', ')}): nothing was sent to any API`,
    { hint: 'change the manifests (or the policy) so that the rules above hold' },
  );
}
