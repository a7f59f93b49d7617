import { describe, expect, it } from 'vitest';
import { isKnownApp, isKnownAppJoined } from '../../../src/search/node/known-apps.js';

describe('isKnownAppJoined', () => {
  it('finds an app whose name a query splits in two words', () => {
    expect(isKnownAppJoined('survey', 'monkey')).toBe(true);
    expect(isKnownAppJoined('digital', 'ocean')).toBe(true);
    expect(isKnownAppJoined('hub', 'spot')).toBe(true);
  });

  it('says no to pairs that join into no known app', () => {
    for (const [first, second] of [
      ['create', 'issue'],
      ['list', 'files'],
      ['send', 'message'],
      ['weather', 'forecast'],
    ] as const) {
      expect(isKnownAppJoined(first, second), `${first} ${second}`).toBe(false);
    }
  });

  it('answers as isKnownApp of the joined word for every split of many names and non-names', () => {
    const words = [
      'hub',
      'spot',
      'drop',
      'box',
      'zen',
      'desk',
      'git',
      'lab',
      'open',
      'table',
      'sales',
      'force',
    ];
    for (const first of words) {
      for (const second of words) {
        expect(isKnownAppJoined(first, second), first + second).toBe(isKnownApp(first + second));
      }
    }
  });
});

describe('isKnownApp', () => {
  it('knows a brand named with two letters around a digit, but no such code elsewhere', () => {
    expect(isKnownApp('n8n')).toBe(true);
    expect(isKnownApp('k3s')).toBe(true);
    // Tickers and acronyms in capitals stay out (`AAPL`), and so do two-character codes (`S3`).
    expect(isKnownApp('aapl')).toBe(false);
    expect(isKnownApp('s3')).toBe(false);
  });
});
