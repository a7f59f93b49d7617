import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { iconFilePath, isAppIconName } from '../../../src/search/node/icon-names.js';
import { isKnownApp } from '../../../src/search/node/known-apps.js';

// Every key of the pack's file, icons and aliases, read the slow way.
const text = readFileSync(iconFilePath(), 'latin1');
const aliasesAt = text.indexOf('\n\t"aliases": {');
const keysIn = (part: string) => [...part.matchAll(/\n\t\t"([^"]+)": \{/g)].map((match) => match[1]!);
const icons = keysIn(text.slice(0, aliasesAt));
const aliases = keysIn(text.slice(aliasesAt));

describe('isAppIconName', () => {
  it("knows phone apps the brand lists lack, from the icon pack's names", () => {
    for (const app of ['tado', 'agoda', 'wolt', 'sixt', 'ynab', 'zocdoc']) {
      expect(isKnownApp(app), app).toBe(false);
      expect(isAppIconName(app), app).toBe(true);
    }
  });

  it('leaves out names of under four letters, mostly acronyms, and words no icon has', () => {
    expect(isAppIconName('abc')).toBe(false);
    expect(isAppIconName('zorblat')).toBe(false);
    expect(isAppIconName('create')).toBe(false);
  });

  it('relies on an order the file keeps: names starting with a letter sorted, after those with a digit', () => {
    const firstLetter = icons.findIndex((key) => /^[a-z]/.test(key));
    expect(icons.slice(0, firstLetter).every((key) => /^[0-9]/.test(key))).toBe(true);
    const lettered = icons.slice(firstLetter);
    expect(lettered.length).toBeGreaterThan(15_000);
    for (let i = 1; i < lettered.length; i++) expect(lettered[i - 1]! < lettered[i]!, lettered[i]).toBe(true);
  });

  it('answers as a scan of the whole file would, for every name and the words beside them', () => {
    const named = new Set([...icons, ...aliases]);
    const oneWord = (key: string) => /^[a-z][a-z0-9]*$/.test(key) && key.replace(/[0-9]/g, '').length >= 4;
    // Every 7th name, its neighbours by one letter more or less, and every alias.
    const asked = new Set<string>(aliases);
    for (let i = 0; i < icons.length; i += 7) {
      const key = icons[i]!;
      for (const word of [key, `${key}a`, key.slice(0, -1), `${key}z`]) asked.add(word);
    }
    for (const word of asked) {
      expect(isAppIconName(word), word).toBe(oneWord(word) && named.has(word));
    }
  });
});
