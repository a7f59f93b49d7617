import type { StemCache } from './stem-cache.js';
import type { TokenizerOptions } from './tokenizer.js';
import {
  keywordText,
  nameWordsStart,
  parameterDescriptions,
  schemaProperties,
  serverLabel,
} from './tool-document.js';
import type { IndexEntry } from './types.js';

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

/** One tool's words: what it was read from, and where its `[wordId, field, count]` triples are. */
export interface ToolWords {
  readonly description: string;
  readonly server: string;
  readonly parameters: readonly string[];
  readonly keywords: string;
  readonly parameterDescriptions: string;
  /** Its triples are `words[start .. end)` of the memo; the name's come first, up to `nameEnd`. */
  start: number;
  end: number;
  nameEnd: number;
}

// Past this many remembered tools or triple slots, the memo starts afresh.
const MAX_TOOLS = 200_000;
const MAX_WORDS = 16_000_000;

/**
 * Each tool's words, remembered across builds by its name, so that rebuilding an index over
 * mostly the same tools reads each in one step. A remembered tool is used only when every text it
 * was read from is equal to the entry's now, so it can never describe a tool that changed. The
 * triples of all tools are packed in one array: no allocation per tool or per text.
 */
export class ToolWordsMemo {
  private readonly tools = new Map<string, ToolWords>();
  /** Every remembered tool's triples; read it after `wordsOf`, which may replace it. */
  words = new Int32Array(1 << 18);
  private length = 0;

  constructor(
    private readonly cache: StemCache,
    private readonly tokenizer: Readonly<TokenizerOptions>,
    private readonly withParameterDescriptions: boolean,
  ) {}

  /** Called before reading a batch of tools: forgets everything once the memo has grown too big. */
  startReading(): void {
    if (this.tools.size > MAX_TOOLS || this.length > MAX_WORDS) {
      this.tools.clear();
      this.length = 0;
    }
  }

  wordsOf(entry: IndexEntry): ToolWords {
    const properties = schemaProperties(entry.inputSchema);
    const known = this.tools.get(entry.name);
    if (known !== undefined && this.isUnchanged(known, entry, properties)) return known;
    const words = this.read(entry, properties);
    this.tools.set(entry.name, words);
    return words;
  }

  private isUnchanged(
    known: ToolWords,
    entry: IndexEntry,
    properties: Record<string, unknown> | undefined,
  ): boolean {
    if (known.description !== textOf(entry.description) || known.server !== textOf(entry.server))
      return false;
    const keys = properties === undefined ? NO_KEYS : Object.keys(properties);
    if (keys.length !== known.parameters.length) return false;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== known.parameters[i]) return false;
    if (known.keywords !== (entry.keywords == null ? '' : keywordText(entry))) return false;
    return (
      !this.withParameterDescriptions ||
      known.parameterDescriptions === parameterDescriptions(properties ?? {}, known.parameters)
    );
  }

  private read(entry: IndexEntry, properties: Record<string, unknown> | undefined): ToolWords {
    const parameters = properties === undefined ? [] : Object.keys(properties);
    // One literal with every field, so all remembered tools share one shape (fast to read).
    const tool: ToolWords = {
      description: textOf(entry.description),
      server: textOf(entry.server),
      parameters,
      keywords: keywordText(entry),
      parameterDescriptions:
        this.withParameterDescriptions && properties !== undefined
          ? parameterDescriptions(properties, parameters)
          : '',
      start: this.length,
      end: this.length,
      nameEnd: this.length,
    };
    this.add(entry.name, nameWordsStart(entry.name), NAME);
    tool.nameEnd = this.length;
    this.add(serverLabel(entry), 0, SERVER);
    this.add(tool.description, 0, DESCRIPTION);
    for (const parameter of parameters) this.add(parameter, 0, PARAMETERS);
    this.add(tool.parameterDescriptions, 0, PARAMETER_DESCRIPTIONS);
    this.add(tool.keywords, 0, KEYWORDS);
    tool.end = this.length;
    return tool;
  }

  /** Appends the triples of one text's words. */
  private add(text: string, from: number, field: number): void {
    if (text.length <= from) return;
    const count = this.cache.scan(text, from, this.tokenizer);
    const needed = this.length + 3 * count;
    if (needed > this.words.length) {
      const grown = new Int32Array(Math.max(needed, this.words.length * 2));
      grown.set(this.words.subarray(0, this.length));
      this.words = grown;
    }
    this.length = this.cache.writeBag(text, field, field === NAME ? WHOLE_RUN : 0, this.words, this.length);
  }
}

const NO_KEYS: readonly string[] = [];
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

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
