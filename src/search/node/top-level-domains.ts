import { createRequire } from 'node:module';

/**
 * Top-level domains (`com`, `io`, `dev`, …) from the `tlds` package (IANA's list), read on first
 * use: `stripe.com` is a domain, `report.pdf` and `node.js` are not.
 */
let domains: ReadonlySet<string> | undefined;

export function isTopLevelDomain(word: string): boolean {
  domains ??= new Set(createRequire(import.meta.url)('tlds') as string[]);
  return domains.has(word);
}
