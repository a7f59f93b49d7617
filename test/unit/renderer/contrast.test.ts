import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * issue #16: every text colour in the stylesheet reaches WCAG AA (4.5:1) on the background it is
 * drawn on, in light and dark. Computed from the CSS variables themselves, so a new colour that
 * is too faint fails here rather than in a review.
 */

interface Rule {
  media: string;
  selector: string;
  decls: Record<string, string>;
}

function parseCss(css: string): Rule[] {
  const rules: Rule[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const media: string[] = [];
  let at = 0;
  let head = '';
  while (at < text.length) {
    const char = text[at]!;
    if (char === '{') {
      const selector = head.trim();
      head = '';
      if (selector.startsWith('@')) media.push(selector);
      else {
        const end = text.indexOf('}', at);
        const decls: Record<string, string> = {};
        for (const part of text.slice(at + 1, end).split(';')) {
          const colon = part.indexOf(':');
          if (colon > 0) decls[part.slice(0, colon).trim()] = part.slice(colon + 1).trim();
        }
        rules.push({ media: media.join(' '), selector, decls });
        at = end;
      }
    } else if (char === '}') {
      media.pop();
      head = '';
    } else head += char;
    at += 1;
  }
  return rules;
}

function rgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const rules = parseCss(readFileSync(new URL('../../../renderer/styles.css', import.meta.url), 'utf8'));
const vars = (dark: boolean): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const rule of rules.filter((r) => r.selector === ':root')) {
    if (rule.media.includes('dark') && !dark) continue;
    for (const [name, value] of Object.entries(rule.decls)) if (name.startsWith('--')) out[name] = value;
  }
  return out;
};
const THEMES = { light: vars(false), dark: vars(true) };
const resolve = (value: string, theme: Record<string, string>): string | undefined => {
  const name = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
  const color = name === undefined ? value : theme[name];
  return color !== undefined && /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(color) ? color : undefined;
};

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
