import type { CSSProperties } from 'react';
import type { AppView } from '../../src/api/ui-api.js';
import { readableLogoColor } from '../lib/logo-color.js';

/**
 * A connector app's logo (simple-icons, one path on a 24×24 box) in its brand colour, adjusted
 * per theme to 3:1 against the surfaces (lib/logo-color.ts; the stylesheet picks the theme's), or
 * its first letter where the set has none. Decorative: the app's name is always written beside it.
 */
export function AppLogo(props: { app: AppView | undefined; name: string; size?: number }) {
  const size = props.size ?? 18;
  const logo = props.app?.logo;
  if (logo === undefined) {
    const title = props.app?.title ?? props.name;
    return (
      <span className="app-logo letter" aria-hidden="true" style={{ width: size, height: size }}>
        {title.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    <svg
      className="app-logo"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      style={
        {
          '--logo-light': readableLogoColor(logo.hex, 'light'),
          '--logo-dark': readableLogoColor(logo.hex, 'dark'),
        } as CSSProperties
      }
    >
      <path d={logo.path} fill="currentColor" />
    </svg>
  );
}

/** The app's proper name ("GitHub"), or the connector id while the host has not named it. */
export function appTitle(app: AppView | undefined, name: string): string {
  return app?.title ?? name;
}
