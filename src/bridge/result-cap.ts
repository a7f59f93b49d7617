/**
 * Caps what one tool result weighs when it reaches the agent (setting `maxResultBytes`). A result
 * under the cap passes untouched. Over it, blocks are kept in order while they fit; the text block
 * (or embedded text resource) that crosses the cap is cut at a character boundary; images, audio,
 * blobs and `structuredContent` that do not fit whole are left out, since half of one is useless.
 * A last text block says what was cut, how large the whole was, and how to get the rest.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Block = CallToolResult['content'][number];

/** Room kept for the closing note, so the capped result stays under the cap with it. */
const NOTE_BYTES = 1_024;
/** A cut text keeps at least this much, else it is left out like a binary block. */
const MIN_CUT_BYTES = 64;

export function capResult(result: CallToolResult, maxBytes: number): CallToolResult {
  const sizes = result.content.map(blockBytes);
  const structuredBytes = result.structuredContent === undefined ? 0 : jsonBytes(result.structuredContent);
  const total = sizes.reduce((sum, size) => sum + size, structuredBytes);
  if (total <= maxBytes) return result;

  let budget = Math.max(0, maxBytes - NOTE_BYTES);
  const content: Block[] = [];
  const cuts: string[] = [];
  result.content.forEach((block, index) => {
    const size = sizes[index] ?? 0;
    if (size <= budget) {
      content.push(block);
      budget -= size;
      return;
    }
    const cut = budget >= MIN_CUT_BYTES ? cutBlock(block, budget) : undefined;
    if (cut !== undefined) {
      content.push(cut.block);
      budget -= cut.keptBytes;
      cuts.push(`content[${index}] (${kindOf(block)}) cut after ${bytes(cut.keptBytes)} of ${bytes(size)}`);
    } else {
      cuts.push(`content[${index}] (${kindOf(block)}, ${bytes(size)}) left out`);
    }
  });
  const { structuredContent, ...rest } = result;
  const keepStructured = structuredContent !== undefined && structuredBytes <= budget;
  if (structuredContent !== undefined && !keepStructured) {
    cuts.push(`structuredContent (${bytes(structuredBytes)}) left out`);
  }
  content.push({
    type: 'text',
    text:
      `[toolbridge: this result was ${bytes(total)}, over the ${bytes(maxBytes)} limit on what one result ` +
      `may send the agent (setting maxResultBytes). ${cuts.join('; ')}. To get the rest, ask the tool ` +
      'for less at a time (a narrower query, a page, a range or an offset); the person can raise the ' +
      'limit in Settings.]',
  });
  return { ...rest, ...(keepStructured ? { structuredContent } : {}), content };
}

function blockBytes(block: Block): number {
  switch (block.type) {
    case 'text':
      return Buffer.byteLength(block.text);
    case 'image':
    case 'audio':
      return block.data.length;
    case 'resource':
      return 'text' in block.resource ? Buffer.byteLength(block.resource.text) : block.resource.blob.length;
    default:
      return jsonBytes(block);
  }
}

/** The block with its text shortened to `maxBytes`, or undefined when it has no text to cut. */
function cutBlock(block: Block, maxBytes: number): { block: Block; keptBytes: number } | undefined {
  if (block.type === 'text') {
    const text = cutText(block.text, maxBytes);
    return { block: { ...block, text }, keptBytes: Buffer.byteLength(text) };
  }
  if (block.type === 'resource' && 'text' in block.resource) {
    const text = cutText(block.resource.text, maxBytes);
    return { block: { ...block, resource: { ...block.resource, text } }, keptBytes: Buffer.byteLength(text) };
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

function kindOf(block: Block): string {
  if (block.type === 'image' || block.type === 'audio')
    return `${block.type} ${block.mimeType.slice(0, 100)}`;
  // A server's URI may be long on purpose; the note stays short.
  if (block.type === 'resource') return `resource ${block.resource.uri.slice(0, 200)}`;
  return block.type;
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
