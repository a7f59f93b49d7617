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
    return sameFrom(word, i + 1, candidate, i + 1) || swapsAt(word, candidate, i);
  }
  if (m === n + 1) return sameFrom(word, i, candidate, i + 1);
  if (m === n - 1) return sameFrom(word, i + 1, candidate, i);
  return false;
}

/**
 * `a.slice(i) === b.slice(j)` without the copies: a typo is checked against hundreds of catalog
 * words, and the slices were most of a fresh index's typo reading.
 */
function sameFrom(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (let k = 0; i + k < a.length; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/** Whether `candidate` is `word` with two neighbouring letters swapped (`lsit`, `list`). */
export function isNeighbourSwap(word: string, candidate: string): boolean {
  if (word.length !== candidate.length) return false;
  let i = 0;
  while (i < word.length && word.charCodeAt(i) === candidate.charCodeAt(i)) i++;
  return swapsAt(word, candidate, i);
}

/** Whether the two same-length words differ only by letters `i` and `i + 1` swapped. */
function swapsAt(word: string, candidate: string, i: number): boolean {
  return (
    i + 1 < word.length &&
    word.charCodeAt(i) === candidate.charCodeAt(i + 1) &&
    word.charCodeAt(i + 1) === candidate.charCodeAt(i) &&
    sameFrom(word, i + 2, candidate, i + 2)
  );
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
