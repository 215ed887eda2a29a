/**
 * A kind named on the command line (`--target`, `--allow-replace`, `export
 * --kind`, `schema KIND`): as written, or the same kind in another case
 * (`sshcertificateauthority` is `SSHCertificateAuthority`); anything else is
 * an error naming the option, with a suggestion.
 */
import { ConvergeError } from '../errors.ts';
import { didYouMean } from '../manifest/suggest.ts';

export function resolveKind(kind: string, kinds: readonly string[], option?: string): string {
  if (kinds.includes(kind)) return kind;
  const sameLetters = kinds.find((k) => k.toLowerCase() === kind.toLowerCase());
  if (sameLetters) return sameLetters;
  const where = option === undefined ? '' : `${option} ${kind}: `;
  throw new ConvergeError('INPUT_INVALID', `${where}unknown kind "${kind}"${didYouMean(kind, kinds)}`, {
    hint: `kinds: ${kinds.join(', ')} (\`converge schema\` lists them)`,
  });
}
