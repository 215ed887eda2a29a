/**
 * parseTemplate: the entry point the emulator uses. Parsing happens once, when
 * a role is written, so a broken template is refused then with a line:col;
 * render then runs the parsed form for every credential.
 */
import { type ParseOptions, parse } from './parser.ts';
import { type RenderOptions, renderParsed, type TemplateData } from './render.ts';

export interface Template {
  source: string;
  /** The fields the template references, each once, in order of first use. */
  fields: string[];
  /** Throws TemplateError (a missing field, a function error) with the line:col of the action. */
  render(data: TemplateData, options?: RenderOptions): string;
}

/** Throws TemplateError. */
export function parseTemplate(text: string, options: ParseOptions = {}): Template {
  const parsed = parse(text, options);
  const ldif = options.ldif === true;
  return {
    source: text,
    fields: [...new Set(parsed.fieldRefs.map((f) => f.name))],
    render: (data, renderOptions = {}) =>
      renderParsed(text, parsed, data, { ...renderOptions, ldif: renderOptions.ldif ?? ldif }).output,
  };
}
