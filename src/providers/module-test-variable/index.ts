/**
 * Test variables of a private module (docs/kinds.md, ModuleTestVariable):
 * environment variables its test runs get. A JSON:API collection under its
 * module: owned in the organization, addressed `<module name>/<provider>/<key>`
 * (built from the module's address), listed per module in one answer
 * without pages, and a module without variables (or not created yet) answers
 * its list with 404. A sensitive value is written once and never shown
 * again: write-only, compared through the fingerprint store; `sensitive`
 * cannot be turned off in place.
 */
import { organizationModules, testsPath } from '../registry-module/api.ts';
import { listedModule, MODULE_IDENTITY, MODULE_KIND, moduleParts } from '../registry-module/names.ts';
import { jsonApiCollectionProvider } from '../shared/jsonapi-collection.ts';
import { flag, text } from '../shared/rules.ts';

export const moduleTestVariable = jsonApiCollectionProvider({
  kind: 'ModuleTestVariable',
  type: 'vars',
  key: 'key',
  unpaged: true,
  parent: {
    kind: MODULE_KIND,
    identity: MODULE_IDENTITY,
    path: (module) => {
      const { organization, name, provider } = moduleParts(module);
      return `${testsPath(organization, name, provider)}/vars`;
    },
    // `metadata.module` is the module's name as its address writes it (`<name>/<provider>`)
    address: (metadata) => ({ kind: MODULE_KIND, scope: metadata.organization ?? '', name: metadata.module ?? '' }),
    metadata: (module) => ({ organization: module.scope ?? '', module: module.name }),
    // only private modules have tests
    async inScope(ctx, organization) {
      const modules = await organizationModules(ctx, organization);
      return modules
        .filter((m) => m.attributes['registry-name'] === 'private')
        .map((m) => listedModule(organization, m.attributes));
    },
  },
  fields: {
    // a sensitive value cannot be read back: write-only for that variable only. Left out, a
    // sensitive value is not managed (an export without placeholders leaves it out): the `""`
    // default would blank the live secret. An empty one from a placeholder is refused, as for
    // every secret (an unfilled `.env.example` line sourced as `NAME=`)
    value: {
      default: (fields) => (fields.sensitive === true ? undefined : ''),
      writeOnly: (fields) => fields.sensitive === true,
    },
    description: text(''),
    category: text('env'),
    sensitive: { ...flag(false), immutable: true },
  },
});
