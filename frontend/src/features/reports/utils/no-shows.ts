import type { OccupancyReportItem } from '../../../api/types';

/**
 * The no-shows of a report's slots together, and their rate: no-shows in percent of
 * the tickets booked and not cancelled (still booked or released as no-shows); null without any.
 */
export function noShowTotals(items: Pick<OccupancyReportItem, 'noShows' | 'noShowBase'>[]): {
  noShows: number;
  noShowRate: number | null;
} {
  const noShows = items.reduce((n, x) => n + x.noShows, 0);
  const base = items.reduce((n, x) => n + x.noShowBase, 0);
  return { noShows, noShowRate: base > 0 ? Math.round((noShows / base) * 100) : null };
}
