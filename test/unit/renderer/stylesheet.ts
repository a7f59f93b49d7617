import { readFileSync } from 'node:fs';

/** renderer/styles.css read as rules and, per theme, its `:root` variables (for colour tests). */

export interface Rule {
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

export const rules = parseCss(readFileSync(new URL('../../../renderer/styles.css', import.meta.url), 'utf8'));
const vars = (dark: boolean): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const rule of rules.filter((r) => r.selector === ':root')) {
    if (rule.media.includes('dark') && !dark) continue;
    for (const [name, value] of Object.entries(rule.decls)) if (name.startsWith('--')) out[name] = value;
  }
  return out;
};
export const THEMES = { light: vars(false), dark: vars(true) };
export const resolve = (value: string, theme: Record<string, string>): string | undefined => {
  const name = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
  const color = name === undefined ? value : theme[name];
  return color !== undefined && /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(color) ? color : undefined;
};
