import { isPlainObject } from '../base/json.js';
import type { StemCache } from './stem-cache.js';
import type { TokenizerOptions } from './tokenizer.js';
import {
  keywordText,
  nameWordsStart,
  parameterDescriptions,
  parameterNames,
  schemaProperties,
  serverLabel,
} from './tool-document.js';
import type { IndexEntry } from './types.js';
import { growInt32 } from './word-table.js';

/** Field numbers, in the order the index weighs them (`FIELDS` in tool-corpus.ts). */
export const NAME = 0;
export const SERVER = 1;
export const DESCRIPTION = 2;
export const PARAMETERS = 3;
export const PARAMETER_DESCRIPTIONS = 4;
export const KEYWORDS = 5;
/** Added to a name word's field when it is a split run given whole (`pagerduty`): not one of the name's own words. */
export const WHOLE_RUN = 8;
export const FIELD_OF = 7;

// Past this many remembered tools or triple slots, the memo starts afresh.
const MAX_TOOLS = 200_000;
const MAX_WORDS = 16_000_000;

/**
 * Each tool's words, remembered across builds by its name, so that rebuilding an index over
 * mostly the same tools reads each in one step. A remembered tool is used only when every text it
 * was read from is equal to the entry's now, so it can never describe a tool that changed. A read
 * tool is a number: its texts and where its `[wordId, field, count]` triples are live in columns,
 * and the triples of all tools in one array, so a first build allocates no object per tool (over
 * 100,000 tools, those objects cost the garbage collector more than reading them).
 */
export class ToolWordsMemo {
  /** The last read tool of each name. */
  private readonly tools = new Map<string, number>();
  private count = 0;
  // Whether the memo held any tool when this batch started (a first build has nothing to look up).
  private remembers = false;
  // Per read tool: what it was read from (TEXTS strings each), its parameter names and, when
  // they are read, each parameter's `description` as found (compared as is: no text is rebuilt).
  private texts: string[] = [];
  private parameters: (readonly string[])[] = [];
  private parameterDescriptionValues: (readonly unknown[])[] = [];
  // Per read tool: its triples are words[starts[t] .. ends[t]); the name's come first, up to nameEnds[t].
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private nameEnds = new Int32Array(1024);
  /** Every read tool's triples; read it after `wordsOf`, which may replace it. */
  words = new Int32Array(1 << 18);
  private length = 0;

  constructor(
    private readonly cache: StemCache,
    private readonly tokenizer: Readonly<TokenizerOptions>,
    private readonly withParameterDescriptions: boolean,
  ) {}

  /** Called before reading a batch of tools: forgets everything once the memo has grown too big. */
  startReading(): void {
    if (this.count > MAX_TOOLS || this.length > MAX_WORDS) {
      this.tools.clear();
      this.count = 0;
      this.texts = [];
      this.parameters = [];
      this.parameterDescriptionValues = [];
      this.length = 0;
    }
    this.remembers = this.count > 0;
  }

  /** The entry's words as a read tool (see `start`, `end`, `nameEnd`), read now unless remembered. */
  wordsOf(entry: IndexEntry): number {
    const properties = schemaProperties(entry.inputSchema);
    const known = this.remembers ? this.tools.get(entry.name) : undefined;
    if (known !== undefined && this.isUnchanged(known, entry, properties)) return known;
    const tool = this.read(entry, properties);
    this.tools.set(entry.name, tool);
    return tool;
  }

  /** Where the tool's triples start in `words`. */
  start(tool: number): number {
    return this.starts[tool]!;
  }

  /** Where its triples end. */
  end(tool: number): number {
    return this.ends[tool]!;
  }

  /** Where its name's triples end (they come first). */
  nameEnd(tool: number): number {
    return this.nameEnds[tool]!;
  }

  private isUnchanged(
    tool: number,
    entry: IndexEntry,
    properties: Record<string, unknown> | undefined,
  ): boolean {
    const texts = this.texts;
    const at = tool * TEXTS;
    if (
      texts[at + DESCRIPTION_TEXT] !== textOf(entry.description) ||
      texts[at + SERVER_TEXT] !== textOf(entry.server)
    )
      return false;
    const keys = properties === undefined ? NO_KEYS : parameterNames(properties);
    const known = this.parameters[tool]!;
    if (keys.length !== known.length) return false;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== known[i]) return false;
    if (texts[at + KEYWORDS_TEXT] !== (entry.keywords == null ? '' : keywordText(entry))) return false;
    if (!this.withParameterDescriptions || properties === undefined) return true;
    const values = this.parameterDescriptionValues[tool]!;
    for (let i = 0; i < known.length; i++) {
      if (descriptionValue(properties[known[i]!]) !== values[i]) return false;
    }
    return true;
  }

  private read(entry: IndexEntry, properties: Record<string, unknown> | undefined): number {
    const tool = this.count++;
    if (tool === this.starts.length) {
      this.starts = growInt32(this.starts, tool * 2);
      this.ends = growInt32(this.ends, tool * 2);
      this.nameEnds = growInt32(this.nameEnds, tool * 2);
    }
    const parameters = properties === undefined ? NO_KEYS : parameterNames(properties);
    const description = textOf(entry.description);
    const keywords = keywordText(entry);
    const descriptions =
      this.withParameterDescriptions && properties !== undefined
        ? parameterDescriptions(properties, parameters)
        : '';
    this.texts.push(description, textOf(entry.server), keywords);
    this.parameters.push(parameters);
    if (this.withParameterDescriptions) {
      this.parameterDescriptionValues.push(
        properties === undefined ? NO_KEYS : parameters.map((key) => descriptionValue(properties[key])),
      );
    }
    this.starts[tool] = this.length;
    this.add(entry.name, nameWordsStart(entry.name), NAME);
    this.nameEnds[tool] = this.length;
    this.add(serverLabel(entry), 0, SERVER);
    this.add(description, 0, DESCRIPTION);
    for (const parameter of parameters) this.add(parameter, 0, PARAMETERS);
    this.add(descriptions, 0, PARAMETER_DESCRIPTIONS);
    this.add(keywords, 0, KEYWORDS);
    this.ends[tool] = this.length;
    return tool;
  }

  /** Appends the triples of one text's words. */
  private add(text: string, from: number, field: number): void {
    if (text.length <= from) return;
    const count = this.cache.scan(text, from, this.tokenizer);
    const needed = this.length + 3 * count;
    if (needed > this.words.length) this.words = growInt32(this.words.subarray(0, this.length), needed);
    this.length = this.cache.writeBag(text, field, field === NAME ? WHOLE_RUN : 0, this.words, this.length);
  }
}

// A read tool's texts, in this order, TEXTS of them.
const DESCRIPTION_TEXT = 0;
const SERVER_TEXT = 1;
const KEYWORDS_TEXT = 2;
const TEXTS = 3;

const NO_KEYS: readonly string[] = [];
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const descriptionValue = (property: unknown): unknown =>
  isPlainObject(property) ? property.description : undefined;

const memos = new WeakMap<StemCache, Map<number, ToolWordsMemo>>();

/** The memo for tools read into `cache`'s words with these settings. */
export function toolWordsMemo(
  cache: StemCache,
  tokenizer: Readonly<TokenizerOptions>,
  withParameterDescriptions: boolean,
): ToolWordsMemo {
  let bySettings = memos.get(cache);
  if (bySettings === undefined) {
    bySettings = new Map();
    memos.set(cache, bySettings);
  }
  const key =
    (tokenizer.splitCamelCase ? 1 : 0) +
    (tokenizer.splitLetterDigit ? 2 : 0) +
    (withParameterDescriptions ? 4 : 0);
  let memo = bySettings.get(key);
  if (memo === undefined) {
    memo = new ToolWordsMemo(cache, tokenizer, withParameterDescriptions);
    bySettings.set(key, memo);
  }
  return memo;
}
