import { describe, expect, it } from 'vitest';
import { contrastRatio as contrast } from '../../../renderer/lib/logo-color.js';
import { resolve, rules, THEMES } from './stylesheet.js';

/**
 * issue #16: every text colour in the stylesheet reaches WCAG AA (4.5:1) on the background it is
 * drawn on, in light and dark. Computed from the CSS variables themselves, so a new colour that
 * is too faint fails here rather than in a review.
 */

/** Where body text can sit: the page, panels, and the sunken surface of code and inputs. */
const SURFACES = ['--bg', '--surface', '--surface-2'];
const TEXT_COLORS = ['--text', '--muted', '--faint', '--accent', '--ok', '--warn', '--bad', '--info'];

describe('issue #16: text contrast from the CSS variables', () => {
  it('checks the colours it expects to find', () => {
    for (const theme of Object.values(THEMES)) {
      for (const name of [...SURFACES, ...TEXT_COLORS])
        expect(resolve(`var(${name})`, theme), name).toBeDefined();
    }
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });

  for (const [themeName, theme] of Object.entries(THEMES)) {
    it(`every text colour reads at 4.5:1 on every surface (${themeName})`, () => {
      const low: string[] = [];
      for (const fg of TEXT_COLORS)
        for (const bg of SURFACES) {
          const ratio = contrast(resolve(`var(${fg})`, theme)!, resolve(`var(${bg})`, theme)!);
          if (ratio < 4.5) low.push(`${fg} on ${bg}: ${ratio.toFixed(2)}`);
        }
      expect(low).toEqual([]);
    });

    it(`every rule that sets both a text colour and a background reads at 4.5:1 (${themeName})`, () => {
      const low: string[] = [];
      for (const rule of rules) {
        const color = rule.decls.color;
        const background = rule.decls.background ?? rule.decls['background-color'];
        if (color === undefined || background === undefined) continue;
        const fg = resolve(color, theme);
        const bg = resolve(background, theme);
        if (fg === undefined || bg === undefined) continue;
        const ratio = contrast(fg, bg);
        if (ratio < 4.5) low.push(`${rule.selector}: ${color} on ${background} = ${ratio.toFixed(2)}`);
      }
      expect(low).toEqual([]);
    });
  }
});
