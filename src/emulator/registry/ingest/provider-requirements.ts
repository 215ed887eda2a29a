/**
 * The providers a module directory needs, as the registry lists them: every
 * entry of `terraform { required_providers { ... } }` with its version
 * constraint, plus the providers implied by what the module uses without
 * declaring them: a `provider "x"` block, and the prefix of each resource,
 * data source and ephemeral resource type (`aws_vpc` → `aws`), or its
 * `provider = x.alias` argument when it names one. Names are the module's local
 * names. `terraform_*` types belong to Terraform's built-in provider, which
 * no one installs, so it is left out.
 */
import type { Declarations } from './declarations.ts';
import { bodiesOf, stringAttribute, unwrapExpression } from './hcl-json.ts';

const BUILT_IN_PROVIDER = 'terraform';

export function providerRequirements(declared: Declarations): Array<{ name: string; version: string }> {
  const versions = new Map<string, string[]>();
  const need = (name: string, version = ''): void => {
    if (name === '' || name === BUILT_IN_PROVIDER) return;
    const known = versions.get(name) ?? [];
    if (version !== '' && !known.includes(version)) known.push(version);
    versions.set(name, known);
  };

  for (const { body } of declared.terraformBlocks) {
    for (const requirements of bodiesOf(body.required_providers)) {
      for (const [name, requirement] of Object.entries(requirements)) {
        // The pre-0.13 form is a bare constraint string: `aws = "~> 3.0"`.
        if (typeof requirement === 'string') need(name, requirement);
        else if (typeof requirement === 'object' && requirement !== null) {
          need(name, stringAttribute(requirement as Record<string, unknown>, 'version'));
        }
      }
    }
  }
  // The pre-0.13 way to constrain a version was inside the provider block.
  for (const { name, body } of declared.providerConfigs) need(name, stringAttribute(body, 'version'));
  for (const { type, body } of [...declared.resources.values(), ...declared.readOnlyResources.values()]) {
    const explicit = typeof body.provider === 'string' ? unwrapExpression(body.provider).split('.')[0] : undefined;
    need(explicit ?? type.split('_')[0] ?? '');
  }

  return [...versions]
    .map(([name, constraints]) => ({ name, version: constraints.join(', ') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
