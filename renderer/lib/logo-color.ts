/**
 * Logo colours that stay visible: a brand colour is kept where it reaches the 3:1 non-text
 * contrast (WCAG 1.4.11) on every surface a logo sits on, and otherwise mixed towards the
 * theme's text colour just far enough that it does. Computed for every brand alike (GitHub's
 * near-black in dark mode, a pale yellow in light mode), never a per-brand exception.
 */

export type Theme = 'light' | 'dark';

/** Non-text contrast a logo needs against what surrounds it. */
export const LOGO_MIN_CONTRAST = 3;

/**
 * The page, panel and sunken surfaces (`--bg`, `--surface`, `--surface-2`) and the text colour
 * (`--text`) of renderer/styles.css per theme; a unit test keeps them equal to the stylesheet.
 */
export const THEME_COLORS: Record<Theme, { surfaces: readonly string[]; text: string }> = {
  light: { surfaces: ['#f5f6f8', '#ffffff', '#f0f2f5'], text: '#1b2230' },
  dark: { surfaces: ['#0e1116', '#161a21', '#1d222b'], text: '#e5e8ee' },
};

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of an sRGB colour (`#rgb` or `#rrggbb`). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The lowest contrast of a colour against each of the surfaces. */
export function lowestContrast(color: string, surfaces: readonly string[]): number {
  return Math.min(...surfaces.map((surface) => contrastRatio(color, surface)));
}

const MIX_STEPS = 50;
const readable = new Map<string, string>();

/**
 * The colour to draw a logo of brand colour `hex` (`"181717"` or `"#181717"`) in `theme`: the
 * brand colour itself where it reaches 3:1 on every surface, else the least mix towards the
 * theme's text colour that does (the text colour, at 4.5:1 or more, always does).
 */
export function readableLogoColor(hex: string, theme: Theme): string {
  const brand = toHex(parseHex(hex));
  const key = `${theme}:${brand}`;
  const known = readable.get(key);
  if (known !== undefined) return known;
  const { surfaces, text } = THEME_COLORS[theme];
  const [from, to] = [parseHex(brand), parseHex(text)];
  let color = text;
  for (let step = 0; step <= MIX_STEPS; step++) {
    const t = step / MIX_STEPS;
    const mixed = toHex(from.map((v, i) => v + (to[i]! - v) * t) as Rgb);
    if (lowestContrast(mixed, surfaces) >= LOGO_MIN_CONTRAST) {
      color = mixed;
      break;
    }
  }
  readable.set(key, color);
  return color;
}
