/**
 * Caps what one tool result weighs when it reaches the agent (setting `maxResultBytes`), measured
 * as the JSON that is sent. A result under the cap passes untouched. Over it, content blocks are
 * kept in order while they fit; the text block (or embedded text resource) that crosses the cap is
 * cut at a character boundary; images, audio, blobs, links and `structuredContent` that do not fit
 * whole are left out, since half of one is useless; then the result's other fields (`_meta`, extra
 * ones) if they still fit. A last text block says what was cut, how large the whole was, and how
 * to get the rest. The capped result, note included, is never over the cap.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Block = CallToolResult['content'][number];

/** Room kept for the closing note (its listing of cuts is bounded to fit). */
const NOTE_BYTES = 2_048;
/** A cut text keeps at least this much, else it is left out like a binary block. */
const MIN_CUT_BYTES = 64;
/** Cuts named one by one in the note; the rest are counted. */
const NAMED_CUTS = 6;

export function capResult(result: CallToolResult, maxBytes: number): CallToolResult {
  const total = jsonBytes(result);
  if (total <= maxBytes) return result;

  let budget = Math.max(0, maxBytes - NOTE_BYTES);
  const cuts = new CutList();
  const content: Block[] = [];
  const { content: blocks, structuredContent, isError, ...others } = result;
  blocks.forEach((block, index) => {
    const size = jsonBytes(block);
    // +1 for the comma between blocks.
    if (size + 1 <= budget) {
      content.push(block);
      budget -= size + 1;
      return;
    }
    const cut = cutBlock(block, budget);
    if (cut === undefined) {
      cuts.add(`content[${index}] (${kindOf(block)}, ${bytes(size)}) left out`, size);
      return;
    }
    content.push(cut.block);
    budget -= cut.bytes + 1;
    cuts.add(
      `content[${index}] (${kindOf(block)}) cut to ${bytes(cut.bytes)} of ${bytes(size)}`,
      size - cut.bytes,
    );
  });
  const keepStructured = structuredContent !== undefined && fits(structuredContent);
  if (structuredContent !== undefined && !keepStructured) {
    const size = jsonBytes(structuredContent);
    cuts.add(`structuredContent (${bytes(size)}) left out`, size);
  }
  const otherNames = Object.keys(others);
  const keepOthers = otherNames.length > 0 && fits(others);
  if (otherNames.length > 0 && !keepOthers) {
    const names = otherNames.slice(0, 3).map((name) => name.slice(0, 40));
    const size = jsonBytes(others);
    cuts.add(
      `the result's ${names.join(', ')}${otherNames.length > 3 ? ', …' : ''} (${bytes(size)}) left out`,
      size,
    );
  }
  content.push({
    type: 'text',
    text:
      `[toolbridge: this result was ${bytes(total)}, over the ${bytes(maxBytes)} limit on what one result ` +
      `may send the agent (setting maxResultBytes). ${cuts.describe()}. To get the rest, ask the tool ` +
      'for less at a time (a narrower query, a page, a range or an offset); the person can raise the ' +
      'limit in Settings.]',
  });
  return {
    ...(keepOthers ? others : {}),
    content,
    ...(keepStructured ? { structuredContent } : {}),
    ...(isError === undefined ? {} : { isError }),
  };

  function fits(value: unknown): boolean {
    const size = jsonBytes(value);
    if (size > budget) return false;
    budget -= size;
    return true;
  }
}

/** What was cut, the first few by name and the rest counted, so the note stays short. */
class CutList {
  private readonly named: string[] = [];
  private more = 0;
  private moreBytes = 0;

  add(description: string, bytesLeftOut: number): void {
    if (this.named.length < NAMED_CUTS) this.named.push(description);
    else {
      this.more++;
      this.moreBytes += bytesLeftOut;
    }
  }

  describe(): string {
    const more = this.more === 0 ? [] : [`${this.more} more part(s) (${bytes(this.moreBytes)}) left out`];
    return [...this.named, ...more].join('; ');
  }
}

/**
 * The block with its text shortened so that the block's JSON fits in `maxBytes` (its other fields
 * dropped), or undefined when it has no text to cut or too little would remain.
 */
function cutBlock(block: Block, maxBytes: number): { block: Block; bytes: number } | undefined {
  let make: ((text: string) => Block) | undefined;
  let text: string | undefined;
  if (block.type === 'text') {
    make = (cut) => ({ type: 'text', text: cut });
    text = block.text;
  } else if (block.type === 'resource' && 'text' in block.resource) {
    const { uri, mimeType } = block.resource;
    make = (cut) => ({
      type: 'resource',
      resource: { uri, ...(mimeType === undefined ? {} : { mimeType }), text: cut },
    });
    text = block.resource.text;
  }
  if (make === undefined || text === undefined) return undefined;
  // JSON escaping can make text longer than its UTF-8 bytes: shrink until the block fits.
  let target = maxBytes - jsonBytes(make(''));
  while (target >= MIN_CUT_BYTES) {
    const cut = make(cutText(text, target));
    const size = jsonBytes(cut);
    if (size <= maxBytes) return { block: cut, bytes: size };
    target = Math.floor((target * maxBytes) / size) - 1;
  }
  return undefined;
}

/** The longest prefix of `text` within `maxBytes` of UTF-8 that ends on a whole character. */
function cutText(text: string, maxBytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  let end = Math.min(maxBytes, encoded.length);
  // Step back over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && end < encoded.length && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
  return encoded.toString('utf8', 0, end);
}

/** A short, bounded name for a block: a server's MIME type or URI may be long on purpose. */
function kindOf(block: Block): string {
  if (block.type === 'image' || block.type === 'audio') return `${block.type} ${block.mimeType.slice(0, 60)}`;
  if (block.type === 'resource') return `resource ${block.resource.uri.slice(0, 100)}`;
  return String(block.type).slice(0, 40);
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/** `5,242,880 bytes (5.0 MiB)`. */
function bytes(count: number): string {
  const unit =
    count >= 1024 * 1024
      ? ` (${(count / 1024 / 1024).toFixed(1)} MiB)`
      : count >= 1024
        ? ` (${(count / 1024).toFixed(1)} KiB)`
        : '';
  return `${count.toLocaleString('en-US')} bytes${unit}`;
}
