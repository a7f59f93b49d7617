import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  LOGO_MIN_CONTRAST,
  lowestContrast,
  readableLogoColor,
  THEME_COLORS,
  type Theme,
} from '../../../renderer/lib/logo-color.js';
import { resolve, THEMES } from './stylesheet.js';

const icons = createRequire(import.meta.url)('simple-icons/icons.json') as { slug: string; hex: string }[];
const THEME_NAMES: Theme[] = ['light', 'dark'];

describe('readableLogoColor (issue #16: logos at 3:1 in both themes)', () => {
  it('uses the stylesheet surfaces and text colour of each theme', () => {
    for (const theme of THEME_NAMES) {
      const css = ['--bg', '--surface', '--surface-2'].map((name) => resolve(`var(${name})`, THEMES[theme]));
      expect(THEME_COLORS[theme].surfaces).toEqual(css);
      expect(THEME_COLORS[theme].text).toBe(resolve('var(--text)', THEMES[theme]));
    }
  });

  it('gives every bundled simple-icons logo 3:1 on every surface, light and dark', () => {
    expect(icons.length).toBeGreaterThan(3000);
    const low: string[] = [];
    for (const icon of icons)
      for (const theme of THEME_NAMES) {
        const color = readableLogoColor(icon.hex, theme);
        const ratio = lowestContrast(color, THEME_COLORS[theme].surfaces);
        if (ratio < LOGO_MIN_CONTRAST) low.push(`${icon.slug} ${theme}: ${color} ${ratio.toFixed(2)}`);
      }
    expect(low).toEqual([]);
  });

  it("keeps a brand colour that already reads, and changes GitHub's near-black only in dark", () => {
    const github = icons.find((icon) => icon.slug === 'github')!;
    expect(readableLogoColor(github.hex, 'light')).toBe('#181717');
    const dark = readableLogoColor(github.hex, 'dark');
    expect(dark).not.toBe('#181717');
    expect(contrastRatio('#181717', '#161a21')).toBeLessThan(LOGO_MIN_CONTRAST);
    expect(lowestContrast(dark, THEME_COLORS.dark.surfaces)).toBeGreaterThanOrEqual(LOGO_MIN_CONTRAST);
    // A pale brand is darkened in light mode for the same reason, and kept in dark.
    expect(readableLogoColor('FFFFFF', 'light')).not.toBe('#ffffff');
    expect(readableLogoColor('FFFFFF', 'dark')).toBe('#ffffff');
  });

  it('changes a brand colour only where it does not reach 3:1 on its own', () => {
    for (const icon of icons)
      for (const theme of THEME_NAMES) {
        const brand = `#${icon.hex.toLowerCase()}`;
        const reads = lowestContrast(brand, THEME_COLORS[theme].surfaces) >= LOGO_MIN_CONTRAST;
        expect(readableLogoColor(icon.hex, theme) === brand, `${icon.slug} ${theme}`).toBe(reads);
      }
  });
});
