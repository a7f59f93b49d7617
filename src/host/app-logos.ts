/**
 * Connector apps as the person reads them on cards: the app's proper name and, where the
 * `simple-icons` set (CC0, maintained) has one, its logo as one SVG path. Read from the package
 * on first use and kept; an app it does not know gets its name with a capital and no logo.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AppView } from '../api/ui-api.js';

interface IconRecord {
  title: string;
  slug: string;
  hex: string;
}

const require = createRequire(import.meta.url);
let icons: Map<string, IconRecord> | undefined;
const described = new Map<string, AppView>();

/** The app behind a connector name (`github`, `google_calendar`, `GMAIL`). */
export function describeApp(connector: string): AppView {
  const known = described.get(connector);
  if (known !== undefined) return known;
  const icon = iconIndex().get(lookupKey(connector));
  const view: AppView = icon === undefined ? { title: plainTitle(connector) } : withLogo(icon);
  described.set(connector, view);
  return view;
}

function iconIndex(): Map<string, IconRecord> {
  if (icons !== undefined) return icons;
  icons = new Map();
  try {
    const records = require('simple-icons/icons.json') as IconRecord[];
    // Slugs first: "github" is GitHub's slug, never another brand's title.
    for (const record of records) icons.set(lookupKey(record.slug), record);
    for (const record of records)
      if (!icons.has(lookupKey(record.title))) icons.set(lookupKey(record.title), record);
  } catch (error) {
    console.warn('toolbridge: app logos are not available:', (error as Error).message);
  }
  return icons;
}

function withLogo(icon: IconRecord): AppView {
  try {
    const svg = readFileSync(require.resolve(`simple-icons/icons/${icon.slug}.svg`), 'utf8');
    const path = /<path d="([^"]+)"/.exec(svg)?.[1];
    return path === undefined ? { title: icon.title } : { title: icon.title, logo: { path, hex: icon.hex } };
  } catch {
    return { title: icon.title };
  }
}

function lookupKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** `google_calendar` → "Google calendar": readable, without claiming a brand's spelling. */
function plainTitle(connector: string): string {
  const words = connector.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words === '' ? connector : words[0]!.toUpperCase() + words.slice(1);
}
