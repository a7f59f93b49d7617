import { describe, expect, it } from 'vitest';
import { coerceArguments } from '../../../src/bridge/argument-coercion.js';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    flag: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    options: { type: 'object', properties: {} },
    strict: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    label: { type: 'string' },
    maybe: { type: ['integer', 'null'] },
    either: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    text_or_number: { type: ['integer', 'string'] },
  },
};

describe('coerceArguments', () => {
  it('turns numeric and boolean strings into what the schema declares', () => {
    expect(coerceArguments(schema, { count: ' 42 ', ratio: '0.5', flag: 'TRUE' })).toEqual({
      count: 42,
      ratio: 0.5,
      flag: true,
    });
  });

  it('keeps a string that is not a valid value of the declared type', () => {
    expect(coerceArguments(schema, { count: '4.5', ratio: '0x10', flag: 'yes' })).toEqual({
      count: '4.5',
      ratio: '0x10',
      flag: 'yes',
    });
  });

  it('parses JSON strings for arrays and objects, and wraps a bare value in an array', () => {
    expect(coerceArguments(schema, { tags: '["a","b"]', options: '{"x":1}' })).toEqual({
      tags: ['a', 'b'],
      options: { x: 1 },
    });
    expect(coerceArguments(schema, { tags: 'solo' })).toEqual({ tags: ['solo'] });
    expect(coerceArguments(schema, { tags: 7 })).toEqual({ tags: [7] });
  });

  it('reads a blank string as {} only for an object that requires nothing', () => {
    expect(coerceArguments(schema, { options: '', strict: '' })).toEqual({ options: {}, strict: '' });
  });

  it('turns "null" into null where null is allowed, including anyOf arms', () => {
    expect(coerceArguments(schema, { maybe: 'null', either: 'null', count: 'null' })).toEqual({
      maybe: null,
      either: null,
      count: 'null',
    });
    expect(coerceArguments(schema, { either: '7' })).toEqual({ either: 7 });
  });

  it('leaves strings alone where a string is allowed, and unknown keys as they are', () => {
    expect(coerceArguments(schema, { label: '42', text_or_number: '42', extra: '1' })).toEqual({
      label: '42',
      text_or_number: '42',
      extra: '1',
    });
  });

  it('returns a new object and never changes its input', () => {
    const args = { count: '1', nested: { a: '2' } };
    const out = coerceArguments(schema, args);
    expect(out).not.toBe(args);
    expect(args).toEqual({ count: '1', nested: { a: '2' } });
    expect(out.nested).toBe(args.nested);
  });
});
