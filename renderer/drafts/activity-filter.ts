import type { ActivityQuery } from '../../src/api/ui-api.js';

/** Quick time ranges for Activity; `custom` shows From and To. */
export const TIME_RANGES = [
  { id: 'any', label: 'Any time', ms: undefined },
  { id: 'hour', label: 'Last hour', ms: 3_600_000 },
  { id: 'day', label: 'Last 24 hours', ms: 86_400_000 },
  { id: 'week', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: 'custom', label: 'From … to …', ms: undefined },
] as const;

export type TimeRangeId = (typeof TIME_RANGES)[number]['id'];

/** The filter with a quick range applied at `now`: `since` set (or cleared), `until` cleared. */
export function withTimeRange(filter: ActivityQuery, range: TimeRangeId, now: Date): ActivityQuery {
  const { since: _since, until: _until, ...rest } = filter;
  const ms = TIME_RANGES.find((r) => r.id === range)?.ms;
  return ms === undefined ? rest : { ...rest, since: new Date(now.getTime() - ms).toISOString() };
}

/** A `datetime-local` value (local time, no zone) as an ISO time, or undefined when empty or invalid. */
export function localInputToIso(value: string): string | undefined {
  if (value === '') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** An ISO time as a `datetime-local` value in local time. */
export function isoToLocalInput(iso: string | undefined): string {
  if (iso === undefined) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/** Sets one key, or removes it for an empty value: the filter never holds "" for "any". */
export function withField<K extends keyof ActivityQuery>(
  filter: ActivityQuery,
  key: K,
  value: ActivityQuery[K] | '' | undefined,
): ActivityQuery {
  const { [key]: _old, ...rest } = filter;
  return value === '' || value === undefined ? rest : { ...rest, [key]: value };
}
