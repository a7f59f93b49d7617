import { describe, expect, it } from 'vitest';
import { LineReader, responseIdOf } from '../../../src/servers/line-reader.js';

const lines = (reader: LineReader, ...chunks: string[]) =>
  chunks.flatMap((chunk) => reader.push(Buffer.from(chunk)));

describe('LineReader', () => {
  it('splits lines across chunk boundaries and drops a trailing CR', () => {
    const reader = new LineReader(100);
    expect(lines(reader, '{"a":', '1}\r\n{"b"', ':2}\n', '{"c"')).toEqual([
      { line: '{"a":1}' },
      { line: '{"b":2}' },
    ]);
    expect(lines(reader, ':3}\n')).toEqual([{ line: '{"c":3}' }]);
  });

  it('issue #12: skips a line over the limit up to its newline, keeps its ends, and reads on', () => {
    const reader = new LineReader(50);
    const long = `{"result":{"text":"${'x'.repeat(500)}"},"jsonrpc":"2.0","id":7}`;
    const events = lines(reader, long.slice(0, 30), long.slice(30, 400), `${long.slice(400)}\n{"ok":1}\n`);
    expect(events).toHaveLength(2);
    const [oversized, next] = events as [
      { oversized: { bytes: number; head: string; tail: string } },
      unknown,
    ];
    expect(oversized.oversized.bytes).toBe(long.length);
    expect(oversized.oversized.head.startsWith('{"result":{"text":"xxx')).toBe(true);
    expect(oversized.oversized.tail.endsWith('"jsonrpc":"2.0","id":7}')).toBe(true);
    expect(next).toEqual({ line: '{"ok":1}' });
  });
});

describe('responseIdOf', () => {
  const of = (head: string, tail: string) => responseIdOf({ bytes: 0, head, tail });

  it('reads the id of a response written id first or id last', () => {
    expect(of('{"jsonrpc":"2.0","id":12,"result":{"content":[', 'xx"}]}}')).toBe(12);
    expect(of('{"id":"a-1","result":{', '}}')).toBe('a-1');
    expect(of('{"result":{"content":[{"type":"text","text":"x', 'xxx"}]},"jsonrpc":"2.0","id":5}\r')).toBe(5);
    expect(of('{"error":{"code":-32603,"message":"x', 'x"},"jsonrpc":"2.0","id":"q"}')).toBe('q');
  });

  it('finds no id in a request, a notification, a nested id or noise', () => {
    expect(of('{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage"', '}}')).toBeUndefined();
    expect(of('{"method":"sampling/createMessage","params":{', '},"jsonrpc":"2.0","id":3}')).toBeUndefined();
    expect(of('{"method":"notifications/message","params":{', '}}')).toBeUndefined();
    expect(of('{"result":{"items":[{"id":1', '{"id":9}}}')).toBeUndefined();
    expect(of('xxxxxxxx', 'xxxxxxxx')).toBeUndefined();
  });
});
