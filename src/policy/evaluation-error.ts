/** Kept apart from cel.ts, so that evaluating (src/policy/evaluate.ts) never loads the CEL library itself. */
/**
 * Why a rule could not be evaluated, without the library's message: that may quote the value
 * (`Invalid duration string: <a secret>`). The error's code and the part of the rule that
 * failed say what went wrong, and both come from the rule, never from the object.
 */
export function evaluationError(error: unknown, ruleText: string): string {
  const e = error as { code?: unknown; range?: { start: number; end: number } };
  const what = typeof e.code === 'string' && /^[a-z_]+$/.test(e.code) ? e.code.replace(/_/g, ' ') : 'evaluation error';
  const part = e.range ? ruleText.slice(e.range.start, e.range.end) : '';
  return part ? `${what} at \`${part}\`` : what;
}
