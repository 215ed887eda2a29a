import { distance } from 'fastest-levenshtein';

/**
 * The candidate a typo most likely meant, if one is close enough to be worth
 * suggesting. Case is ignored: `generalsettings` suggests `GeneralSettings`.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return bestDistance <= limit && bestDistance < word.length ? best : undefined;
}

export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closest(word, candidates);
  return match === undefined ? '' : `; did you mean "${match}"?`;
}

/**
 * A kind no provider has, told the same wherever it is named (a manifest, a policy, a policy
 * test's example, the configuration): the nearest kind, or else every kind (`orElse`: what else
 * the place accepts, such as `*`).
 */
export function unknownKind(kind: string, kinds: Iterable<string>, orElse = ''): string {
  const names = [...kinds];
  return `unknown kind "${kind}"${didYouMean(kind, names) || `; expected one of: ${names.sort().join(', ')}${orElse}`}`;
}
