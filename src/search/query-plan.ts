import { isEnglishWord } from './common-words.js';
import { stem } from './stemmer.js';
import type { Correction } from './types.js';
import { correctWord } from './typo.js';

// Longer words are codes or pasted data, and their edits cost time for nothing.
const MAX_TYPO_LENGTH = 24;

/** One term to score: a query word's stem, or a synonym's at a lower weight. */
export interface QueryTerm {
  stem: string;
  termId: number;
  boost: number;
  /** False for a repeated query word and for synonyms: they add score, not coverage. */
  countsForCoverage: boolean;
  /** The query stem this term stands for (itself, or the word a synonym was added for). */
  source: string;
}

/** How the engine read a query. */
export interface QueryPlan {
  /** The query's stems in order (after corrections), repeats kept. */
  stems: string[];
  terms: QueryTerm[];
  /** Distinct stems some tool holds, in query order. */
  answerable: string[];
  /** Answerable stems left out of scoring (the most common ones of a long query). */
  unscored: string[];
  /** The rarest-term gate's stem and its id (-1 when no tool holds it); unset without that gate. */
  gateToken: string | undefined;
  gateTermId: number;
  corrections: Correction[];
  ignoredWords: string[];
  /** Words that look like the name of something no tool knows: they empty the result. */
  unknownWords: string[];
}

export interface QueryReaderSettings {
  gate: 'rarest-term' | 'unknown-name' | 'off';
  serviceNames: ReadonlySet<string>;
  unknownNameMaxQueryWords: number;
  unknownNameMaxWords: number;
  typoCorrection: boolean;
  typoMinLength: number;
  /** Score at most this many distinct answerable stems, the rarest; 0 = all. */
  maxQueryTerms: number;
  /** Stem → stems of its synonyms. */
  synonyms: ReadonlyMap<string, readonly string[]>;
  synonymWeight: number;
}

/** What a query is read against: the index's terms and words. */
export interface QueryLexicon {
  /** The term id of a stem, or -1 when no tool holds it. */
  termId(stem: string): number;
  /** Number of tools holding the term (0 for -1). */
  documentFrequency(termId: number): number;
  /** Whether some tool holds this lower-case word exactly as written. */
  holdsWord(word: string): boolean;
}

/** Reads queries against one index: its terms, its words and the gate settings. */
export class QueryReader {
  // The lexicon as the set interface typo correction asks for.
  private readonly vocabulary: { has(word: string): boolean };

  constructor(
    private readonly lexicon: QueryLexicon,
    private readonly settings: QueryReaderSettings,
  ) {
    this.vocabulary = { has: (word) => lexicon.holdsWord(word) };
  }

  read(words: readonly string[]): QueryPlan {
    const plan: QueryPlan = {
      stems: [],
      terms: [],
      answerable: [],
      unscored: [],
      gateToken: undefined,
      gateTermId: -1,
      corrections: [],
      ignoredWords: [],
      unknownWords: [],
    };
    const { gate } = this.settings;
    const seen = new Set<string>();
    let namesServices = false;
    for (const word of words) {
      let term = stem(word);
      let termId = this.lexicon.termId(term);
      // A service name counts only as written: `canva` is not a form of `canvas`.
      if (termId >= 0 && this.settings.serviceNames.has(word) && !this.knows(word)) termId = -1;
      if (termId < 0 && (gate === 'unknown-name' || this.settings.typoCorrection)) {
        const reading = this.readMissingWord(word);
        if (reading.correction !== undefined) {
          plan.corrections.push({ from: word, to: reading.correction });
          term = stem(reading.correction);
          termId = this.lexicon.termId(term);
        } else if (gate === 'unknown-name') {
          (reading.filler ? plan.ignoredWords : plan.unknownWords).push(word);
          namesServices ||= this.settings.serviceNames.has(word);
        }
      }
      plan.stems.push(term);
      if (termId < 0) {
        // A word no tool holds may still have a synonym that some tool does (`remove` → `delete`).
        if (!seen.has(term) && !plan.unknownWords.includes(word)) this.addSynonyms(term, plan);
        seen.add(term);
        continue;
      }
      const first = !seen.has(term);
      seen.add(term);
      if (first) plan.answerable.push(term);
      plan.terms.push({ stem: term, termId, boost: 1, countsForCoverage: first, source: term });
      if (first) this.addSynonyms(term, plan);
    }
    if (
      gate === 'unknown-name' &&
      !namesServices &&
      this.looksLikeData(words.length, plan.unknownWords.length)
    ) {
      plan.ignoredWords.push(...plan.unknownWords);
      plan.unknownWords = [];
    }
    this.keepRarest(plan);
    if (gate === 'rarest-term') this.setRarestGate(plan);
    return plan;
  }

  /** Leaves the most common answerable stems of a long query out of scoring. */
  private keepRarest(plan: QueryPlan): void {
    const max = this.settings.maxQueryTerms;
    if (max === 0 || plan.answerable.length <= max) return;
    const df = (term: string) => this.lexicon.documentFrequency(this.lexicon.termId(term));
    // A stable sort: equally common stems keep query order.
    const kept = new Set([...plan.answerable].sort((a, b) => df(a) - df(b)).slice(0, max));
    plan.unscored = plan.answerable.filter((term) => !kept.has(term));
    plan.terms = plan.terms.filter((term) => kept.has(term.source));
  }

  /**
   * Names that are not known services stop a query only when it reads like a search for a
   * service: short, with one or two such names. In a long sentence they are usually what the task
   * is about (cities, people, products); many of them at once are data (pasted text, codes).
   */
  private looksLikeData(queryWords: number, unknownWords: number): boolean {
    return (
      queryWords > this.settings.unknownNameMaxQueryWords || unknownWords > this.settings.unknownNameMaxWords
    );
  }

  /**
   * What a query word that no tool holds is: filler (English, a number, a word of one or two
   * letters), a typo of a catalog word, or a name — a known service or an unknown word.
   */
  private readMissingWord(word: string): { filler: boolean; correction?: string } {
    if (word.length <= 2 || /[0-9]/.test(word)) return { filler: true };
    if (this.settings.serviceNames.has(word)) return { filler: false };
    if (isEnglishWord(word)) return { filler: true };
    const { typoCorrection, typoMinLength } = this.settings;
    if (typoCorrection && word.length >= typoMinLength - 1 && word.length <= MAX_TYPO_LENGTH) {
      const correction = correctWord(word, this.vocabulary, (candidate) =>
        candidate.length < typoMinLength ? Number.NEGATIVE_INFINITY : this.documentFrequency(candidate),
      );
      if (correction !== undefined) return { filler: false, correction };
    }
    return { filler: false };
  }

  private addSynonyms(term: string, plan: QueryPlan): void {
    for (const synonym of this.settings.synonyms.get(term) ?? []) {
      const termId = this.lexicon.termId(synonym);
      if (termId < 0 || plan.terms.some((queryTerm) => queryTerm.stem === synonym)) continue;
      plan.terms.push({
        stem: synonym,
        termId,
        boost: this.settings.synonymWeight,
        countsForCoverage: false,
        source: term,
      });
    }
  }

  /** The reference gate: the stem with the lowest df (a df-0 stem beats all); ties go to the first. */
  private setRarestGate(plan: QueryPlan): void {
    let best = 0;
    const df = (i: number) => this.lexicon.documentFrequency(this.lexicon.termId(plan.stems[i]!));
    for (let i = 1; i < plan.stems.length; i++) if (df(i) < df(best)) best = i;
    plan.gateToken = plan.stems[best]!;
    plan.gateTermId = this.lexicon.termId(plan.gateToken);
  }

  private documentFrequency(word: string): number {
    return this.lexicon.documentFrequency(this.lexicon.termId(stem(word)));
  }

  private knows(word: string): boolean {
    return this.lexicon.holdsWord(word);
  }
}
