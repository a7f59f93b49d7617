import { expect } from 'vitest';
import { ToolbridgeError } from '../../src/base/errors.js';

/** The `{ path, message }` issues a settings validation threw; fails when it did not throw. */
export function issuesOf(fn: () => unknown): Array<{ path: string; message: string }> {
  try {
    fn();
  } catch (error) {
    expect(ToolbridgeError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    return (error as { data: { issues: Array<{ path: string; message: string }> } }).data.issues;
  }
  throw new Error('expected a validation error');
}
