import { subMonths } from 'date-fns';
import type { FieldErrors } from '@rr/contracts/issues';
import { DailyReportQuery, OCCUPANCY_TYPES, OccupancyReportQuery } from '@rr/contracts/reports';
import { parseIsoDate, toIsoDate } from '../../../lib/dates';
import { errorsOf, formCheck } from '../../../lib/form-check';
import { text } from '../../../lib/staff-forms';
import { serializeParams } from '../../../lib/url';

/** docs/product.md#entities: occupancy types. */
export { OCCUPANCY_TYPES };
export type OccupancyType = (typeof OCCUPANCY_TYPES)[number];

export interface OccupancyQuery {
  roomId: string;
  fromDate: string;
  untilDate: string;
  status: OccupancyType;
}

/** The same day one month earlier (31 March gives the last day of February). */
export function monthBefore(today: string): string {
  const date = parseIsoDate(today);
  if (!date) throw new RangeError(`Not a date: ${today}`);
  return toIsoDate(subMonths(date, 1));
}

/**
 * docs/product.md#screens and #limits: one month back to today, the first room, booked tickets. Without rooms
 * the room is empty (the screen shows the error state then).
 */
export function defaultOccupancyQuery(
  today: string,
  rooms: readonly { id: string }[],
): OccupancyQuery {
  return {
    roomId: rooms[0]?.id ?? '',
    fromDate: monthBefore(today),
    untilDate: today,
    status: 'BOOKED',
  };
}

export const OCCUPANCY_FIELDS = ['fromDate', 'untilDate', 'roomId', 'status'] as const;
export type OccupancyField = (typeof OCCUPANCY_FIELDS)[number];

/**
 * docs/product.md#validation, occupancy report: both dates required date strings, the until date not before
 * the from date; room and type required. Checked with the contract of the report's query.
 */
const checkOccupancy = formCheck(OccupancyReportQuery, (query: OccupancyQuery) => ({
  roomId: text(query.roomId),
  fromDate: text(query.fromDate),
  untilDate: text(query.untilDate),
  status: text(query.status),
}));

/** The errors of the filters. */
export function occupancyErrors(query: OccupancyQuery): FieldErrors<OccupancyField> {
  return errorsOf(checkOccupancy(query));
}

/** docs/product.md#validation, daily report: the date is required and a date string. */
export const checkDailyReport = formCheck(DailyReportQuery, (date: string) => ({
  date: text(date),
}));

/** Percentage as text, blank when there is none (capacity missing or below 1). */
export function percentText(percentage: number | null, locale: string): string {
  if (percentage === null || !Number.isFinite(percentage)) return '';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(
    percentage / 100,
  );
}

/** Width of a bar in percent of the chart: 0-100 (overbooked slots fill it). */
export function barWidth(percentage: number | null): number {
  if (percentage === null || !Number.isFinite(percentage)) return 0;
  return Math.min(100, Math.max(0, percentage));
}

/** `HH:mm-HH:mm` of the API; seconds, if any, are dropped. */
export function formatSlotTime(value: string): string {
  return value.replace(/(\d{2}:\d{2}):\d{2}/g, '$1');
}

/** CSV downloads with the same filters as the screen. */
export function occupancyCsvPath(query: OccupancyQuery): string {
  return `admin/tickets/report.csv?${serializeParams({ ...query })}`;
}

export function dailyCsvPath(roomId: string, date: string): string {
  return `admin/rooms/${encodeURIComponent(roomId)}/daily-report.csv?${serializeParams({ date })}`;
}

/** A further report: a label and an address. */
export interface CommonReport {
  label: string;
  url: string;
}

/** docs/product.md#api: the common-reports operation returns an empty list and makes no request. */
export function commonReports(): readonly CommonReport[] {
  return [];
}

/** The occupancy of a day or of the whole report: tickets over capacity. */
export interface OccupancySum {
  /** `YYYY-MM-DD` of a day; '' for the totals. */
  date: string;
  count: number;
  capacity: number;
  /** Tickets in percent of the capacity; null without capacity. */
  percentage: number | null;
  slots: number;
}

interface OccupancyLine {
  date: string;
  count: number;
  capacity: number | null;
  percentage: number | null;
}

function sumOf(date: string, items: readonly OccupancyLine[]): OccupancySum {
  const count = items.reduce((n, item) => n + item.count, 0);
  const capacity = items.reduce((n, item) => n + Math.max(0, item.capacity ?? 0), 0);
  return {
    date,
    count,
    capacity,
    percentage: capacity >= 1 ? (count / capacity) * 100 : null,
    slots: items.length,
  };
}

/** One sum per day, in the order of the report (by date). */
export function occupancyByDay(items: readonly OccupancyLine[]): OccupancySum[] {
  const days = new Map<string, OccupancyLine[]>();
  for (const item of items) days.set(item.date, [...(days.get(item.date) ?? []), item]);
  return [...days].map(([date, lines]) => sumOf(date, lines));
}

/**
 * The report's totals: all tickets over all capacity, and the mean occupancy of its slots (the
 * mean of the percentages of the slots that have a capacity); null where nothing can be said.
 */
export function occupancyTotals(items: readonly OccupancyLine[]): OccupancySum & {
  meanPercentage: number | null;
} {
  const rated = items.filter((item) => item.percentage !== null);
  const meanPercentage =
    rated.length > 0
      ? rated.reduce((n, item) => n + (item.percentage ?? 0), 0) / rated.length
      : null;
  return { ...sumOf('', items), meanPercentage };
}
