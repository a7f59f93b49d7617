/**
 * Typo correction against a catalog's vocabulary: a query word no tool holds is replaced by a
 * catalog word one edit away (a letter deleted, inserted, replaced, or two neighbours swapped),
 * never changing the first letter — people rarely mistype it, and most false fixes change it.
 */

/**
 * Whether `candidate` is one edit from `word` without touching its first letter: one letter
 * deleted, inserted or replaced after it, or two neighbours after it swapped.
 */
export function isOneEditAway(word: string, candidate: string): boolean {
  const n = word.length;
  const m = candidate.length;
  if (n === 0 || m === 0 || word.charCodeAt(0) !== candidate.charCodeAt(0)) return false;
  let i = 1;
  while (i < n && i < m && word.charCodeAt(i) === candidate.charCodeAt(i)) i++;
  if (n === m) {
    if (i === n) return false;
    // One letter replaced, or this letter and the next swapped.
    if (word.slice(i + 1) === candidate.slice(i + 1)) return true;
    return (
      i + 1 < n &&
      word.charCodeAt(i) === candidate.charCodeAt(i + 1) &&
      word.charCodeAt(i + 1) === candidate.charCodeAt(i) &&
      word.slice(i + 2) === candidate.slice(i + 2)
    );
  }
  if (m === n + 1) return word.slice(i) === candidate.slice(i + 1);
  if (m === n - 1) return word.slice(i + 1) === candidate.slice(i);
  return false;
}

/**
 * The best correction of `word` among `candidates` (catalog words; only those one edit away
 * count), or undefined. `preference` ranks them (higher wins, e.g. how many tools hold the word;
 * −∞ rules one out); ties go to the alphabetically first.
 */
export function correctWord(
  word: string,
  candidates: Iterable<string>,
  preference: (candidate: string) => number,
): string | undefined {
  let best: string | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const candidate of candidates) {
    if (!isOneEditAway(word, candidate)) continue;
    const score = preference(candidate);
    if (score === Number.NEGATIVE_INFINITY) continue;
    if (score > bestScore || (score === bestScore && best !== undefined && candidate < best)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
