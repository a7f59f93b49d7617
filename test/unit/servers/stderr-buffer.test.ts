import { describe, expect, it } from 'vitest';
import { StderrBuffer } from '../../../src/servers/stderr-buffer.js';

describe('StderrBuffer', () => {
  it('splits chunks into lines and keeps an unfinished one last', () => {
    const buffer = new StderrBuffer();
    buffer.write('one\ntw');
    buffer.write('o\r\nthr');
    expect(buffer.tail()).toEqual(['one', 'two', 'thr']);
    buffer.flush();
    buffer.write('four\n');
    expect(buffer.tail()).toEqual(['one', 'two', 'thr', 'four']);
  });

  it('keeps only the newest lines, within the line and character bounds', () => {
    const byLines = new StderrBuffer({ maxLines: 3 });
    byLines.write('a\nb\nc\nd\ne\n');
    expect(byLines.tail()).toEqual(['c', 'd', 'e']);
    const byChars = new StderrBuffer({ maxChars: 10 });
    byChars.write('12345\n67890\nabcde\n');
    expect(byChars.tail()).toEqual(['67890', 'abcde']);
  });

  it('cuts a huge line and stays bounded under a flood', () => {
    const buffer = new StderrBuffer({ maxLineChars: 10, maxLines: 50, maxChars: 1_000 });
    buffer.write(`${'x'.repeat(100)}\n`);
    expect(buffer.tail()).toEqual(['xxxxxxxxxx… [cut]']);
    for (let i = 0; i < 10_000; i++) buffer.write(`line ${i} ${'y'.repeat(30)}\n`);
    const tail = buffer.tail();
    expect(tail.length).toBeLessThanOrEqual(50);
    expect(tail.join('').length).toBeLessThanOrEqual(1_000);
    expect(tail.at(-1)).toContain('line 9999');
    buffer.write('z'.repeat(100_000));
    expect(buffer.tail().at(-1)?.length).toBeLessThanOrEqual(20);
  });

  it('redacts every stored line and marks its own notes', () => {
    const buffer = new StderrBuffer({ redact: (line) => line.replaceAll('s3cret', '••••') });
    buffer.write('key=s3cret\npartial s3cret');
    buffer.note('server stopped');
    expect(buffer.tail()).toEqual(['key=••••', 'partial ••••', '[toolbridge] server stopped']);
  });
});
