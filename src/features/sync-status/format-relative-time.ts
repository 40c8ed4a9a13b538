const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "just now", "3 minutes ago", "yesterday": for "Last synced …". */
export function formatRelativeTime(at: number, now: number, locale?: string): string {
  const elapsed = now - at;
  if (elapsed < 45_000) return 'just now';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of units) {
    if (elapsed >= ms) return format.format(-Math.round(elapsed / ms), unit);
  }
  return format.format(-1, 'minute');
}
