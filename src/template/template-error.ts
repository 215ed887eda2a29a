/**
 * The one error type of the template language. Parse problems and render
 * problems both carry the 1-based line and column inside the template text, so
 * that `converge validate` can point at the offending action and the emulator
 * can answer with the same place Vault would name.
 */

/** A 1-based place in the template text (columns count UTF-16 code units, like the manifest loader). */
export interface TemplatePosition {
  line: number;
  col: number;
}

export class TemplateError extends Error {
  readonly line: number;
  readonly col: number;
  /** 0-based offset into the template text, for callers that map it into a larger file. */
  readonly offset: number;
  /**
   * The render passed one of the bounds on size and work (./limits.ts): the template is well formed
   * but asks for too much, which the emulator answers as bad input (400) rather than as the
   * engine's failed check of a template (500).
   */
  readonly limit: boolean;

  constructor(message: string, source: string, offset: number, limit = false) {
    super(message);
    this.name = 'TemplateError';
    const at = positionAt(source, offset);
    this.line = at.line;
    this.col = at.col;
    this.offset = offset;
    this.limit = limit;
  }
}

/**
 * Thrown by a template function (bad length, unsupported printf verb, ...).
 * The renderer knows where the call is, so it turns this into a TemplateError
 * at the call's position; functions themselves stay position-free.
 */
export class TemplateFunctionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateFunctionError';
  }
}

/** A function's result would pass a bound on size (./limits.ts). */
export class TemplateLimitError extends TemplateFunctionError {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateLimitError';
  }
}

/** Line and column of `offset`; only `\n` ends a line, as in Go's text/template. */
export function positionAt(source: string, offset: number): TemplatePosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: end - lineStart + 1 };
}
