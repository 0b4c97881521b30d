import { describe, expect, it } from 'vitest';
import {
  defaultInsightsQuery,
  heatmapHours,
  heatmapLayout,
  insightsCsvPath,
  insightsErrors,
  insightsParams,
  leadBuckets,
  numberText,
  share,
  shareText,
} from './insights';

describe('insights filters', () => {
  it('default to all rooms over the last 8 weeks', () => {
    expect(defaultInsightsQuery('2026-11-27')).toEqual({
      roomId: '',
      fromDate: '2026-10-03',
      untilDate: '2026-11-27',
    });
  });
  it('check the dates with the API contract', () => {
    expect(insightsErrors({ roomId: '', fromDate: '2026-11-27', untilDate: '2026-11-01' })).toEqual(
      { untilDate: { key: 'date-not-before' } },
    );
    expect(insightsErrors({ roomId: '', fromDate: '', untilDate: '2026-11-01' })).toEqual({
      fromDate: { key: 'required' },
    });
    expect(insightsErrors(defaultInsightsQuery('2026-11-27'))).toEqual({});
  });
  it('leave the room out for all rooms, in the request and the CSV', () => {
    const all = defaultInsightsQuery('2026-11-27');
    expect(insightsParams(all)).toEqual({ fromDate: '2026-10-03', untilDate: '2026-11-27' });
    expect(insightsCsvPath({ ...all, roomId: 'r1' }, 'weeks')).toBe(
      'admin/insights.csv?roomId=r1&fromDate=2026-10-03&untilDate=2026-11-27&part=weeks',
    );
  });
  it('name the site for all its rooms, and leave it out once a room is chosen', () => {
    const all = defaultInsightsQuery('2026-11-27');
    expect(insightsParams({ ...all, site: 'jura' })).toEqual({
      site: 'jura',
      fromDate: '2026-10-03',
      untilDate: '2026-11-27',
    });
    expect(insightsCsvPath({ ...all, site: 'jura' }, 'demand')).toBe(
      'admin/insights.csv?site=jura&fromDate=2026-10-03&untilDate=2026-11-27&part=demand',
    );
    expect(insightsParams({ ...all, site: 'jura', roomId: 'r1' })).toEqual({
      roomId: 'r1',
      fromDate: '2026-10-03',
      untilDate: '2026-11-27',
    });
    expect(insightsParams({ ...all, site: '' })).toEqual({
      fromDate: '2026-10-03',
      untilDate: '2026-11-27',
    });
  });
});

describe('insights figures', () => {
  it('share and its text', () => {
    expect(share(3, 4)).toBe(0.75);
    expect(share(1, 0)).toBeNull();
    expect(shareText(0.75, 'de')).toBe('75\u00a0%');
    expect(shareText(0.75, 'en')).toBe('75%');
    expect(shareText(null, 'en')).toBe('');
  });
  it('hours offered, in order', () => {
    expect(
      heatmapHours([
        { weekday: 1, hour: 9, offeredSeatHours: 1, bookedSeatHours: 0 },
        { weekday: 2, hour: 8, offeredSeatHours: 2, bookedSeatHours: 1 },
        { weekday: 3, hour: 9, offeredSeatHours: 1, bookedSeatHours: 1 },
        { weekday: 3, hour: 20, offeredSeatHours: 0, bookedSeatHours: 0 },
      ]),
    ).toEqual([8, 9]);
  });
  it('lead-time buckets sum the days they cover', () => {
    const buckets = leadBuckets([
      { days: 0, bookings: 2 },
      { days: 4, bookings: 1 },
      { days: 6, bookings: 3 },
      { days: 45, bookings: 5 },
    ]);
    expect(buckets.map((b) => b.bookings)).toEqual([2, 0, 0, 4, 0, 0, 5]);
  });
});

describe('the insights’ figures and the heatmap', () => {
  it('write numbers in the page’s language', () => {
    expect(numberText(3.4, 'de')).toBe('3,4');
    expect(numberText(3.4, 'en')).toBe('3.4');
    expect(numberText(1234.56, 'de')).toBe('1.234,6');
    expect(numberText(2, 'de')).toBe('2');
  });
  it('give every hour a column wide enough for its label, scrolling only when they cannot fit', () => {
    // 1280 px: the chart's column, 12 hours.
    expect(heatmapLayout(980, 12)).toEqual({ label: 36, bin: 78, width: 972, scrolls: false });
    // 375 px: 12 hours still fit.
    expect(heatmapLayout(343, 12)).toEqual({ label: 36, bin: 25, width: 336, scrolls: false });
    // A whole day does not: each hour keeps its minimum and the chart scrolls.
    expect(heatmapLayout(343, 24)).toEqual({ label: 36, bin: 22, width: 564, scrolls: true });
  });
});
