import type { ActivityEntry, CallAccount } from '../../src/api/ui-api.js';

const number = new Intl.NumberFormat('en-US');

export function formatNumber(value: number): string {
  return number.format(value);
}

/** 1234 → "1.2K", 2_000_000 → "2M": for slider labels and compact stats. */
export function formatCompact(value: number): string {
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1_000) return `${trim(value / 1_000)}K`;
  return String(value);
}

function trim(value: number): string {
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trim(bytes / 1024)} KiB`;
  return `${trim(bytes / (1024 * 1024))} MiB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trim(ms / 1000)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** "in 2 min", "in 40 s", "expired": for card deadlines. */
export function formatRemaining(untilIso: string, now: number): string {
  const ms = new Date(untilIso).getTime() - now;
  if (!(ms > 0)) return 'expired';
  if (ms < 60_000) return `in ${Math.ceil(ms / 1000)} s`;
  return `in ${Math.ceil(ms / 60_000)} min`;
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

/** A connector account: "work", "home (default)", or "the default account" while its alias is unknown. */
export function formatAccount(account: CallAccount): string {
  if (!('alias' in account)) return 'the default account';
  return account.default ? `${account.alias} (default)` : account.alias;
}

/** An account after "as": "account work", or "the default account" while its alias is unknown. */
export function accountPhrase(account: CallAccount): string {
  return `${'alias' in account ? 'account ' : ''}${formatAccount(account)}`;
}

const POLICY_SOURCE_TEXT: Record<NonNullable<ActivityEntry['policySource']>, string> = {
  'always-allow': 'an "Always allow" rule',
  rule: 'a saved rule',
  server: "its server's policy",
  default: 'the default policy',
  'read-only': 'a trusted read-only hint',
  suspicious: 'hidden text in its description, which makes it ask',
};

/** Who or what decided an audited call, in words ("by an \"Always allow\" rule", "by user"). */
export function decidedByText(entry: Pick<ActivityEntry, 'decidedBy' | 'policySource'>): string {
  if (entry.decidedBy === 'policy' && entry.policySource !== undefined) {
    return `by ${POLICY_SOURCE_TEXT[entry.policySource]}`;
  }
  return `by ${entry.decidedBy}`;
}

/**
 * A tool name cut after its separators (`mcp__github__create_issue` → `mcp__`, `github__`,
 * `create_`, `issue`): the places a long name may wrap, so it never breaks inside a word.
 */
export function nameParts(name: string): string[] {
  return name.match(/[^_\-./:]+[_\-./:]*|[_\-./:]+/g) ?? [name];
}
