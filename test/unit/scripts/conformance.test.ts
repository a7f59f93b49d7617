import { describe, expect, it } from 'vitest';
import {
  CLIENT_SCENARIOS,
  FAILURE_NOTES,
  readExpected,
  summarize,
} from '../../../scripts/conformance/run.js';

describe('npm run conformance (issue #14)', () => {
  it('issue #14: every expected failure is a scenario the command runs, with a reason the table gives', () => {
    const expected = readExpected();
    for (const name of expected.client) {
      expect(CLIENT_SCENARIOS, name).toContain(name);
      expect(Object.keys(FAILURE_NOTES.client), name).toContain(name);
    }
    for (const name of expected.server) expect(Object.keys(FAILURE_NOTES.server), name).toContain(name);
    // Every client auth scenario the command runs is expected to pass.
    expect([...expected.client].filter((name) => name.startsWith('auth/'))).toEqual([]);
  });

  it('issue #14: a scenario passes only when it ran checks and none failed; warnings are counted', () => {
    expect(summarize([])).toEqual({ passed: false, text: 'no checks ran' });
    expect(
      summarize([
        { id: 'a', status: 'SUCCESS' },
        { id: 'b', status: 'WARNING' },
        { id: 'c', status: 'INFO' },
      ]),
    ).toEqual({ passed: true, text: 'pass (1 checks, 1 warnings)' });
    const failed = summarize([
      { id: 'a', status: 'SUCCESS' },
      { id: 'b', status: 'FAILURE', errorMessage: 'no token sent' },
      { id: 'c', status: 'FAILURE', errorMessage: 'no token sent' },
      { id: 'd', status: 'FAILURE', description: 'wrong scope' },
      { id: 'e', status: 'FAILURE' },
    ]);
    expect(failed).toEqual({ passed: false, text: 'fail: no token sent; wrong scope; …' });
  });
});
