/**
 * Typo correction against a catalog's vocabulary: a query word no tool holds is replaced by a
 * catalog word one edit away (a letter deleted, inserted, replaced, or two neighbours swapped),
 * never changing the first letter — people rarely mistype it, and most false fixes change it.
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Every string one edit from `word` that keeps its first letter. */
export function editsKeepingFirstLetter(word: string): Set<string> {
  const edits = new Set<string>();
  const n = word.length;
  for (let i = 1; i <= n; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (i < n) edits.add(head + tail.slice(1));
    if (i < n - 1) edits.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LETTERS) {
      if (i < n && letter !== tail[0]) edits.add(head + letter + tail.slice(1));
      edits.add(head + letter + tail);
    }
  }
  edits.delete(word);
  return edits;
}

/**
 * The best correction of `word` among `vocabulary`, or undefined. `preference` ranks candidates
 * (higher wins, e.g. how many tools hold the word); ties go to the alphabetically first.
 */
export function correctWord(
  word: string,
  vocabulary: { has(word: string): boolean },
  preference: (candidate: string) => number,
): string | undefined {
  let best: string | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const candidate of editsKeepingFirstLetter(word)) {
    if (!vocabulary.has(candidate)) continue;
    const score = preference(candidate);
    if (score === Number.NEGATIVE_INFINITY) continue;
    if (score > bestScore || (score === bestScore && best !== undefined && candidate < best)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
