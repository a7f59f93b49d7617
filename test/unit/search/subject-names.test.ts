import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isPlaceName, isSubjectName, readCities } from '../../../src/search/node/subject-names.js';

describe('readCities', () => {
  it("reads city-timezones' data file field by field exactly as JSON.parse does", () => {
    const file = createRequire(import.meta.url).resolve('city-timezones/data/cityMap.json');
    const text = readFileSync(file, 'utf8');
    const parsed = (JSON.parse(text) as { city_ascii: string; province: string; pop: number }[]).map(
      ({ city_ascii, province, pop }) => ({ city_ascii, province, pop }),
    );
    expect(parsed.length).toBeGreaterThan(7000);
    expect(readCities(text)).toEqual(parsed);
  });

  it('reads nothing from a text without cities', () => {
    expect(readCities('[]')).toEqual([]);
  });
});

describe('subject names', () => {
  it('holds cities of note and their provinces, and every place as a place name', () => {
    expect(isSubjectName('paris')).toBe(true);
    expect(isSubjectName('texas')).toBe(true);
    // Darwin has fewer than 100,000 people: a place, not a subject everywhere.
    expect(isSubjectName('darwin')).toBe(false);
    expect(isPlaceName('darwin')).toBe(true);
  });
});

describe('stock tickers', () => {
  it('holds tickers of four or five letters, but not those that are English words or known apps', () => {
    expect(isSubjectName('msft')).toBe(true);
    expect(isSubjectName('nvda')).toBe(true);
    // `UBER` and `TEAM` are tickers too, but the app and the word come first.
    expect(isSubjectName('uber')).toBe(false);
    expect(isSubjectName('team')).toBe(false);
    // Shorter tickers are mostly acronyms of other things (`PSN`).
    expect(isSubjectName('psn')).toBe(false);
  });
});

describe('coins', () => {
  it('holds a coin the brand lists draw, with a ticker of its own, but not a token named after a brand', () => {
    for (const coin of ['bitcoin', 'ethereum', 'solana', 'dogecoin'])
      expect(isSubjectName(coin), coin).toBe(true);
    // `REDDIT` is a token ticked with the brand's own name: the app comes first.
    expect(isSubjectName('reddit')).toBe(false);
  });
});
