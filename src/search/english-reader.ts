import {
  emptyQueryPlan,
  type LanguageData,
  type NameAssociations,
  type QueryLexicon,
  type QueryPlan,
  type QueryReader,
  type QueryReaderFactory,
  type QueryReaderSettings,
  type QueryWords,
  type RelatedWord,
  type WordLookUp,
} from './reading.js';
import { stem } from './stemmer.js';
import type { WordExpansion, WordFate, WordFateReason } from './types.js';
import { correctWord, isNeighbourSwap } from './typo.js';

/**
 * The default query reader, for English: which words carry the request, which are filler, typos
 * or names of absent services, and what related words bridge to the catalog. Its knowledge of
 * English comes from `LanguageData` (Node's loaders: `node/language-data.ts`); its phrase frames,
 * the places where a query names an app, are one data table (`ENGLISH_FRAMES`).
 */
export function englishReader(data: LanguageData): QueryReaderFactory {
  return (lexicon, settings) => new EnglishReader(lexicon, settings, data);
}

// Longer words are codes or pasted data, and their edits cost time for nothing.
const MAX_TYPO_LENGTH = 24;

/** `name@host.tld`, `scheme://…`, `www.…`. */
const MAIL_OR_URL =
  /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+|\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+|\bwww\.[^\s<>"']+/giu;
/** `host.tld` and its path; the last label must be a top-level domain. */
const DOMAIN = /\b(?:[\p{L}\p{N}-]+\.)+([a-z]{2,63})\b(?:\/[^\s<>"']*)?/giu;

/**
 * Which runs of the query stand inside an e-mail address, a URL or a domain (`jo@hotmail.com`,
 * `https://…`, `stripe.com/docs`); undefined when there is none, or no text.
 */
function addressRuns(query: QueryWords, data: LanguageData): boolean[] | undefined {
  const { text, runStarts, runEnds } = query;
  if (text === undefined || runStarts === undefined || runEnds === undefined) return undefined;
  if (!mayHoldAddress(text)) return undefined;
  const spans: [number, number][] = [];
  for (const found of text.matchAll(MAIL_OR_URL)) spans.push([found.index, found.index + found[0].length]);
  for (const found of text.matchAll(DOMAIN)) {
    // An app named by its domain (`Booking.com`, `Last.fm`) is a name, not an address.
    const app = data.isKnownApp(found[0].toLowerCase());
    if (!app && data.isTopLevelDomain(found[1]!.toLowerCase()))
      spans.push([found.index, found.index + found[0].length]);
  }
  if (spans.length === 0) return undefined;
  return runStarts.map((start, run) => spans.some(([from, to]) => start >= from && runEnds[run]! <= to));
}

/**
 * Whether `text` holds what every address above needs: `@`, `://`, or a dot after `www` or before
 * a letter (`stripe.com`). A sentence's own dots mostly end it: the patterns then need not run.
 */
function mayHoldAddress(text: string): boolean {
  if (text.includes('@') || text.includes('://')) return true;
  for (let at = text.indexOf('.'); at >= 0; at = text.indexOf('.', at + 1)) {
    const next = text.charCodeAt(at + 1);
    // Under the `iu` flags `[a-z]` also matches `ſ` and the Kelvin sign, which fold to `s` and `k`.
    if (isAsciiLetter(next) || next === 0x17f || next === 0x212a) return true;
    if (at >= 3 && text.slice(at - 3, at).toLowerCase() === 'www') return true;
  }
  return false;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** One word, then a colon, a `>` or a spaced dash: the query names where it should run. */
const LEADING_LABEL = /^\s*[\p{L}\p{N}]+\s*(?::|>|\s[-\u2013\u2014]\s)/u;
/** One word, then a comma (`zoho, list leads`, but also `yes, …`). */
const LEADING_COMMA_LABEL = /^\s*[\p{L}\p{N}]+\s*,/u;
/** A spaced dash and one word, or one word in brackets, to the end: where it should run, last. */
const TRAILING_LABEL = /(?:\s[-\u2013\u2014]\s*[\p{L}\p{N}]+|\(\s*[\p{L}\p{N}]+\s*\))\s*$/u;
/** A label is one short word: the end of a query is enough to look at, however long it is. */
const LABEL_TAIL_CHARS = 64;

/**
 * The English reader's phrase frames: the places where a query names the app it should run in
 * (docs/readme/engine.md, "The gate", says each in plain words). One table of data, so another
 * language's reader can bring its own; every frame was prompted by a tuned absent-service set
 * (`test/unit/search/fixtures/tuned-*`), which is why the one set measured once is the headline.
 */
export const ENGLISH_FRAMES = Object.freeze({
  /** A name after one of these, where its phrase ends: `create an invoice in zoho`, `… via pitch`. */
  channels: ['in', 'on', 'with', 'via', 'using', 'through', 'from', 'into', 'inside', 'within'],
  /**
   * After one of these (maybe with an owner between), where its phrase ends, a word written as a
   * name (a capital inside a sentence) that no tool holds names the app even in a long task (`…
   * and check which referrers sent the most traffic in Plausible.`). Not `with`, `from`, `to`:
   * people and places come after them (`a call with Priya`, `flights from Denver`).
   */
  nameChannels: ['in', 'on', 'via', 'using', 'through', 'into', 'inside', 'within'],
  /** A name right after one of these: `use zoho to …`, `open zoho and …`. */
  toolVerbs: ['use', 'using', 'via', 'through', 'open', 'have'],
  /** Two-word tool verbs: `go to zuora and …`. */
  toolPhrases: [
    ['go', 'to'],
    ['switch', 'to'],
  ],
  /** The one asked: `ask zoho to …`, `tell zoho to …`. */
  addressingVerbs: ['ask', 'tell', 'need', 'want'],
  /** Words a query may open with before the app's name: `can zoho …`, `hey zoho, …`. */
  openers: ['can', 'could', 'would', 'will', 'does', 'hey', 'please', 'ok'],
  /**
   * After a channel or a tool verb a word names a service only when its phrase ends there: at the
   * end, before punctuation, one of these words, a channel (`on gitlab from …`) or an action; not
   * inside a longer noun (`through rough patch`).
   */
  phraseEnds: ['and', 'to', 'for', 'then', 'or', 'today', 'now', 'please', 'after', 'before', 'about', 'by'],
  /** Before a word no dictionary knows, these mark it as a name too (`my zoho account`, `log into zoho`). */
  nameMarkers: ['my', 'our', 'your', 'into'],
  /**
   * Before a known app (only), a destination: `upload it to soundcloud as …`, `according to monzo?`.
   * Not before any name: `send it to priya` names a person.
   */
  appDestinations: ['to'],
  /** What follows is an account even when it is also English: `connect to bolt`, `log into willow`. */
  signInPhrases: [
    ['connect', 'to'],
    ['connecting', 'to'],
    ['log', 'into'],
    ['log', 'in', 'to'],
    ['login', 'to'],
    ['logged', 'into'],
    ['sign', 'into'],
    ['sign', 'in', 'to'],
    ['signed', 'into'],
  ],
  /** `my willow account`: a word between an owner and an account noun is an account's name. */
  owners: ['my', 'our', 'your', 'their', 'the'],
  accountNouns: [
    'app',
    'website',
    'site',
    'account',
    'accounts',
    'workspace',
    'workspaces',
    'tenant',
    'instance',
    'org',
  ],
} as const);

const CHANNELS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.channels);
const NAME_CHANNELS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.nameChannels);
const TOOL_VERBS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.toolVerbs);
const TOOL_PHRASES = ENGLISH_FRAMES.toolPhrases;
const ADDRESSING_VERBS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.addressingVerbs);
const OPENERS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.openers);
const PHRASE_ENDS: ReadonlySet<string> = new Set([...ENGLISH_FRAMES.phraseEnds, ...ENGLISH_FRAMES.channels]);
const NAME_MARKERS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.nameMarkers);
const SIGN_IN_PHRASES = ENGLISH_FRAMES.signInPhrases;
const OWNERS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.owners);
const ACCOUNT_NOUNS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.accountNouns);
const APP_DESTINATIONS: ReadonlySet<string> = new Set(ENGLISH_FRAMES.appDestinations);
/**
 * An everyday English word (`harvest`, `copper`) first, before an action, is read as an app's name
 * in a query of at most this many words (`harvest archive project`), or in a longer one that reads
 * as a sentence (`hamlet move a card to done`), not as keywords (`sprite move 3d space scratch`);
 * so is a known app named with one, before anything (`amazon order status`).
 */
const MAX_KEYWORDS_FOR_ENGLISH_FIRST = 5;
/**
 * In a query of at most this many words, English's commonest words are scored at
 * {@link COMMON_WORD_WEIGHT} instead of left out: in a short request they are often the request
 * (`take a picture`, `make a move`, `convert a time between time zones`), while a long task's are
 * its filler (`can you help me`).
 */
const COMMON_WORDS_WEIGHED_UP_TO = 7;
const COMMON_WORD_WEIGHT = 0.5;
/** An action word starts at least this many tool descriptions, and this share of those holding it. */
const MIN_ACTION_LEADS = 2;
const MIN_ACTION_SHARE = 0.02;
/**
 * A known app whose English word is rare — at most about once per million words (Zipf ≤ 3, the
 * low-frequency band of the Zipf scale) — is read as the app's name, not as that word: `asana`,
 * `yelp`, `loom` are apps first; `telegram`, `square`, `notion` stay English words.
 */
const RARE_WORD_ZIPF = 3;
/** The Zipf scale's high-frequency band starts here (`coffee` 5.2, `weather` 4.6; `lemonade` 3.8). */
const HIGH_FREQUENCY_ZIPF = 4;

/**
 * A name bridge needs at least this many of the tools holding the word (not in their names) named
 * with the action, this share of them, and this many times the action's share of all names.
 */
const MIN_BRIDGE_TOOLS = 2;
const MIN_BRIDGE_SHARE = 0.2;
const MIN_BRIDGE_LIFT = 3;
/** A query's action is among its first words: after a server's name at most (`twilio buy …`). */
const ACTION_WITHIN = 3;

const EDITION_NUMBER = /^[0-9]{1,4}$/;

const NO_TOOL_HOLDS_ENGLISH = 'no tool holds it: an everyday English word';

/** Why a scored word is left out, or scored below a query word (`weight` set). */
interface TermSelection {
  reason: WordFateReason;
  why: string;
  weight?: number;
}

/** A related word (`LanguageData.relatedWords`) that some tool holds: its stem and term. */
interface RelatedTerm extends RelatedWord {
  stem: string;
  termId: number;
}

/** A word of a two-word app that no tool holds (`microsoft teams`): why, and where it stands. */
interface AbsentPhraseWord {
  where: string;
  framed: boolean;
  second: boolean;
}

/** How a word no tool holds was read. */
type Missing =
  | { kind: 'filler' }
  | { kind: 'english' }
  | { kind: 'name' }
  | { kind: 'typo'; correction: string };

/** Reads queries against one index: its terms, its words and the gate settings. */
class EnglishReader implements QueryReader {
  // What each word is wherever it stands, worked out on first use: stem → the catalog actions it
  // bridges to in names; word → its stem and term, how it reads when no tool holds it, its related
  // words some tool holds, its frequency in English.
  private readonly nameBridges = new Map<string, readonly number[]>();
  private readonly lookUps = new Map<string, WordLookUp>();
  private readonly readings = new Map<string, Missing>();
  private readonly relatedTerms = new Map<string, readonly RelatedTerm[]>();
  private readonly zipfs = new Map<string, number>();
  private readonly englishWords = new Map<string, boolean>();
  // Held word → whether it is a known app the catalog holds only as a word (`heldOnlyAsWord`).
  private readonly absentAppWords = new Map<string, 'no' | 'english' | 'name'>();
  // Word → why it is weighed, or left out, as one of English's commonest words.
  private readonly weighedCommonWords = new Map<string, TermSelection>();
  private readonly unscoredCommonWords = new Map<string, TermSelection>();

  constructor(
    private readonly lexicon: QueryLexicon,
    private readonly settings: Readonly<QueryReaderSettings>,
    private readonly data: LanguageData,
  ) {}

  read(query: QueryWords): QueryPlan {
    const { words } = query;
    const plan = emptyQueryPlan();
    const { gate } = this.settings;
    const readsNames = gate === 'unknown-name';
    const seen = new Set<string>();
    // Unlisted names standing where a service is named: they empty the result unless the query
    // reads as a task description (see `looksLikeData`).
    let placedNames: string[] = [];
    const whyPlaced: Record<string, string> = {};
    // The run each name stands in: a camelCase name's parts are read too (`ZorBlat` → `zor`, `blat`).
    const runOfName = new Map<string, number>();
    const place = (word: string, why: string) => {
      placedNames.push(word);
      whyPlaced[word] = why;
    };
    // One of the user's services stops any query, and so does a known app after a channel or a tool
    // verb (`… on snapchat`, `via the trello api`); a known app elsewhere where a service is named
    // stops a long one unless the rest of it is answered without the app (see `answeredWithout`).
    let namesListedService = false;
    let namesKnownApp = false;
    // An app the catalog holds, named where a service is (`run an nginx image in docker`): the query
    // says where it runs, so the other names in it are its data; one of the user's services still stops it.
    let installedApp: string | undefined;
    let namesUsersService = false;
    let secondWordsOfApps = 0;
    const wordOf = new Map<string, string>();
    const inAddress = gate === 'unknown-name' ? addressRuns(query, this.data) : undefined;
    const absentPhrases = readsNames ? this.absentAppPhrases(query) : undefined;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const fate: WordFate = { word, stem: word, fate: 'dropped', reason: 'not-in-catalog', why: '' };
      plan.words.push(fate);
      if (inAddress?.[query.runOf[i]!] === true) {
        // `mail jo@hotmail.com`, `whois stripe.com`: an address is the request's data, not its words.
        fate.reason = 'address';
        fate.why = 'inside an e-mail or web address: data, not a request';
        plan.ignoredWords.push(word);
        continue;
      }
      runOfName.set(word, query.runOf[i]!);
      const found = this.lookUp(word);
      let term = found.stem;
      let termId = found.termId;
      if (readsNames && !found.held && inPath(query, query.runOf[i]!)) {
        // `star vercel/next.js`, `src/zorblat.ts`: a word no tool writes, inside a path, is data.
        fate.reason = 'name-as-data';
        fate.why = 'no tool holds it: inside a path or an owner/name pair, data';
        fate.stem = term;
        plan.stems.push(term);
        plan.ignoredWords.push(word);
        continue;
      }
      if (termId >= 0 && this.isNameHeldOnlyByStem(query, i)) termId = -1;
      // A word of a two-word app no tool holds (`my Microsoft Teams`) names no installed app.
      const phrase = absentPhrases?.get(query.runOf[i]!);
      if (
        readsNames &&
        termId >= 0 &&
        installedApp === undefined &&
        phrase === undefined &&
        this.namesInstalledApp(query, i)
      ) {
        installedApp = word;
      }
      namesUsersService ||= this.settings.serviceNames.has(word);
      if (phrase !== undefined && query.runs[query.runOf[i]!] === word) {
        // One app, though two words: it counts once against `unknownNameMaxWords`.
        if (phrase.second) secondWordsOfApps++;
        place(word, phrase.where);
        namesListedService ||= phrase.framed;
      } else if (readsNames && termId >= 0) {
        const absentApp = this.absentAppPlace(query, i, termId);
        if (absentApp !== undefined) {
          place(
            word,
            `a known app no installed tool is named for, where a service is named: ${absentApp.where}`,
          );
          namesListedService ||= absentApp.framed;
        }
      }
      if (termId < 0) fate.why = 'no tool holds it';
      if (termId < 0 && (readsNames || this.settings.typoCorrection)) {
        const reading = this.readMissing(word);
        if (reading.kind === 'filler') {
          fate.reason = 'filler';
          fate.why = 'no tool holds it: a number or a word of one or two letters';
        }
        const typoPlace = reading.kind === 'typo' ? this.typoAsName(query, i, reading.correction) : undefined;
        if (reading.kind === 'typo' && typoPlace !== undefined) {
          place(word, `one letter from "${reading.correction}", but where a service is named: ${typoPlace}`);
        } else if (reading.kind === 'typo') {
          plan.corrections.push({ from: word, to: reading.correction });
          fate.correctedTo = reading.correction;
          term = stem(reading.correction);
          termId = this.lexicon.termId(term);
        } else if (readsNames) {
          const listed =
            this.isListed(word) && !this.closesKeywords(query, i) && !followsOf(query.runs, query.runOf[i]!);
          // A known app, like any name, is data in a long sentence, unless it stands where a
          // service is named (`… on snapchat`, `via the trello api`); one of the user's never is.
          // A known app named with an English word is one when rare in English, or capitalized as a
          // name (`on Amazon`, `our Shortcut workspace`; a quoted word is a value: `the 'Electronics' category`).
          const knownApp =
            listed ||
            this.isRareWordApp(word) ||
            ((capitalizedInSentence(query, i) || inCapitals(query, i)) &&
              !quoted(query, i) &&
              this.namedLikeApp(query, i));
          const framed = knownApp && this.inChannelFrame(query, query.runOf[i]!);
          const namedInChannel = !knownApp && reading.kind !== 'filler' && this.namedInChannel(query, i);
          namesListedService ||= this.settings.serviceNames.has(word) || framed;
          // A name or known app signed into or owned as an account is the service in any sentence
          // (an English word there is too often something else: `my savings account`).
          namesListedService ||=
            (reading.kind === 'name' || knownApp) &&
            !this.data.isSubjectName(word) &&
            inAccountFrame(query.runs, query.runOf[i]!);
          // A name written as one after a channel stops a long query as a known app does: unless
          // the rest is answered without it (`the weather forecast in Zhongguancun`).
          namesKnownApp ||= (knownApp && this.servicePlace(query, i, false) !== undefined) || namedInChannel;
          // A known app in a channel's frame stops the query (above), so it is named as the absent
          // service there even where no other name would be (`according to rollbar`).
          const where =
            !listed && (reading.kind === 'name' || reading.kind === 'english')
              ? (this.servicePlace(query, i, reading.kind === 'english' && !writtenAsName(query, i)) ??
                (framed ? 'a known app after a channel, a tool verb, an action or "to"' : undefined) ??
                (namedInChannel ? 'written as a name after a channel, where its phrase ends' : undefined))
              : undefined;
          if (listed) {
            plan.unknownWords.push(word);
            plan.whyUnknown[word] = this.settings.serviceNames.has(word)
              ? 'a service on your list (serviceNames) that no installed tool mentions'
              : 'a known app (simple-icons, cspell company and software lists) that no installed tool mentions';
          } else if (where !== undefined) {
            const what =
              reading.kind === 'english'
                ? 'an everyday English word'
                : this.isEnglish(word)
                  ? 'a known app whose English word is rare'
                  : 'a name no dictionary knows';
            place(word, `${what}, where a service is named: ${where}`);
          } else {
            plan.ignoredWords.push(word);
            // An app named with a rare English word, where no service is named, is that word.
            if (reading.kind === 'english' || this.isEnglish(word)) fate.why = NO_TOOL_HOLDS_ENGLISH;
            else if (reading.kind === 'name') {
              fate.reason = 'name-as-data';
              fate.why = 'no tool holds it: a name, not where a service is named';
            }
          }
        }
      }
      fate.stem = term;
      plan.stems.push(term);
      if (termId < 0) {
        // A word no tool holds may still have a synonym that some tool does (`remove` → `delete`).
        if (!seen.has(term) && !plan.unknownWords.includes(word)) this.addSynonyms(term, plan);
        seen.add(term);
        continue;
      }
      const first = !seen.has(term);
      seen.add(term);
      if (first) {
        plan.answerable.push(term);
        wordOf.set(term, fate.correctedTo ?? word);
      }
      if (first || this.settings.countRepeatedTerms) {
        fate.fate = 'kept';
        plan.terms.push({
          stem: term,
          termId,
          boost: 1,
          countsForCoverage: first,
          nameWeight: 1,
          source: term,
        });
      } else {
        fate.reason = 'repeated';
        fate.why = `said before ("${term}")`;
      }
      if (first) this.addSynonyms(term, plan);
    }
    // A name written as one run is one name: its whole, not its parts as well.
    const namedRuns = new Set<number>();
    for (const word of [...plan.unknownWords, ...placedNames]) {
      if (query.runs[runOfName.get(word)!] === word) namedRuns.add(runOfName.get(word)!);
    }
    const isWhole = (word: string) => {
      const run = runOfName.get(word)!;
      return query.runs[run] === word || !namedRuns.has(run);
    };
    plan.ignoredWords.push(...[...plan.unknownWords, ...placedNames].filter((word) => !isWhole(word)));
    plan.unknownWords = plan.unknownWords.filter(isWhole);
    placedNames = placedNames.filter(isWhole);
    const whyUnscored = this.selectTerms(plan, wordOf, query.runs.length);
    const answered = namesKnownApp && !namesListedService && this.answeredWithout(plan);
    if (
      readsNames &&
      ((installedApp !== undefined && !namesUsersService) ||
        (!namesListedService &&
          (!namesKnownApp || answered) &&
          this.looksLikeData(
            query.runs.length,
            plan.unknownWords.length + placedNames.length - secondWordsOfApps,
          )))
    ) {
      for (const fate of plan.words) {
        if (plan.unknownWords.includes(fate.word) || placedNames.includes(fate.word)) {
          // An English word read as data is bridged to related words like any other (`my savings`).
          const english =
            this.readMissing(fate.word).kind === 'english' ||
            (this.isRareWordApp(fate.word) && this.isEnglish(fate.word));
          fate.reason = english ? 'not-in-catalog' : 'name-as-data';
          fate.why = english
            ? NO_TOOL_HOLDS_ENGLISH
            : installedApp !== undefined
              ? `no tool holds it: a name, but the query runs in "${installedApp}", an app the catalog holds`
              : answered
                ? "no tool holds it: an app's name where a service is named, but one tool holds most of the rest of this long query"
                : 'no tool holds it: a name, but in a long query or among many, so data';
        }
      }
      plan.ignoredWords.push(...plan.unknownWords, ...placedNames);
      plan.unknownWords = [];
    } else {
      plan.unknownWords = [...new Set([...plan.unknownWords, ...placedNames])];
      Object.assign(plan.whyUnknown, whyPlaced);
    }
    this.addRelatedWords(plan);
    this.addNameBridges(plan, whyUnscored);
    const unknown = new Set(plan.unknownWords);
    const expansions = expansionsBySource(plan);
    for (const fate of plan.words) {
      const why = unknown.has(fate.word) ? plan.whyUnknown[fate.word] : undefined;
      const selected = fate.fate === 'kept' ? whyUnscored.get(fate.stem) : undefined;
      const unscored = selected?.weight === undefined ? selected : undefined;
      if (why !== undefined) {
        fate.fate = 'unknown';
        fate.reason = 'absent-service';
        fate.why = why;
      } else if (unscored !== undefined) {
        fate.fate = 'dropped';
        fate.reason = unscored.reason;
        fate.why = unscored.why;
      } else if (fate.fate === 'kept') {
        fate.reason = selected?.reason ?? (fate.correctedTo === undefined ? 'scored' : 'corrected');
        fate.why =
          selected?.why ?? (fate.correctedTo === undefined ? 'scored' : `scored as "${fate.correctedTo}"`);
        const expanded = expansions.get(fate.stem);
        if (expanded !== undefined) fate.expandedTo = [...expanded];
      } else if (fate.why === NO_TOOL_HOLDS_ENGLISH) {
        const expanded = expansions.get(fate.stem);
        if (expanded !== undefined) {
          fate.fate = 'kept';
          fate.reason = 'related-words';
          fate.why = 'no tool holds it: scored through related words';
          fate.expandedTo = [...expanded];
        }
      }
    }
    if (gate === 'rarest-term') this.setRarestGate(plan);
    return plan;
  }

  /**
   * A listed service: one of the user's, or a known app whose name is no English word (`jira`,
   * `hubspot`); a known app named with an English word (`telegram`, `square`, `monday`) is read as
   * that word, which stops a query only where a service is named.
   */
  private isListed(word: string): boolean {
    return this.settings.serviceNames.has(word) || (this.isKnownApp(word) && !this.isEnglish(word));
  }

  /**
   * Whether word `i` closes the query as a bare keyword: the last run, right after a word that
   * names no place for a service (not a channel, a tool verb, an owner, a name marker, `to` or a
   * pause) and is no common English word, with no label around it. A known app there is what the
   * query is about (`geocode address openstreetmap`, `liabilities glaxosmithkline`): a query names
   * the app it runs in first or after a channel (`zendesk tickets`, `tickets in zendesk`).
   */
  private closesKeywords(query: QueryWords, i: number): boolean {
    const runs = query.runs;
    const run = query.runOf[i]!;
    if (run !== runs.length - 1 || run < 1 || query.pausesAfter?.[run - 1] === true) return false;
    const before = runs[run - 1]!;
    if (
      CHANNELS.has(before) ||
      TOOL_VERBS.has(before) ||
      OWNERS.has(before) ||
      NAME_MARKERS.has(before) ||
      PHRASE_ENDS.has(before) ||
      before === 'at' ||
      this.data.englishZipf(before) >= this.settings.commonWordZipf
    ) {
      return false;
    }
    return !TRAILING_LABEL.test((query.text ?? '').slice(-LABEL_TAIL_CHARS));
  }

  /**
   * Whether word `i`, written as a whole word, names an app the catalog holds where a service is
   * named (`… in docker`, `pubmed literature on …`): a known app or a word of a server's id that no
   * dictionary knows (`github`, `pubmed`, `kospi`), or a server's own name rare in English
   * (`docker`); not an English word a brand shares (`post`, `homepage`), nor a part of a camelCase
   * name (`git` of `GitLab`).
   */
  private namesInstalledApp(query: QueryWords, i: number): boolean {
    const word = query.words[i]!;
    return (
      query.runs[query.runOf[i]!] === word &&
      this.knows(word) &&
      (this.isKnownApp(word) || this.lexicon.isServerWord(word)) &&
      (!this.isEnglish(word) || (this.lexicon.isServerWord(word) && this.isRareWordApp(word))) &&
      this.servicePlace(query, i, false) !== undefined
    );
  }

  /**
   * Two runs that name a known app no tool holds (`Export the guide from Google Docs`, `booking.com
   * hotel search`), by run: see `isAppPhrase` and `isDomainApp`. The catalog may hold each word
   * (`google`, `docs`), but it holds the app only if some tool holds them side by side, or a
   * server is named for both. A short query is about the app wherever it stands (a domain only
   * where a service is named); a long one only after a channel or a tool verb (`framed`).
   */
  private absentAppPhrases(query: QueryWords): Map<number, AbsentPhraseWord> | undefined {
    const runs = query.runs;
    let found: Map<number, AbsentPhraseWord> | undefined;
    const mark = (run: number, where: string, framed: boolean) => {
      found ??= new Map();
      found.set(run, { where, framed, second: false });
      found.set(run + 1, { where, framed, second: true });
    };
    for (let run = 0; run + 1 < runs.length; run++) {
      const first = runs[run]!;
      const second = runs[run + 1]!;
      if (this.isDomainApp(query, run)) {
        const framed = this.framesPhrase(query, run);
        const place = this.lexicon.holdsPhrase(first, second)
          ? undefined
          : (this.servicePlace(query, query.runOf.indexOf(run), false) ??
            (framed ? 'after a channel or a tool verb' : undefined));
        if (place !== undefined)
          mark(run, `"${first}.${second}", a known app no tool holds, named by its domain ${place}`, framed);
        run++;
        continue;
      }
      if (query.pausesAfter?.[run] === true) continue;
      if (!this.isAppPhrase(query, run) || this.lexicon.holdsPhrase(first, second)) continue;
      // A server named for both words holds the app (`google-docs`); one named for one does not.
      if (this.lexicon.isServerWord(first) && this.lexicon.isServerWord(second)) continue;
      const framed = this.framesPhrase(query, run);
      if (!framed && this.looksLikeData(runs.length, 0)) continue;
      mark(
        run,
        `"${first} ${second}", a known app no tool holds, ${framed ? 'after a channel or a tool verb' : 'in a short query'}`,
        framed,
      );
      run++;
    }
    return found;
  }

  /** Whether run `run` is a word of a two-word place (`Los Angeles`, `San Francisco`). */
  private inPlaceName(runs: readonly string[], run: number): boolean {
    const word = runs[run]!;
    const starts = (first: string) => this.data.startsTwoWordName(first);
    return (
      (run + 1 < runs.length && starts(word) && this.data.isSubjectName(`${word} ${runs[run + 1]}`)) ||
      (run > 0 && starts(runs[run - 1]!) && this.data.isSubjectName(`${runs[run - 1]} ${word}`))
    );
  }

  /** Whether runs `run` and `run + 1` are written as a domain that is a known app's name (`Booking.com`). */
  private isDomainApp(query: QueryWords, run: number): boolean {
    const { text, runStarts, runEnds } = query;
    if (text === undefined || runStarts === undefined || runEnds === undefined) return false;
    if (text.charAt(runEnds[run]!) !== '.' || runStarts[run + 1] !== runEnds[run]! + 1) return false;
    const domain = `${query.runs[run]}.${query.runs[run + 1]}`;
    return this.data.isTopLevelDomain(query.runs[run + 1]!) && this.isKnownApp(domain);
  }

  /**
   * Whether runs `run` and `run + 1` name an app: one app's name split in two (`Survey Monkey`), a
   * two-word name of the maintained lists with a word rare in English (`google docs`), or a known
   * app rare in English then a catalog word, both written as names (`Tableau Server`); never a
   * place (`San Francisco`).
   */
  private isAppPhrase(query: QueryWords, run: number): boolean {
    const first = query.runs[run]!;
    const second = query.runs[run + 1]!;
    // One app's name split in two words (`Survey Monkey`, `digital ocean`; not `md format`), no
    // tool holding it whole: in lower case only with a word rare in English (`work day` is two
    // words, not Workday).
    const joined = first.length >= 3 && second.length >= 3 ? this.knownAppJoined(first, second) : undefined;
    if (joined !== undefined && !this.knows(joined) && !this.inPlaceName(query.runs, run)) {
      return (
        this.isRareInEnglish(first) ||
        this.isRareInEnglish(second) ||
        (capitalizedInSentence(query, query.runOf.indexOf(run)) &&
          capitalizedInSentence(query, query.runOf.indexOf(run + 1)))
      );
    }
    const listed = this.data.startsTwoWordName(first) && this.isKnownApp(`${first} ${second}`);
    // Else a known app rare in English, then a catalog word, both written as names (looked at
    // first: most pairs are not). A word no tool holds is read on its own (`jira`, `leetcode`),
    // unless the lists name an app with it and the next (`firefly iii`, `invoice ninja`: neither
    // word alone says the app).
    if (
      !listed &&
      !(
        writtenAsName(query, query.runOf.indexOf(run)) &&
        writtenAsName(query, query.runOf.indexOf(run + 1)) &&
        this.knows(first) &&
        this.knows(second) &&
        this.isKnownApp(first) &&
        this.isRareInEnglish(first) &&
        !PHRASE_ENDS.has(second) &&
        this.zipf(second) < this.settings.commonWordZipf
      )
    ) {
      return false;
    }
    if (
      (!listed && (this.data.isSubjectName(first) || this.data.isSubjectName(second))) ||
      this.inPlaceName(query.runs, run)
    ) {
      return false;
    }
    // Two common English words are too often a thing's name (`exchange rates`, `companies house`),
    // unless both are written as names (`in Apple Music`, `from New Relic`), or the listed name
    // opens a short query before an action (`actual budget add transaction`), as a one-word app's
    // English name does (see `servicePlace`).
    const opensShortQuery =
      run === 0 &&
      query.runs.length - 1 <= MAX_KEYWORDS_FOR_ENGLISH_FIRST &&
      this.isAction(query.runs[2] ?? '');
    // Or it stands after a channel where its phrase ends (`in actual budget`), or as an account's
    // name (`my american express account`).
    const framedWhole =
      (this.framesPhrase(query, run) && this.endsPhrase(query, run + 1, false)) ||
      (run > 0 && OWNERS.has(query.runs[run - 1]!) && ACCOUNT_NOUNS.has(query.runs[run + 2] ?? ''));
    return (
      !listed ||
      opensShortQuery ||
      framedWhole ||
      this.isRareInEnglish(first) ||
      this.isRareInEnglish(second) ||
      (capitalizedInSentence(query, query.runOf.indexOf(run)) &&
        capitalizedInSentence(query, query.runOf.indexOf(run + 1)))
    );
  }

  /**
   * Whether the two-word name at `run` comes after a channel or a tool verb, maybe with an owner
   * between; its words are names, so whatever follows (as for a known app in `inChannelFrame`).
   */
  private framesPhrase(query: QueryWords, run: number): boolean {
    const runs = query.runs;
    const owned = run >= 2 && OWNERS.has(runs[run - 1]!);
    const before = runs[owned ? run - 2 : run - 1];
    return before !== undefined && opensChannel(before);
  }

  /**
   * Where word `i`, which some tool holds, names a known app that the catalog holds only as a word
   * (`signal send message`, `file a bug in Linear for …`): no server and no tool is named for it,
   * and no description writes it as a name (`… on Twitter` would). An English word in lower case
   * names the app only opening a short query before an action; written as a name, or no English
   * word, wherever a service is named. `framed`: after a channel or a tool verb, which stops a
   * long query too.
   */
  private absentAppPlace(
    query: QueryWords,
    i: number,
    termId: number,
  ): { where: string; framed: boolean } | undefined {
    const word = query.words[i]!;
    const run = query.runOf[i]!;
    if (query.runs[run] !== word) return undefined;
    const candidate =
      this.absentAppWords.get(word) ?? remember(this.absentAppWords, word, this.heldOnlyAsWord(word, termId));
    if (candidate === 'no') return undefined;
    if (candidate === 'english' && !writtenAsName(query, i)) {
      const runs = query.runs;
      const opens =
        run === 0 && runs.length <= MAX_KEYWORDS_FOR_ENGLISH_FIRST && this.isAction(runs[1] ?? '');
      return opens
        ? { where: `as the first word of a short query, before the action "${runs[1]}"`, framed: false }
        : undefined;
    }
    const framed = this.inChannelFrame(query, run);
    const where =
      this.servicePlace(query, i, false) ??
      (framed ? 'a known app after a channel or a tool verb' : undefined);
    return where === undefined ? undefined : { where, framed };
  }

  /**
   * Whether a word some tool holds is a known app that the catalog holds only as a word (see
   * `absentAppPlace`), and if so whether it is English.
   */
  private heldOnlyAsWord(word: string, termId: number): 'no' | 'english' | 'name' {
    if (
      !this.isKnownApp(word) ||
      this.lexicon.isServerWord(word) ||
      this.lexicon.nameFrequency(termId) > 0 ||
      this.lexicon.writesAsName(word)
    ) {
      return 'no';
    }
    return this.isEnglish(word) ? 'english' : 'name';
  }

  /**
   * A known app of the maintained lists, whatever its English frequency; not a place, a language
   * or a format, which a task is about even when a brand shares its name (`beijing`).
   */
  private isKnownApp(word: string): boolean {
    return this.settings.knownApps && this.data.isKnownApp(word) && !this.data.isSubjectName(word);
  }

  /** A phone app's name (`LanguageData.isAppIconName`) that is no place, language or format. */
  private isIconApp(word: string): boolean {
    return this.settings.knownApps && this.data.isAppIconName(word) && !this.data.isSubjectName(word);
  }

  /**
   * A known app, or a phone app's name, named with an English word below the Zipf scale's
   * high-frequency band (`postman`, `lemonade`, `clover`; not `gold` or `coffee`); a phone app's
   * only where the subtitles give its frequency (not `smartphone`).
   */
  private isAppOfRareWord(word: string): boolean {
    const zipf = this.zipf(word);
    if (zipf >= HIGH_FREQUENCY_ZIPF) return false;
    return this.isKnownApp(word) || (zipf > 0 && this.isIconApp(word));
  }

  /**
   * Whether word `i`, written as a name, is a known app or a phone app's name: the weaker
   * evidence, enough for a name no dictionary knows (`in Tado?`), and for an English word standing
   * alone as a name (`at Mango`), not one starting a longer one (`my Fantasy Premier League team`)
   * or naming a place or one thing of the world (`Apollo`).
   */
  private namedLikeApp(query: QueryWords, i: number): boolean {
    const word = query.words[i]!;
    if (this.isKnownApp(word)) return true;
    if (!this.isIconApp(word)) return false;
    if (!this.isEnglish(word)) return true;
    const run = query.runOf[i]!;
    const [start, end] = capitalizedSpan(query, run);
    return start === end && !this.data.namesAPlace(word);
  }

  /**
   * The two words written together when that is a known app (see {@link isKnownApp}), else
   * undefined; the joined word is built only for a likely app.
   */
  private knownAppJoined(first: string, second: string): string | undefined {
    if (!this.settings.knownApps || !this.data.isKnownAppJoined(first, second)) return undefined;
    const joined = first + second;
    return this.data.isSubjectName(joined) ? undefined : joined;
  }

  /** A known app named with an English word that is rare in English (see {@link RARE_WORD_ZIPF}). */
  private isRareWordApp(word: string): boolean {
    return this.isKnownApp(word) && this.zipf(word) <= RARE_WORD_ZIPF;
  }

  /** No English word, or a rare one (see {@link RARE_WORD_ZIPF}): `microsoft`, `google`. */
  private isRareInEnglish(word: string): boolean {
    return !this.isEnglish(word) || this.zipf(word) <= RARE_WORD_ZIPF;
  }

  /**
   * A word some tool holds only through its stem, not as written, counts as a name when it is a
   * listed service (`canva` is not a form of `canvas`) or a name in a service's place (`recurly`
   * is not `recur`).
   */
  private isNameHeldOnlyByStem(query: QueryWords, i: number): boolean {
    const word = query.words[i]!;
    if (this.knows(word)) return false;
    if (this.isListed(word)) return true;
    // However long the query, as where it is not held at all (`… time off in Rippling?`).
    if (this.settings.gate === 'unknown-name' && this.namedInChannel(query, i)) return true;
    // In a long query a name where a service is named is data (`looksLikeData`): keep its stem.
    if (this.settings.gate !== 'unknown-name' || this.looksLikeData(query.runs.length, 0)) return false;
    const reading = this.readMissing(word);
    if (reading.kind === 'name') return this.servicePlace(query, i, false) !== undefined;
    if (reading.kind === 'typo') return this.typoAsName(query, i, reading.correction) !== undefined;
    // An English word only longer forms of which some tool holds (`orbit` of `orbiting`) is a
    // name where a service stands; an inflection of a held word (`folders` of `folder`) is not.
    return (
      reading.kind === 'english' &&
      !this.holdsShorterForm(word) &&
      this.servicePlace(query, i, true) !== undefined
    );
  }

  /**
   * A word one edit from a catalog word, standing where a service is named as clearly as an
   * English word must (`toggl create event`, `upload a photo in paymo`), is an absent service's
   * name, not a typo of `toggle` or `paygo`, unless it corrects to a server's name (`githb`), or
   * it opens the query and corrects to an action that more tool descriptions start with than the
   * next word (`craete issue`, `lsit files`; but `wrike create task` is not `write`).
   * Returns where it stands, or undefined when it is a typo.
   */
  private typoAsName(query: QueryWords, i: number, correction: string): string | undefined {
    if (this.settings.gate !== 'unknown-name' || this.lexicon.isServerWord(correction)) return undefined;
    const next = query.runs[1];
    const leads = (word: string) => this.lexicon.descriptionLeads(this.lookUp(word).termId);
    if (
      query.runOf[i] === 0 &&
      this.isAction(correction) &&
      (next === undefined || leads(next) < leads(correction))
    ) {
      return undefined;
    }
    return this.servicePlace(query, i, true);
  }

  /** Whether some tool holds a shorter word of the same stem that `word` starts with. */
  private holdsShorterForm(word: string): boolean {
    for (let length = Math.min(stem(word).length, word.length - 1); length < word.length; length++) {
      if (length > 0 && this.lexicon.holdsWord(word.slice(0, length))) return true;
    }
    return false;
  }

  /**
   * Where word `i` stands, in words, when that is where a service is named (see
   * {@link CHANNELS}); undefined anywhere else. An English word (`harvest`, `copper`) needs more:
   * first only before an action, in a short query or a sentence. A place, a language or a day there
   * (`weather in paris`) is what the task is about, not a service.
   */
  private servicePlace(query: QueryWords, i: number, english: boolean): string | undefined {
    const run = query.runOf[i]!;
    const runs = query.runs;
    const before = run > 0 ? runs[run - 1]! : '';
    const text = query.text ?? '';
    if (run === 0 && runs.length >= 2) {
      const opensLabel =
        LEADING_LABEL.test(text) ||
        // After a comma, an English word is a label only before an action (`pitch, list leads`, not `yes, …`).
        (LEADING_COMMA_LABEL.test(text) && (!english || this.isAction(runs[1]!)));
      if (opensLabel) return 'as the label the query opens with';
    }
    if (run === runs.length - 1 && runs.length >= 2 && TRAILING_LABEL.test(text.slice(-LABEL_TAIL_CHARS))) {
      return 'as the label the query ends with';
    }
    const word = query.words[i]!;
    if (this.data.isSubjectName(word)) return undefined;
    // English's commonest words (`you`, `the`, `get`) join a request; they name no app.
    if (english && this.zipf(word) >= this.settings.commonWordZipf) return undefined;
    // Nor does a plural (`ask teammates to …`, `kindergartens close to …`): an app is named with a
    // noun's base form (`harvest`, `bellows`), one name for one thing.
    if (english && this.isEnglish(word) && this.data.nounForm(word) === 'inflected') return undefined;
    const toolVerb = TOOL_VERBS.has(before) ? before : followedPhrase(runs, run, TOOL_PHRASES);
    if (toolVerb !== undefined && (!english || this.endsPhrase(query, run, english))) {
      return `after "${toolVerb}"`;
    }
    if (!english && NAME_MARKERS.has(before)) return `after "${before}"`;
    // `search craigslist for used desks`: what an opening action searches, before what it is for.
    if (!english && run === 1 && runs[2] === 'for' && this.isAction(before)) {
      return `after the action "${before}", before "for"`;
    }
    const signIn = followedPhrase(runs, run, SIGN_IN_PHRASES);
    if (signIn !== undefined) return `after "${signIn}"`;
    if (isAccountName(runs, run)) return `between "${before}" and "${runs[run + 1]}"`;
    // `my southwest reservation`: a known app named with a noun, between an owner and a thing some
    // tool holds, in a short query, is whose the thing is (not `my big goal`: `big` is no noun).
    if (
      english &&
      OWNERS.has(before) &&
      NAME_MARKERS.has(before) &&
      this.isKnownApp(word) &&
      this.data.nounForm(word) === 'base' &&
      !this.looksLikeData(runs.length, 0) &&
      this.knows(runs[run + 1] ?? '')
    ) {
      return `between "${before}" and "${runs[run + 1]}", a thing of it`;
    }
    // `ask zoho to …`, `tell zoho to …`: the one asked is the app.
    if (ADDRESSING_VERBS.has(before) && runs[run + 1] === 'to') return `in "${before} … to"`;
    // `at` names a place for a name (`at zuora`), for an English word only as `over at` (not `at noon`).
    const overAt = before === 'at' && runs[run - 2] === 'over';
    const channel = CHANNELS.has(before) || (before === 'at' && (!english || overAt));
    if (channel && this.endsPhrase(query, run, english)) {
      return `after "${overAt ? 'over at' : before}", where its phrase ends`;
    }
    // `in my lemur?`, `using the sellsy api, …`: a channel and an owner, then the name, where its
    // phrase ends (after one catalog word naming what of it: `api`, `board`). An English word
    // there, and after a channel opening the query, must name a thing (`in my area` is a setting).
    const thing = !english || !this.isEnglish(word) || this.data.namesAThing(word);
    const owned = OWNERS.has(before) && run >= 2 ? runs[run - 2]! : undefined;
    if (
      thing &&
      owned !== undefined &&
      (CHANNELS.has(owned) || TOOL_VERBS.has(owned)) &&
      (this.endsPhrase(query, run, true) || this.endsNounPhrase(query, run + 1))
    ) {
      return `after "${owned} ${before}", where its phrase ends`;
    }
    // `on heron rename the folder`: a channel opening the query, then its name and the action.
    const opener = OPENERS.has(runs[0]!) ? 1 : 0;
    if (thing && channel && run === opener + 1 && run + 1 < runs.length && this.isAction(runs[run + 1]!)) {
      return `after "${before}" opening the query, before the action "${runs[run + 1]}"`;
    }
    // `turn off the Nanoleaf lights`, `a GoodRx coupon`: a name written as one (a capital inside a
    // sentence) that no dictionary holds, or a known app, naming the kind of a thing some tool
    // holds (a content word, in lower case: `Elon Musk`, `Roman Empire` are two-word names), in a
    // short query. A long task's capitals are its data (`images of the Samsung Galaxy`).
    const modified = runs[run + 1];
    if (
      !english &&
      modified !== undefined &&
      !this.looksLikeData(runs.length, 0) &&
      (!this.isEnglish(word) || this.isKnownApp(word)) &&
      writtenAsName(query, i) &&
      this.modifiesHeldNoun(query, run)
    ) {
      return `written as a name before "${modified}", the thing of it asked for`;
    }
    // The first word, after an opener (`can zoho list leads`, `hey zoho, …`); a hyphenated name's
    // words stand where it does (`paperless-ngx search documents`, `calibre-web add a book`).
    const first = OPENERS.has(runs[0]!) ? 1 : 0;
    const [start, end] = hyphenatedSpan(query, run);
    if (start !== first || runs.length < end + 2) return undefined;
    const firstWord = first === 0 ? 'as the first word' : `as the first word after "${runs[0]}"`;
    if (!english) return firstWord;
    // `amazon order status`, `clover refund transaction`: an app named with an English word below
    // the high-frequency band opens a short query (not `gold price now`); not one that can be a
    // verb, which opens a request (`ring a phone`).
    const named = end - start;
    if (
      runs.length - named <= MAX_KEYWORDS_FOR_ENGLISH_FIRST &&
      this.isAppOfRareWord(word) &&
      !this.data.mayBeVerb(word)
    ) {
      return `${firstWord} of a short query, an app named with a rarer word that is no verb`;
    }
    // `summit please create …`, `does summit let me create …`: these change nothing.
    const next =
      end + 1 + (runs[end + 1] === 'please' ? 1 : runs[end + 1] === 'let' && runs[end + 2] === 'me' ? 2 : 0);
    if (next >= runs.length || !this.isAction(runs[next]!)) return undefined;
    // A short query's every word was chosen (`harvest archive project`); a longer one must read
    // as a sentence, not keywords.
    const words = runs.length - (next - start - 1) - first;
    const short = words <= MAX_KEYWORDS_FOR_ENGLISH_FIRST;
    if (!short && !this.isProse(runs, next + 1)) return undefined;
    return `${firstWord} of a ${short ? 'short query' : 'sentence'}, before the action "${runs[next]}"`;
  }

  /**
   * Whether the run after `run` is a word some tool holds (or its stem), in lower case, and no word
   * that joins phrases (a channel, a phrase end, one of English's commonest words): the noun that
   * the name at `run` says the kind of (`the Nanoleaf lights`).
   */
  private modifiesHeldNoun(query: QueryWords, run: number): boolean {
    const next = query.runs[run + 1];
    const starts = query.runStarts;
    const text = query.text ?? '';
    if (next === undefined || starts === undefined || query.pausesAfter?.[run] === true) return false;
    if (!/[a-z]/.test(text.charAt(starts[run + 1]!))) return false;
    // After another capital the name is the end of a longer one (`Van Gogh paintings`), but for
    // an action opening the query (`Send FreshBooks invoices`).
    const before = query.runs[run - 1];
    if (
      before !== undefined &&
      /[A-Z]/.test(text.charAt(starts[run - 1]!)) &&
      (run > 1 || !this.isAction(before))
    ) {
      return false;
    }
    return (
      !PHRASE_ENDS.has(next) &&
      this.zipf(next) < this.settings.commonWordZipf &&
      (this.lookUp(next).termId >= 0 || this.isEnglish(next))
    );
  }

  /**
   * Whether run `run` ends its phrase (see {@link PHRASE_ENDS}). Before an action only a name does:
   * an English word there may be the first half of a noun (`going through rough patch`).
   */
  private endsPhrase(query: QueryWords, run: number, english: boolean): boolean {
    const next = query.runs[run + 1];
    if (next === undefined || query.pausesAfter?.[run] === true || PHRASE_ENDS.has(next)) return true;
    // A number of up to four digits closing the phrase is the name's edition (`in sage 50`, `on
    // office 365`), not an id (`artwork 436535`).
    if (EDITION_NUMBER.test(next) && this.endsPhrase(query, run + 1, false)) return true;
    // A name's phrase also ends before one of English's commonest words (`in zorblat when …`,
    // `on zorblat at noon`): they join phrases, they do not name things.
    if (!english && this.zipf(next) >= this.settings.commonWordZipf) return true;
    return !english && this.isAction(next);
  }

  /**
   * Whether the runs from `from` on read as a sentence, not a bag of keywords: they hold one of
   * English's commonest words (`the`, `my`, `to`, `now`). `hamlet move a card to done` addresses an
   * app; `sprite move 3d space` is keywords, whose first word is what the task is about.
   */
  private isProse(runs: readonly string[], from: number): boolean {
    for (let run = from; run < runs.length; run++) {
      if (this.zipf(runs[run]!) >= this.settings.commonWordZipf) return true;
    }
    return false;
  }

  /**
   * Whether run `run` comes after a channel or a tool verb, maybe with an owner between, or right
   * after an action, and ends its phrase, maybe after one catalog word (`… on snapchat`, `with
   * wix?`, `via the trello api`, `search aliexpress for …`).
   */
  private inChannelFrame(query: QueryWords, run: number): boolean {
    const runs = query.runs;
    const owned = run >= 2 && OWNERS.has(runs[run - 1]!);
    const channel = owned ? run - 2 : run - 1;
    if (channel < 0) return false;
    // After an owner an English word must name a thing, as in `servicePlace` (`to the automotive
    // industry` says what kind of industry).
    const word = runs[run]!;
    if (owned && this.isEnglish(word) && !this.data.namesAThing(word)) return false;
    const before = runs[channel]!;
    // Right after one of the catalog's actions, too: `search aliexpress for …`, `check sentry for …`;
    // and after `to`, the destination (`upload it to soundcloud as …`).
    const afterChannel = opensChannel(before);
    if ((!afterChannel && (owned || !this.isAction(before))) || this.inPlaceName(runs, run)) return false;
    // After a channel, a known app written as a name, or no English word, names the app whatever
    // follows (`on Trainline leaving before nine`, `through the Vonage API instead`); else its
    // phrase must end, as a name's does (before an action or a common word too).
    const asName = !this.isEnglish(word) || writtenAsName(query, query.runOf.indexOf(run));
    return (
      (afterChannel && asName) || this.endsPhrase(query, run, false) || this.endsNounPhrase(query, run + 1)
    );
  }

  /**
   * Whether word `i`, a whole run, is written as a name (not quoted: a quoted word is a value) and
   * stands after one of {@link NAME_CHANNELS}, maybe with an owner between, where its phrase ends;
   * a place of any size, a language or a day there is what the task is about (`in Darwin`, `in
   * Sandusky, Ohio`), and so is a word inside a quoted title (`the painting "Corridor in the
   * Asylum"`) or the first of a longer name (`in Hyde Park`).
   */
  private namedInChannel(query: QueryWords, i: number): boolean {
    const run = query.runOf[i]!;
    const runs = query.runs;
    const word = query.words[i]!;
    if (runs[run] !== word || !capitalizedInSentence(query, i) || insideQuotes(query, i)) return false;
    // A name of several capitalized words is read whole (`in Paramount Plus`, `through Credit
    // Karma?`): from its first word, after the channel, to its last, where the phrase ends.
    const [start, end] = capitalizedSpan(query, run);
    const name = runs.slice(start, end + 1);
    // A place's word, or two, is no app's name.
    const placeAt = (at: number) =>
      this.data.isPlaceName(name[at]!) ||
      (at + 1 < name.length && this.data.isSubjectName(`${name[at]} ${name[at + 1]}`));
    if (name.some((_, at) => placeAt(at))) return false;
    // Among many names (`… in Hyde Park or the London Zoo, …`) a name of several words is data;
    // so is one ending in a place's noun (`in Zorblat Park`), or one the dictionary names as a
    // place or a thing of the world (`in the Rocky Mountains`, `the Swiss Alps`).
    if (
      name.length > 1 &&
      (namesOutside(query, start, end) > this.settings.unknownNameMaxWords ||
        this.data.namesAPlace(runs[end]!) ||
        this.data.namesAPlace(name.join(' ')) ||
        this.holdsAbbreviated(name))
    ) {
      return false;
    }
    if (query.pausesAfter?.[end] === true && this.data.isPlaceName(runs[end + 1] ?? '')) return false;
    const owned = start >= 2 && OWNERS.has(runs[start - 1]!);
    const before = runs[owned ? start - 2 : start - 1];
    // A word no dictionary knows names the app whatever follows (`in Kimai under the … project`).
    return (
      before !== undefined &&
      NAME_CHANNELS.has(before) &&
      ((start === end && !this.isEnglish(word)) ||
        this.endsPhrase(query, end, false) ||
        this.endsNounPhrase(query, end + 1))
    );
  }

  /**
   * Whether the catalog holds a name of several words abbreviated: by its initials when they are
   * three or more (`tft` of `Team Fight Tactics`; two letters say too little: `ts`, `cc`), or by
   * each word's first two letters (`wuwa` of `Wuthering Waves`).
   */
  private holdsAbbreviated(words: readonly string[]): boolean {
    const initials = words.map((word) => word.charAt(0)).join('');
    const syllables = words.map((word) => word.slice(0, 2)).join('');
    return (
      (initials.length >= 3 && (this.knows(initials) || this.lexicon.isServerWord(initials))) ||
      this.knows(syllables) ||
      this.lexicon.isServerWord(syllables)
    );
  }

  /**
   * Whether run `run` is a word some tool holds (`api`, `board`) and its phrase ends after it, or an
   * action follows it.
   */
  private endsNounPhrase(query: QueryWords, run: number): boolean {
    const word = query.runs[run];
    if (word === undefined || !this.knows(word)) return false;
    const next = query.runs[run + 1];
    // `using the oura api get daily activity`: an action after the noun starts the request.
    return this.endsPhrase(query, run, true) || (next !== undefined && this.isAction(next));
  }

  /** Whether the word is one of the catalog's actions: a word many tool descriptions start with. */
  private isAction(word: string): boolean {
    return this.data.mayBeVerb(word) && this.isActionTerm(this.lookUp(word).termId);
  }

  private isActionTerm(termId: number): boolean {
    if (termId < 0) return false;
    const leads = this.lexicon.descriptionLeads(termId);
    return leads >= MIN_ACTION_LEADS && leads >= MIN_ACTION_SHARE * this.lexicon.documentFrequency(termId);
  }

  /**
   * Leaves out of scoring the words of a longer query that carry no request: the most common
   * words of everyday English (`my`, `would`, `help`, `you`), which terse tool texts rarely hold,
   * so that the few that do hold them would win on those words alone. A query of at most
   * `allWordsUpTo` words keeps them all (each was chosen: `cloudflare get a domain`), and so does
   * a query with no other answerable word. Then, with `maxQueryTerms`, the most specific ones.
   */
  private selectTerms(
    plan: QueryPlan,
    wordOf: ReadonlyMap<string, string>,
    queryWords: number,
  ): Map<string, TermSelection> {
    const { commonWordZipf, allWordsUpTo, maxQueryTerms } = this.settings;
    const unscored = new Map<string, TermSelection>();
    const weighed = new Map<string, TermSelection>();
    if (commonWordZipf > 0 && queryWords > allWordsUpTo) {
      const zipf = new Map(plan.answerable.map((term) => [term, this.zipf(wordOf.get(term) ?? term)]));
      const common = plan.answerable.filter((term) => zipf.get(term)! >= commonWordZipf);
      if (common.length < plan.answerable.length) {
        const weigh = queryWords <= COMMON_WORDS_WEIGHED_UP_TO;
        for (const term of common) {
          (weigh ? weighed : unscored).set(term, this.commonWordSelection(wordOf.get(term) ?? term, weigh));
        }
      }
    }
    const left = plan.answerable.filter((term) => !unscored.has(term));
    if (maxQueryTerms > 0 && left.length > maxQueryTerms) {
      const df = (term: string) => this.lexicon.documentFrequency(this.lexicon.termId(term));
      // A stable sort: equally common stems keep query order.
      for (const term of [...left].sort((a, b) => df(a) - df(b)).slice(maxQueryTerms)) {
        unscored.set(term, {
          reason: 'over-term-budget',
          why: `not among the ${maxQueryTerms} most specific terms (maxQueryTerms)`,
        });
      }
    }
    if (unscored.size > 0) {
      plan.unscored = plan.answerable.filter((term) => unscored.has(term));
      plan.terms = plan.terms.filter((term) => !unscored.has(term.source));
    }
    for (const term of plan.terms) {
      const weight = weighed.get(term.source)?.weight;
      // Only the word itself: the synonyms option's words for it keep their own weight.
      if (weight !== undefined && term.via === undefined) {
        term.boost = weight;
        term.nameWeight = 0;
      }
    }
    for (const [term, selection] of weighed) unscored.set(term, selection);
    return unscored;
  }

  /** How a common word is weighed (`weigh`) or left out (see `selectTerms`), its text made once per word. */
  private commonWordSelection(word: string, weigh: boolean): TermSelection {
    const memo = weigh ? this.weighedCommonWords : this.unscoredCommonWords;
    let selection = memo.get(word);
    if (selection === undefined) {
      const { commonWordZipf, allWordsUpTo } = this.settings;
      const commonest = `one of the commonest English words (Zipf ${this.zipf(word).toFixed(1)} ≥ ${commonWordZipf})`;
      selection = remember(
        memo,
        word,
        weigh
          ? {
              reason: 'common-english',
              why: `${commonest}: scored at ${COMMON_WORD_WEIGHT} of a word in a query of ${allWordsUpTo + 1} to ${COMMON_WORDS_WEIGHED_UP_TO} words`,
              weight: COMMON_WORD_WEIGHT,
            }
          : {
              reason: 'common-english',
              why: `${commonest} in a query of more than ${COMMON_WORDS_WEIGHED_UP_TO} words`,
            },
      );
    }
    return selection;
  }

  /**
   * Whether the catalog answers the query without the names it holds: one tool holds more than
   * half of the words scored. A long task that names a known app where a service is named is
   * then about that app's data (`integrate my Shopify store with Google Ads and Microsoft Ads`:
   * one tool holds five of its eight words); when no tool holds more than a word or two of the
   * rest (`add a checklist to my Trello card via the Trello API`), it asks for the app.
   */
  private answeredWithout(plan: QueryPlan): boolean {
    const scored = plan.terms.filter((term) => term.countsForCoverage).map((term) => term.termId);
    return scored.length > 0 && this.lexicon.someToolHolds(scored, Math.floor(scored.length / 2) + 1);
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
   * What a query word that no tool holds is: filler (a number, a word of one or two letters), an
   * English word, a typo of a catalog word, or a name — a listed service or an unknown word.
   */
  private readMissing(word: string): Missing {
    return this.readings.get(word) ?? remember(this.readings, word, this.readMissingAfresh(word));
  }

  private readMissingAfresh(word: string): Missing {
    if (word.length <= 2) return { kind: 'filler' };
    // A known app may hold digits (`1password`, `neo4j`); any other such word is a number or a code.
    if (this.isListed(word)) return { kind: 'name' };
    if (/[0-9]/.test(word)) return { kind: 'filler' };
    if (this.isEnglish(word)) return this.isRareWordApp(word) ? { kind: 'name' } : { kind: 'english' };
    const { typoCorrection, typoMinLength } = this.settings;
    if (typoCorrection && word.length >= typoMinLength - 1 && word.length <= MAX_TYPO_LENGTH) {
      // A shorter word only by two neighbours swapped (`lsit` → `list`, `psot` → `post`): the
      // commonest slip, and one a short app's name rarely is of a catalog word.
      const correction = correctWord(word, this.lexicon.wordsNear(word), (candidate) =>
        candidate.length < typoMinLength && !isNeighbourSwap(word, candidate)
          ? Number.NEGATIVE_INFINITY
          : this.documentFrequency(candidate),
      );
      if (correction !== undefined) return { kind: 'typo', correction };
    }
    return { kind: 'name' };
  }

  /**
   * Bridges the query's vocabulary to the catalog's: an everyday English word no tool holds also
   * finds tools that say a word WordNet relates to it (`ring` → `call`, `phone`; `erase` →
   * `delete`), at a weight below the query's own words. A word some tool holds is not expanded
   * (measured, expanding those too cost as much as it gained: the commonest senses of `open`,
   * `number`, `pull` are not the catalog's), but for the verb a request opens with, to its
   * synonyms that are catalog actions. A term already in the query is not added again.
   */
  private addRelatedWords(plan: QueryPlan): void {
    const { relatedWords, relatedWordWeights } = this.settings;
    if (!relatedWords) return;
    const inQuery = new Set(plan.terms.map((term) => term.stem));
    for (const fate of plan.words) {
      if (fate.why !== NO_TOOL_HOLDS_ENGLISH || fate.stem.length < 3) continue;
      const source = fate.stem;
      for (const { word, relation, stem: related, termId } of this.relatedTermsOf(
        fate.correctedTo ?? fate.word,
      )) {
        if (inQuery.has(related)) continue;
        inQuery.add(related);
        const boost = relatedWordWeights[relation];
        if (boost <= 0) continue;
        // The word itself is in no tool: a tool holding a related word covers it.
        plan.terms.push({
          stem: related,
          termId,
          boost,
          countsForCoverage: true,
          nameWeight: 0,
          source,
          via: { word, source: relation === 'synonym' ? 'wordnet-synonym' : 'wordnet-broader' },
        });
      }
    }
    // The verb a request opens with, though some tool holds it, also scores tools named and
    // described with its synonyms that are the catalog's actions (`make a channel` → `create`,
    // `substitute text` → `replace`), in the name match too; they cover no word of the query, so
    // they re-order the tools its words find and find none.
    const opening = plan.words[0];
    const synonym = relatedWordWeights.synonym;
    const verb = opening?.correctedTo ?? opening?.word;
    if (opening?.fate !== 'kept' || verb === undefined || synonym <= 0 || !this.data.mayBeVerb(verb)) return;
    for (const { word, relation, stem: related, termId } of this.relatedTermsOf(verb)) {
      if (relation !== 'synonym' || inQuery.has(related) || !this.isActionTerm(termId)) continue;
      inQuery.add(related);
      plan.terms.push({
        stem: related,
        termId,
        boost: synonym,
        countsForCoverage: false,
        nameWeight: synonym,
        source: opening.stem,
        via: { word, source: 'wordnet-synonym' },
        rescoresOnly: true,
      });
    }
  }

  /** The words related to `word` that some tool holds, with their terms, in the language data's order. */
  private relatedTermsOf(word: string): readonly RelatedTerm[] {
    let terms = this.relatedTerms.get(word);
    if (terms === undefined) {
      const held: RelatedTerm[] = [];
      for (const related of this.data.relatedWords(word)) {
        const { stem: relatedStem, termId } = this.lexicon.lookUp(related.word);
        // Spelled out, not spread: a fresh index reads dozens of these per word.
        if (termId >= 0)
          held.push({ word: related.word, relation: related.relation, stem: relatedStem, termId });
      }
      terms = remember(this.relatedTerms, word, held);
    }
    return terms;
  }

  /** How common a word is in English (`LanguageData.englishZipf`). */
  private zipf(word: string): number {
    return this.zipfs.get(word) ?? remember(this.zipfs, word, this.data.englishZipf(word));
  }

  /** `LanguageData.isEnglishWord`, remembered: a dictionary look-up is a binary search. */
  private isEnglish(word: string): boolean {
    return this.englishWords.get(word) ?? remember(this.englishWords, word, this.data.isEnglishWord(word));
  }

  /**
   * Bridges a scored word to the catalog's own names for what it asks: when the tools whose text
   * (not name) holds the word are named with one of the catalog's actions far more often than
   * names are (`edit` in the text of `update_…` tools, `remove` in that of `delete_…` ones), a
   * tool named with that action counts the word at `nameBridgeWeight` of a name word in the
   * name-match re-ranking, and the query's action at the weight of a WordNet synonym. It adds no
   * BM25 score: it re-orders the best candidates, finds none.
   */
  private addNameBridges(plan: QueryPlan, unscored: ReadonlyMap<string, unknown>): void {
    const weight = this.settings.nameBridgeWeight;
    if (weight <= 0) return;
    const inQuery = new Set(plan.terms.map((term) => term.stem));
    const bridged = new Set<string>();
    // The query's action (its first word of the first three that is a catalog action: `add dns
    // record`, `cloudflare add …`) names the tool: its bridges weigh as the opening verb's synonyms.
    const actionAt = plan.words.findIndex(
      (fate, k) => k < ACTION_WITHIN && fate.fate === 'kept' && this.isAction(fate.correctedTo ?? fate.word),
    );
    const actionWeight = Math.max(weight, this.settings.relatedWordWeights.synonym);
    for (const [k, fate] of plan.words.entries()) {
      if (fate.fate !== 'kept' || unscored.has(fate.stem) || fate.stem.length < 3 || bridged.has(fate.stem))
        continue;
      bridged.add(fate.stem);
      for (const nameTerm of this.nameBridgesOf(fate.stem)) {
        const related = this.lexicon.term(nameTerm);
        if (inQuery.has(related)) continue;
        inQuery.add(related);
        plan.terms.push({
          stem: related,
          termId: nameTerm,
          boost: 0,
          countsForCoverage: false,
          nameWeight: k === actionAt ? actionWeight : weight,
          source: fate.stem,
          via: { word: related, source: 'catalog-names' },
        });
      }
    }
  }

  /** The catalog actions a stem bridges to (see {@link addNameBridges}); none when no tool holds it. */
  private nameBridgesOf(stem: string): readonly number[] {
    let bridges = this.nameBridges.get(stem);
    if (bridges === undefined) {
      const termId = this.lexicon.termId(stem);
      const { tools, terms, counts } = termId < 0 ? NO_NAMES : this.lexicon.namesWith(termId);
      const found: number[] = [];
      for (let k = 0; k < terms.length; k++) {
        const nameTerm = terms[k]!;
        const count = counts[k]!;
        if (count < MIN_BRIDGE_TOOLS || count < MIN_BRIDGE_SHARE * tools) continue;
        const lift = count / tools / (this.lexicon.nameFrequency(nameTerm) / this.lexicon.size);
        if (lift >= MIN_BRIDGE_LIFT && this.isActionTerm(nameTerm)) found.push(nameTerm);
      }
      bridges = remember(this.nameBridges, stem, found);
    }
    return bridges;
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
        nameWeight: 0,
        source: term,
        via: { word: synonym, source: 'synonyms-option' },
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

  /** Whether some tool holds the word as written. */
  private knows(word: string): boolean {
    return this.lookUp(word).held;
  }

  /** The word's stem and term (`QueryLexicon.lookUp`), and whether some tool holds it as written. */
  private lookUp(word: string): WordLookUp {
    return this.lookUps.get(word) ?? remember(this.lookUps, word, this.lexicon.lookUp(word));
  }
}

/** Query stem → the related words scored for it, as the explanation shows them. */
function expansionsBySource(plan: QueryPlan): Map<string, WordExpansion[]> {
  const bySource = new Map<string, WordExpansion[]>();
  for (const term of plan.terms) {
    if (term.via === undefined) continue;
    // A name bridge scores nothing: its weight is the one it has in the name match.
    const weight = term.boost > 0 ? term.boost : (term.nameWeight ?? 0);
    const expansion = { word: term.via.word, stem: term.stem, weight, source: term.via.source };
    const expanded = bySource.get(term.source);
    if (expanded === undefined) bySource.set(term.source, [expansion]);
    else expanded.push(expansion);
  }
  return bySource;
}

// Past this many words or stems a reader's memos start afresh: queries repeat their vocabulary, and
// the bound keeps a long-lived index's memory flat.
const MAX_REMEMBERED = 10_000;

/** Remembers `value` for `key` in `memo` and returns it. */
function remember<K, V>(memo: Map<K, V>, key: K, value: V): V {
  if (memo.size > MAX_REMEMBERED) memo.clear();
  memo.set(key, value);
  return value;
}

const NO_NAMES: NameAssociations = Object.freeze({ tools: 0, terms: [], counts: [] });

/** Text before a capital that starts a sentence. */
const SENTENCE_ENDS = '.!?:';
const OPENING_QUOTE = /^["'`\u2018\u201c]$/;
const CLOSING_QUOTE = /^["'`\u2019\u201d]$/;

/**
 * Whether word `i` is written as a proper name: in quotes (`in "lilac"`), or capitalized inside a
 * sentence (`for my Hammock`) in a query that is not capitalized throughout (`Send Weekly Digest`).
 */
function writtenAsName(query: QueryWords, i: number): boolean {
  return quoted(query, i) || capitalizedInSentence(query, i);
}

function quoted(query: QueryWords, i: number): boolean {
  const { text, runStarts, runEnds } = query;
  if (text === undefined || runStarts === undefined || runEnds === undefined) return false;
  const run = query.runOf[i]!;
  return (
    OPENING_QUOTE.test(text.charAt(runStarts[run]! - 1)) && CLOSING_QUOTE.test(text.charAt(runEnds[run]!))
  );
}

/**
 * The runs of the name that run `run` stands in: it and its capitalized neighbours (`Tiny Tiny
 * RSS`), as first and last run; a pause ends a name.
 */
function capitalizedSpan(query: QueryWords, run: number): [number, number] {
  // Not back to the first run: its capital starts the query.
  const joined = (at: number) =>
    at >= 1 &&
    query.pausesAfter?.[at] !== true &&
    writtenCapitalized(query, at) &&
    writtenCapitalized(query, at + 1);
  return spanOf(run, query.runs.length, joined);
}

/** The runs around `run` that `joined` (asked of each run and the next) links to it, as first and last. */
function spanOf(run: number, runs: number, joined: (at: number) => boolean): [number, number] {
  let start = run;
  while (start > 0 && joined(start - 1)) start--;
  let end = run;
  while (end + 1 < runs && joined(end)) end++;
  return [start, end];
}

/** Whether run `run` comes right after `of`, maybe with `the` between: what a noun is of (`the size of dayjs`). */
function followsOf(runs: readonly string[], run: number): boolean {
  return runs[run - 1] === 'of' || (runs[run - 1] === 'the' && runs[run - 2] === 'of');
}

/** Whether run `run` stands in a word of slash-joined parts (`vercel/next.js`, `src/app.ts`). */
function inPath(query: QueryWords, run: number): boolean {
  const { text, runStarts, runEnds } = query;
  if (text === undefined || runStarts === undefined || runEnds === undefined) return false;
  let start = runStarts[run]!;
  let end = runEnds[run]!;
  while (start > 0 && !/\s/.test(text.charAt(start - 1))) start--;
  while (end < text.length && !/\s/.test(text.charAt(end))) end++;
  const slash = text.indexOf('/', start);
  return slash > start && slash < end - 1;
}

/** The runs of the hyphenated word that run `run` is part of (`paperless-ngx`), as first and last run. */
function hyphenatedSpan(query: QueryWords, run: number): [number, number] {
  const { text, runStarts, runEnds } = query;
  if (text === undefined || runStarts === undefined || runEnds === undefined) return [run, run];
  return spanOf(
    run,
    runStarts.length,
    (at) => text.charAt(runEnds[at]!) === '-' && runStarts[at + 1] === runEnds[at]! + 1,
  );
}

/** How many runs outside `start`…`end` are capitalized inside a sentence. */
function namesOutside(query: QueryWords, start: number, end: number): number {
  let names = 0;
  const { runOf } = query;
  for (let i = 1; i < runOf.length; i++) {
    const run = runOf[i]!;
    // A run's first word stands for it.
    if (run !== runOf[i - 1] && (run < start || run > end) && capitalizedInSentence(query, i)) names++;
  }
  return names;
}

/** Whether run `run` starts with a capital: a name's word or an acronym (`Plus`, `RSS`). */
function writtenCapitalized(query: QueryWords, run: number): boolean {
  const { text, runStarts } = query;
  return text !== undefined && runStarts !== undefined && isAsciiCapital(text.charCodeAt(runStarts[run]!));
}

/** Whether word `i` stands inside a double-quoted span (`"Corridor in the Asylum"`), or is quoted itself. */
function insideQuotes(query: QueryWords, i: number): boolean {
  const { text, runStarts } = query;
  if (text === undefined || runStarts === undefined) return false;
  const before = text.slice(0, runStarts[query.runOf[i]!]!);
  return quoted(query, i) || (before.match(DOUBLE_QUOTES)?.length ?? 0) % 2 === 1;
}

const DOUBLE_QUOTES = /["\u201c\u201d]/g;

/** Whether word `i` is capitalized inside a sentence, in a query not capitalized throughout (see `writtenAsName`). */
function capitalizedInSentence(query: QueryWords, i: number): boolean {
  const { text, runStarts, runEnds } = query;
  if (text === undefined || runStarts === undefined || runEnds === undefined) return false;
  const run = query.runOf[i]!;
  const start = runStarts[run]!;
  if (
    run === 0 ||
    !isAsciiCapital(text.charCodeAt(start)) ||
    !/[a-z]/.test(text.slice(start + 1, runEnds[run]!))
  )
    return false;
  if (endsSentence(text, start)) return false;
  // The other runs after the first, and how many of them are capitalized: under half in a sentence.
  const capitals = capitalizedRuns(query, text, runStarts) - 1;
  return capitals * 2 < runStarts.length - 2;
}

// Per query: how many runs after the first start with a capital (every word is asked about).
const capitalCounts = new WeakMap<QueryWords, number>();

function capitalizedRuns(query: QueryWords, text: string, runStarts: readonly number[]): number {
  let count = capitalCounts.get(query);
  if (count === undefined) {
    count = 0;
    for (let run = 1; run < runStarts.length; run++)
      if (isAsciiCapital(text.charCodeAt(runStarts[run]!))) count++;
    capitalCounts.set(query, count);
  }
  return count;
}

const MIN_CAPITALS_NAME = 4;
const ALL_CAPITALS = /^[A-Z]+$/;

/**
 * Whether word `i` is written in capitals of at least four letters after the first word, in a query
 * that is not (`DAZN`, `YNAB`): shorter capitals are mostly acronyms (`PDF`, `MRI`).
 */
function inCapitals(query: QueryWords, i: number): boolean {
  const { text, runStarts, runEnds } = query;
  if (text === undefined || runStarts === undefined || runEnds === undefined) return false;
  const run = query.runOf[i]!;
  const written = text.slice(runStarts[run]!, runEnds[run]!);
  return run > 0 && written.length >= MIN_CAPITALS_NAME && ALL_CAPITALS.test(written) && /[a-z]/.test(text);
}

function isAsciiCapital(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** Whether `text` before `at` ends a sentence: `.`, `!`, `?` or `:`, then only spaces. */
function endsSentence(text: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && /\s/.test(text.charAt(before))) before--;
  return before >= 0 && SENTENCE_ENDS.includes(text.charAt(before));
}

/** The one of `phrases` that run `run` comes right after (`log into <run>`), as text. */
function followedPhrase(
  runs: readonly string[],
  run: number,
  phrases: readonly (readonly string[])[],
): string | undefined {
  const found = phrases.find(
    (phrase) => run >= phrase.length && phrase.every((word, k) => runs[run - phrase.length + k] === word),
  );
  return found?.join(' ');
}

/** A channel, a tool verb or a destination: what a known app's name comes after (`on`, `via`, `to`). */
function opensChannel(word: string): boolean {
  return CHANNELS.has(word) || TOOL_VERBS.has(word) || APP_DESTINATIONS.has(word);
}

/**
 * Whether run `run` is signed into or owned as an account: `log into wger`, `my wger instance` (not
 * `the gardening website`: `the` owns nothing). Not `ask … to`: in a task, that is mostly a person.
 */
function inAccountFrame(runs: readonly string[], run: number): boolean {
  return (
    (isAccountName(runs, run) && runs[run - 1] !== 'the') ||
    followedPhrase(runs, run, SIGN_IN_PHRASES) !== undefined
  );
}

function isAccountName(runs: readonly string[], run: number): boolean {
  return run > 0 && OWNERS.has(runs[run - 1]!) && ACCOUNT_NOUNS.has(runs[run + 1] ?? '');
}
