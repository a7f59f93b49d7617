import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';

describe('ToolbridgeError.is', () => {
  it('recognises an error rebuilt from plain data, by name and code', () => {
    const rebuilt = JSON.parse(JSON.stringify({ name: 'ToolbridgeError', code: 'NOT_FOUND', message: 'x' }));
    expect(ToolbridgeError.is(rebuilt)).toBe(true);
    expect(ToolbridgeError.is(rebuilt, 'NOT_FOUND')).toBe(true);
    expect(ToolbridgeError.is(rebuilt, 'TIMEOUT')).toBe(false);
    expect(ToolbridgeError.is(new Error('plain'))).toBe(false);
  });

  it('serialises to code, message and data only', () => {
    const error = new ToolbridgeError('INVALID_ARGUMENT', 'bad limit', { data: { limit: -1 } });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'bad limit',
      data: { limit: -1 },
    });
  });
});
