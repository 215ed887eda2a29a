/**
 * The values a command gives the manifests' variables: its `--var` and
 * `--var-file` flags, the environment and the configuration's `variables`
 * (src/manifest/variable-values.ts keeps them by precedence). A value the
 * configuration file gives is placed at its line when the file is YAML or JSON.
 */
import { readFileSync } from 'node:fs';
import type { ConvergeConfig } from '../config/load.ts';
import { parseDocuments } from '../manifest/documents.ts';
import { shownPath } from '../manifest/files.ts';
import { gatherValues } from '../manifest/variable-values.ts';
import type { GivenValues } from '../manifest/variables.ts';
import type { Position } from '../reconcile/types.ts';
import type { CommonFlags } from './flags.ts';

export function givenValues(
  flags: Pick<CommonFlags, 'var' | 'varFile'>,
  config: ConvergeConfig,
  env: Record<string, string | undefined>,
  cwd: string,
): GivenValues {
  const variables = config.variables;
  return gatherValues({
    flags: flags.var ?? [],
    flagFiles: flags.varFile ?? [],
    env,
    cwd,
    ...(variables && {
      config: { files: variables.files, values: variables.values, at: configPlaces(config.file, cwd) },
    }),
  });
}

/** Where the configuration file gives a variable's value (`variables.<name>`; under `converge` in package.json). */
function configPlaces(file: string | undefined, cwd: string): (name: string) => Position {
  const shown = file === undefined ? 'configuration' : shownPath(file, cwd);
  const fallback: Position = { file: shown, line: 1, col: 1 };
  if (file === undefined || /\.[cm]?[jt]s$/i.test(file)) return () => fallback;
  let doc: ReturnType<typeof parseDocuments>['documents'][number] | undefined;
  try {
    doc = parseDocuments(readFileSync(file, 'utf8'), shown).documents[0];
  } catch {
    return () => fallback;
  }
  const prefix = file.endsWith('package.json') ? 'converge.' : '';
  return (name) => doc?.values[`${prefix}variables.${name}`] ?? fallback;
}
