import { describe, expect, it } from 'vitest';
import { integerFlag, parseArgs } from '../../../src/cli/command.js';

const spec = { name: 'string', tag: 'strings', flag: 'boolean' } as const;

describe('parseArgs', () => {
  it('reads values, repeated flags, booleans and positionals', () => {
    const parsed = parseArgs('x', ['a', '--name', 'n', '--tag=1', '--tag', '2', '--flag', 'b'], spec);
    expect(parsed).toEqual({ flags: { name: 'n', tag: ['1', '2'], flag: true }, positionals: ['a', 'b'] });
  });

  it('takes everything after -- as positional', () => {
    expect(parseArgs('x', ['--', '--name', '-q'], spec).positionals).toEqual(['--name', '-q']);
  });

  it('accepts a value that starts with a single dash', () => {
    expect(parseArgs('x', ['--name', '-5'], spec).flags.name).toBe('-5');
  });

  it.each([
    [['--nope'], 'unknown option --nope'],
    [['-q'], 'unknown option -q'],
    [['--name'], 'option --name needs a value'],
    [['--name', '--flag'], 'option --name needs a value'],
    [['--flag=yes'], 'option --flag takes no value'],
    [['--name', 'a', '--name', 'b'], 'option --name was given twice'],
  ])('rejects %j', (args, message) => {
    expect(() => parseArgs('x', args, spec)).toThrow(message);
    try {
      parseArgs('x', args, spec);
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});

describe('integerFlag', () => {
  it('parses whole numbers within range and leaves a missing flag undefined', () => {
    expect(integerFlag('x', '12', 'limit', { min: 1 })).toBe(12);
    expect(integerFlag('x', undefined, 'limit', { min: 1 })).toBeUndefined();
  });

  it.each(['0', '1.5', 'abc', '', '51', '99999999999999999999'])('rejects %j', (value) => {
    expect(() => integerFlag('x', value, 'limit', { min: 1, max: 50 })).toThrow(
      /--limit must be a whole number/,
    );
  });
});
