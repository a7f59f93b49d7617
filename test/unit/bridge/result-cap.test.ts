import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { capResult } from '../../../src/bridge/result-cap.js';

const size = (result: CallToolResult) => Buffer.byteLength(JSON.stringify(result));

describe('capResult', () => {
  it('returns a result under the cap as it is', () => {
    const result: CallToolResult = {
      content: [{ type: 'text', text: 'hello' }],
      structuredContent: { a: 1 },
    };
    expect(capResult(result, 4_096)).toBe(result);
  });

  it('issue #12: cuts the text that crosses the cap on a character boundary and says so', () => {
    const capped = capResult({ content: [{ type: 'text', text: '€'.repeat(10_000) }] }, 8_192);
    const [text, note] = capped.content as unknown as [{ text: string }, { text: string }];
    expect(text.text).toBe('€'.repeat(text.text.length));
    expect(Buffer.byteLength(text.text)).toBeLessThanOrEqual(8_192 - 2_048);
    expect(note.text).toContain(
      'this result was 30,039 bytes (29.3 KiB), over the 8,192 bytes (8.0 KiB) limit',
    );
    expect(note.text).toContain('content[0] (text) cut to');
    expect(size(capped)).toBeLessThanOrEqual(8_192);
  });

  it('issue #12: cuts an embedded text resource, keeps what fits whole, and drops what does not', () => {
    const capped = capResult(
      {
        content: [
          { type: 'text', text: 'intro' },
          { type: 'resource', resource: { uri: 'file:///log', text: 'l'.repeat(20_000) } },
          { type: 'image', mimeType: 'image/png', data: 'A'.repeat(20_000) },
        ],
        structuredContent: { log: 'l'.repeat(20_000) },
        isError: false,
      },
      8_192,
    );
    expect(capped.content.map((block) => block.type)).toEqual(['text', 'resource', 'text']);
    expect(capped.structuredContent).toBeUndefined();
    expect(capped.isError).toBe(false);
    const note = (capped.content.at(-1) as { text: string }).text;
    expect(note).toContain('content[1] (resource file:///log) cut to');
    expect(note).toContain('content[2] (image image/png, 20,049 bytes (19.6 KiB)) left out');
    expect(note).toContain('structuredContent (20,010 bytes (19.5 KiB)) left out');
  });
});

describe('capResult against results built to get past it', () => {
  const cases: Array<[string, CallToolResult]> = [
    [
      '10,000 small blocks',
      { content: Array.from({ length: 10_000 }, (_, i) => ({ type: 'text', text: `b${i}` })) },
    ],
    [
      'a huge _meta and an extra field',
      {
        content: [{ type: 'text', text: 'ok' }],
        _meta: { x: 'm'.repeat(50_000) },
        extra: 'e'.repeat(50_000),
      },
    ],
    ['text that JSON escaping doubles', { content: [{ type: 'text', text: '"\\'.repeat(30_000) }] }],
    [
      'control characters (6 bytes each in JSON)',
      { content: [{ type: 'text', text: '\u0001'.repeat(30_000) }] },
    ],
    [
      'a resource with a huge URI',
      { content: [{ type: 'resource', resource: { uri: `x:${'u'.repeat(50_000)}`, text: 'hi' } }] },
    ],
    [
      'a link with a huge name',
      { content: [{ type: 'resource_link', uri: 'x:1', name: 'n'.repeat(50_000) }] },
    ],
    [
      'a text block with huge annotations',
      { content: [{ type: 'text', text: 't', _meta: { a: 'a'.repeat(50_000) } }] },
    ],
    [
      'a long MIME type',
      { content: [{ type: 'image', mimeType: `image/${'p'.repeat(50_000)}`, data: 'AAAA' }] },
    ],
  ];
  for (const [name, result] of cases) {
    it(`issue #12: stays within the cap, note included: ${name}`, () => {
      const capped = capResult(result, 8_192);
      expect(size(capped)).toBeLessThanOrEqual(8_192);
      expect((capped.content.at(-1) as { text: string }).text).toMatch(/^\[toolbridge: this result was /);
    });
  }
});
