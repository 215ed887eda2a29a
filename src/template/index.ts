/**
 * A Go text/template-compatible subset for the LDAP secrets engine's username
 * and LDIF templates, shared by the emulator (which renders them) and
 * `converge validate` (which checks them offline). See docs in each module:
 * lexer.ts and parser.ts for the syntax and what is refused, functions.ts for
 * the functions and their Vault semantics.
 */
export { checkTemplate, type TemplateCheck, type TemplateProblem } from './check.ts';
export { DEFAULT_USERNAME_TEMPLATE, LDIF_FIELDS, USERNAME_FIELDS } from './fields.ts';
export {
  BUILTIN_FUNCTIONS,
  type CallContext,
  type ParamType,
  type TemplateFunction,
  type TemplateFunctions,
} from './functions.ts';
export type { ParseOptions } from './parser.ts';
export type { RenderOptions, TemplateData } from './render.ts';
export { parseTemplate, type Template } from './template.ts';
export { TemplateError } from './template-error.ts';
