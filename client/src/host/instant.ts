// Dates for values and rows read from Vis's database, formatted without ever throwing: JavaScript's
// Date covers ±8.64e15 ms (±273,790 years); a stored time outside that range, or not a finite
// number, is shown as the raw count instead of raising `RangeError: Invalid time value`.
import { t } from '../l10n';

const MAX_MS = 8.64e15;

/** ISO 8601 text of milliseconds since the epoch, or undefined when no Date can hold it. */
export function isoFromMillis(ms: number | bigint): string | undefined {
  const n = typeof ms === 'bigint' ? (ms >= -BigInt(MAX_MS) && ms <= BigInt(MAX_MS) ? Number(ms) : NaN) : ms;
  if (!Number.isFinite(n) || Math.abs(n) > MAX_MS) return undefined;
  return new Date(n).toISOString();
}

/** A stored epoch-milliseconds time for people: ISO text, or the raw number when it is out of range. */
export function describeMillis(ms: number | bigint): string {
  return isoFromMillis(ms) ?? t('{0} ms since 1970 (outside the range of dates that can be shown)', String(ms));
}
