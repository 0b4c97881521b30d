import { HeatmapRect } from '@visx/heatmap';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, LinePath } from '@visx/shape';
import { useElementWidth } from '../../../hooks/use-element-width';
import { cellAt, heatmapLayout, share, type HeatCell } from '../utils/insights';

/**
 * The insights' charts (visx, in the staff app's chunk only). Each is a picture of the table
 * beside it, which carries the same figures for screen readers and print: the SVG is one image
 * named by its figure's caption.
 */

const WIDTH = 640;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/** Occupancy 0..1 as a fill: pale for empty, dark teal for full (over 1 as full). */
function occupancyColor(value: number | null): string {
  if (value === null) return '#eeeeee';
  const t = Math.max(0, Math.min(1, value));
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t);
  return `rgb(${mix(230, 0)}, ${mix(244, 90)}, ${mix(241, 100)})`;
}

interface Column {
  hour: number;
  bins: { weekday: number; value: number | null }[];
}

/**
 * The heatmap, drawn at its column's width so that its labels keep their size (12 px) at every
 * screen width: an hour's column is at least 22 px wide (its label fits), the weekdays' short
 * names beside the rows. When the hours do not fit (a whole day on a phone), the chart scrolls
 * sideways in its own focusable region.
 */
export function OccupancyHeatmap({
  cells,
  hours,
  weekdayLabel,
  labelledBy,
  scrollLabel,
}: {
  cells: readonly HeatCell[];
  hours: readonly number[];
  weekdayLabel: (weekday: number) => string;
  labelledBy: string;
  /** The name of the region the chart scrolls in when it is wider than its column. */
  scrollLabel: string;
}) {
  const [measure, measured] = useElementWidth<HTMLDivElement>();
  const layout = heatmapLayout(measured || WIDTH, hours.length);
  const { label: left, bin: binWidth } = layout;
  const top = 22;
  const binHeight = 28;
  const data: Column[] = hours.map((hour) => ({
    hour,
    bins: WEEKDAYS.map((weekday) => {
      const c = cellAt(cells, weekday, hour);
      return { weekday, value: c ? share(c.bookedSeatHours, c.offeredSeatHours) : null };
    }),
  }));
  const height = top + binHeight * 7;
  const scrolls = measured > 0 && layout.scrolls;
  return (
    <div
      ref={measure}
      className="insights-heatmap"
      {...(scrolls ? { role: 'region', 'aria-label': scrollLabel, tabIndex: 0 } : {})}
    >
      <svg
        className="insights-heatmap__chart"
        width={layout.width}
        height={height}
        viewBox={`0 0 ${layout.width} ${height}`}
        role="img"
        aria-labelledby={labelledBy}
      >
        <HeatmapRect<Column, Column['bins'][number]>
          data={data}
          left={left}
          top={top}
          binWidth={binWidth}
          binHeight={binHeight}
          gap={2}
          xScale={(i) => i * binWidth}
          yScale={(i) => i * binHeight}
          bins={(column) => column.bins}
          count={(bin) => bin.value ?? -1}
        >
          {(columns) =>
            columns.map((column) =>
              column.map((cell) => (
                <rect
                  key={`${cell.row}-${cell.column}`}
                  x={cell.x}
                  y={cell.y}
                  width={cell.width}
                  height={cell.height}
                  fill={occupancyColor(cell.bin.value)}
                />
              )),
            )
          }
        </HeatmapRect>
        {hours.map((hour, i) => (
          <text
            key={hour}
            className="insights-heatmap__label"
            x={left + i * binWidth + binWidth / 2}
            y={15}
            textAnchor="middle"
            fontSize={12}
          >
            {hour}
          </text>
        ))}
        {WEEKDAYS.map((weekday, i) => (
          <text
            key={weekday}
            className="insights-heatmap__label"
            x={left - 6}
            y={top + i * binHeight + binHeight / 2 + 4}
            textAnchor="end"
            fontSize={12}
          >
            {weekdayLabel(weekday)}
          </text>
        ))}
      </svg>
    </div>
  );
}

export interface Series {
  label: string;
  color: string;
  values: number[];
}

/** Lines over the weeks (offered, booked, cancelled, no-shows). */
export function WeeklyLines({
  weeks,
  series,
  labelledBy,
  formatNumber,
}: {
  weeks: readonly string[];
  series: readonly Series[];
  labelledBy: string;
  formatNumber: (value: number) => string;
}) {
  const height = 200;
  const margin = 24;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const x = scaleLinear<number>({
    domain: [0, Math.max(1, weeks.length - 1)],
    range: [margin, WIDTH - margin],
  });
  const y = scaleLinear<number>({ domain: [0, max], range: [height - margin, margin] });
  return (
    <svg
      className="insights-chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-labelledby={labelledBy}
    >
      <line
        x1={margin}
        x2={WIDTH - margin}
        y1={height - margin}
        y2={height - margin}
        stroke="#666"
      />
      {series.map((s) => (
        <LinePath<number>
          key={s.label}
          data={s.values}
          x={(_, i) => x(i)}
          y={(v) => y(v)}
          stroke={s.color}
          strokeWidth={2}
        />
      ))}
      <text x={margin} y={14} fontSize={10}>
        {formatNumber(max)}
      </text>
    </svg>
  );
}

/** Bars with their labels under them (demand, lead-time buckets). */
export function Bars({
  bars,
  labelledBy,
  formatNumber,
}: {
  bars: readonly { label: string; value: number }[];
  labelledBy: string;
  formatNumber: (value: number) => string;
}) {
  const height = 180;
  const bottom = 30;
  const x = scaleBand<string>({
    domain: bars.map((b) => b.label),
    range: [0, WIDTH],
    padding: 0.25,
  });
  const max = Math.max(1, ...bars.map((b) => b.value));
  const y = scaleLinear<number>({ domain: [0, max], range: [0, height - bottom - 14] });
  return (
    <svg
      className="insights-chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-labelledby={labelledBy}
    >
      {bars.map((b) => {
        const h = y(b.value);
        const left = x(b.label) ?? 0;
        return (
          <g key={b.label}>
            <Bar x={left} y={height - bottom - h} width={x.bandwidth()} height={h} fill="#00707a" />
            <text
              x={left + x.bandwidth() / 2}
              y={height - bottom - h - 3}
              textAnchor="middle"
              fontSize={11}
            >
              {formatNumber(b.value)}
            </text>
            <text x={left + x.bandwidth() / 2} y={height - 12} textAnchor="middle" fontSize={11}>
              {b.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
