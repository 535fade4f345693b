import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

const COLORS = [1, 2, 3, 4, 5, 6].map((i) => `var(--chart-${i})`);
const axis = { stroke: 'var(--text-muted)', fontSize: 12 };
const tooltip = {
  contentStyle: { background: 'var(--surface-raised)', border: '1px solid var(--border)' },
  labelStyle: { color: 'var(--text)' },
};

export interface Series {
  key: string;
  label: string;
}

/**
 * Values over time, one area per series (stacked when `stacked`). `label` names the chart for
 * screen readers, which also get the numbers from the table the page shows beside it.
 */
export type Datum = Record<string, string | number | null>;

export function TrendChart({
  data,
  x,
  series,
  label,
  stacked,
  format = (v: number) => v.toLocaleString(),
  height = 260,
}: {
  data: readonly Datum[];
  x: string;
  series: readonly Series[];
  label: string;
  stacked?: boolean;
  format?(value: number): string;
  height?: number;
}) {
  return (
    <figure className="ui-chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height={height}>
        <AreaChart data={data as Datum[]} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey={x} tick={axis} stroke="var(--border)" />
          <YAxis tick={axis} stroke="var(--border)" tickFormatter={format} width={72} />
          <Tooltip {...tooltip} formatter={(v) => format(Number(v))} />
          {series.length > 1 && <Legend itemSorter={null} />}
          {series.map((s, i) => (
            <Area
              key={s.key}
              type="monotone"
              dataKey={s.key}
              name={s.label}
              stackId={stacked ? 'stack' : undefined}
              stroke={COLORS[i % COLORS.length]}
              fill={COLORS[i % COLORS.length]}
              fillOpacity={0.2}
              isAnimationActive={false}
            />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** One bar per category (largest first is the caller's order). */
export function BreakdownChart({
  data,
  x,
  value,
  label,
  format = (v: number) => v.toLocaleString(),
  height = 260,
}: {
  data: readonly Datum[];
  x: string;
  value: string;
  label: string;
  format?(value: number): string;
  height?: number;
}) {
  return (
    <figure className="ui-chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={data as Datum[]}
          layout="vertical"
          margin={{ top: 8, right: 16, bottom: 0, left: 8 }}
        >
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis type="number" tick={axis} stroke="var(--border)" tickFormatter={format} />
          <YAxis type="category" dataKey={x} tick={axis} stroke="var(--border)" width={140} />
          <Tooltip {...tooltip} formatter={(v) => format(Number(v))} />
          <Bar dataKey={value} fill={COLORS[0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
