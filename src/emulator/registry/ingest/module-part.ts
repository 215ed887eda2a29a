/**
 * One module directory (the root, or `modules/x`) as the registry serves it:
 * its inputs, outputs, module calls, managed resources and providers, each
 * list sorted by name as the public registry lists them (hcl2json returns
 * blocks sorted by label anyway: it builds its JSON from Go maps, so the
 * order blocks were written in is not available).
 */
import { type ConfigFile, collectDeclarations, compare, type Declared } from './declarations.ts';
import { IngestError } from './errors.ts';
import { type Body, boolAttribute, stringAttribute } from './hcl-json.ts';
import { literalDefault } from './literal-default.ts';
import type { ModuleCall, ModuleOutput, ModulePart, ModuleVariable } from './module-shape.ts';
import { providerRequirements } from './provider-requirements.ts';
import { renderTypeExpression } from './type-expression.ts';

export function describeModulePart(path: string, files: ConfigFile[], readme: string): ModulePart {
  const declared = collectDeclarations(files);
  const byName = <T extends { name: string }>(items: T[]): T[] => items.sort((a, b) => compare(a.name, b.name));
  const inputs = byName([...declared.variables].map(([name, { body }]) => variable(name, body)));
  const outputs = byName([...declared.outputs].map(([name, { body }]) => output(name, body)));
  const dependencies = byName([...declared.moduleCalls].map(([name, call]) => moduleCall(name, call)));
  const resources = [...declared.resources.values()]
    .map(({ name, type }) => ({ name, type }))
    .sort((a, b) => compare(a.type, b.type) || compare(a.name, b.name));
  const empty =
    inputs.length + outputs.length + dependencies.length + resources.length + declared.readOnlyResources.size === 0;
  return {
    path,
    readme,
    empty,
    inputs,
    outputs,
    dependencies,
    resources,
    providers: providerRequirements(declared),
  };
}

function variable(name: string, body: Body): ModuleVariable {
  const hasDefault = Object.hasOwn(body, 'default');
  const value = hasDefault ? literalDefault(body.default) : null;
  return {
    name,
    description: stringAttribute(body, 'description'),
    default: value,
    type: renderTypeExpression(body.type),
    // `default = null` makes a variable optional, unless null is refused (`nullable = false`).
    required: !hasDefault || (value === null && boolAttribute(body, 'nullable') === false),
    sensitive: boolAttribute(body, 'sensitive') === true,
  };
}

function output(name: string, body: Body): ModuleOutput {
  return {
    name,
    description: stringAttribute(body, 'description'),
    sensitive: boolAttribute(body, 'sensitive') === true,
  };
}

/** Terraform reads `source` before evaluating anything, so it must be a literal string. */
function moduleCall(name: string, { file, body }: Declared): ModuleCall {
  const source = body.source;
  if (typeof source !== 'string' || source === '') {
    throw new IngestError(`${file}: module "${name}": Missing required argument; "source" must be set`, 'config');
  }
  if (source.includes('${')) {
    throw new IngestError(`${file}: module "${name}": "source" must be a literal string, not an expression`, 'config');
  }
  return { name, source, version: stringAttribute(body, 'version') };
}
