import type { FieldErrors } from '@rr/contracts/issues';
import { INSIGHTS_PARTS, InsightsQuery as InsightsContract } from '@rr/contracts/insights';
import { addDaysIso } from '../../../lib/dates';
import { errorsOf, formCheck } from '../../../lib/form-check';
import { text } from '../../../lib/staff-forms';
import { serializeParams } from '../../../lib/url';

export { INSIGHTS_PARTS };
export type InsightsPart = (typeof INSIGHTS_PARTS)[number];

/** The screen's filters: a room id, or '' for all rooms, and the period. */
export interface InsightsQuery {
  roomId: string;
  fromDate: string;
  untilDate: string;
  /** All rooms of one site: its slug (docs/product.md#sites); absent or '': every site's. */
  site?: string;
}

export const INSIGHTS_FIELDS = ['roomId', 'fromDate', 'untilDate'] as const;
export type InsightsField = (typeof INSIGHTS_FIELDS)[number];

/** docs/product.md#insights: all rooms over the last 8 weeks, today included. */
export function defaultInsightsQuery(today: string): InsightsQuery {
  return { roomId: '', fromDate: addDaysIso(today, -55), untilDate: today };
}

const checkInsights = formCheck(InsightsContract, (query: InsightsQuery) => ({
  roomId: query.roomId === '' ? undefined : query.roomId,
  fromDate: text(query.fromDate),
  untilDate: text(query.untilDate),
}));

/** The errors of the filters (the contract of the API's query). */
export function insightsErrors(query: InsightsQuery): FieldErrors<InsightsField> {
  return errorsOf(checkInsights(query));
}

/**
 * The query parameters the API takes: all rooms leave the room out, and name the site when one
 * is chosen (a room names its site itself).
 */
export function insightsParams(query: InsightsQuery): Record<string, string> {
  const { roomId, fromDate, untilDate, site } = query;
  if (roomId !== '') return { roomId, fromDate, untilDate };
  return site ? { site, fromDate, untilDate } : { fromDate, untilDate };
}

export function insightsCsvPath(query: InsightsQuery, part: InsightsPart): string {
  return `admin/insights.csv?${serializeParams({ ...insightsParams(query), part })}`;
}

/** The path of a part of a room's seats' use as CSV (docs/product.md#insights). */
export function seatInsightsCsvPath(query: InsightsQuery, part: 'seats' | 'attributes'): string {
  return `admin/insights/seats.csv?${serializeParams({ ...insightsParams(query), part })}`;
}

/** Booked of offered as a share 0..1; null when nothing was offered. */
export function share(booked: number, offered: number): number | null {
  return offered > 0 ? booked / offered : null;
}

/** A share 0..1 as a percentage text ('' for none). */
export function shareText(value: number | null, locale: string): string {
  if (value === null || !Number.isFinite(value)) return '';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(
    value,
  );
}

/** A figure (seat hours, days, counts) in the page's language: German "3,4", English "3.4". */
export function numberText(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
}

/**
 * The heatmap's layout at a width: a column per hour at least `minBin` wide beside the weekday
 * labels, widened to fill the width. Its width is more than the given one when the hours do not
 * fit at their minimum (the chart then scrolls sideways in its own region).
 */
export function heatmapLayout(
  width: number,
  hours: number,
  { label = 36, minBin = 22 }: { label?: number; minBin?: number } = {},
) {
  const bin = Math.max(minBin, Math.floor((width - label) / Math.max(1, hours)));
  return { label, bin, width: label + bin * hours, scrolls: label + bin * hours > width };
}

export interface HeatCell {
  weekday: number;
  hour: number;
  offeredSeatHours: number;
  bookedSeatHours: number;
}

/** The hours any weekday offers seats in, in order (the heatmap's columns). */
export function heatmapHours(cells: readonly HeatCell[]): number[] {
  return [...new Set(cells.filter((c) => c.offeredSeatHours > 0).map((c) => c.hour))].sort(
    (a, b) => a - b,
  );
}

/** The cell of a weekday and hour, if it offered or booked anything. */
export function cellAt(cells: readonly HeatCell[], weekday: number, hour: number) {
  return cells.find((c) => c.weekday === weekday && c.hour === hour);
}

export interface LeadBucket {
  /** The first day of the bucket and its last (null: open-ended). */
  from: number;
  until: number | null;
  bookings: number;
}

/** Lead-time buckets for the histogram: 0, 1, 2, 3–6, 7–13, 14–29, 30 and more days. */
export function leadBuckets(histogram: readonly { days: number; bookings: number }[]) {
  const bounds: [number, number | null][] = [
    [0, 0],
    [1, 1],
    [2, 2],
    [3, 6],
    [7, 13],
    [14, 29],
    [30, null],
  ];
  return bounds.map(([from, until]): LeadBucket => ({
    from,
    until,
    bookings: histogram
      .filter((h) => h.days >= from && (until === null || h.days <= until))
      .reduce((n, h) => n + h.bookings, 0),
  }));
}
