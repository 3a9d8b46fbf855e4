// The analytics charts (recharts). Loaded apart from the page (React.lazy), so the figures and tables
// show as soon as the answer is in. Each chart is a picture of the table beside it, which is what a
// screen reader reads: the charts are hidden from assistive technology and take no keyboard focus.
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from 'recharts';

/** One bar or point: where it goes, how tall it is, and how the tooltip says it. */
export interface ChartDatum {
  key: string;
  /** Axis label ("Oct 2026", "Spotify"). */
  label: string;
  /** Bar height (money as Number() here only). */
  value: number;
  /** The exact figure as the table shows it ("$1,234.57", "12,345"). */
  shown: string;
}

export type ChartTone = 'final' | 'estimated';

const COLOURS: Record<ChartTone, string> = {
  final: 'hsl(var(--primary))',
  estimated: 'hsl(199 89% 40%)',
};

const AXIS = { fontSize: 12, fill: 'hsl(var(--muted-foreground))' };

function ChartTooltip({ active, payload }: TooltipContentProps) {
  const datum = payload?.[0]?.payload as ChartDatum | undefined;
  if (!active || !datum) return null;
  return (
    <div className="rounded-md border bg-background px-3 py-2 text-sm shadow-md">
      <p className="font-medium">{datum.label}</p>
      <p className="tabular-nums text-muted-foreground">{datum.shown}</p>
    </div>
  );
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Bars over time (sale months): one bar per month, oldest first. */
export function ColumnChart({
  data,
  tone,
  tick,
}: {
  data: readonly ChartDatum[];
  tone: ChartTone;
  /** How the value axis says a number ("$1.2K", "12K"). */
  tick: (value: number) => string;
}) {
  return (
    <BarChart
      responsive
      data={[...data]}
      accessibilityLayer={false}
      style={{ width: '100%', height: 240 }}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
    >
      <CartesianGrid vertical={false} strokeDasharray="3 3" stroke="hsl(var(--border))" />
      <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={false} minTickGap={8} />
      <YAxis tick={AXIS} tickLine={false} axisLine={false} width={56} tickFormatter={tick} />
      <Tooltip content={ChartTooltip} cursor={{ fill: 'hsl(var(--muted))' }} />
      <Bar dataKey="value" fill={COLOURS[tone]} radius={[4, 4, 0, 0]} isAnimationActive={false} />
    </BarChart>
  );
}

/** A line of days (UTC), filled below. */
export function DayChart({
  data,
  tone,
  tick,
}: {
  data: readonly ChartDatum[];
  tone: ChartTone;
  tick: (value: number) => string;
}) {
  const colour = COLOURS[tone];
  return (
    <AreaChart
      responsive
      data={[...data]}
      accessibilityLayer={false}
      style={{ width: '100%', height: 240 }}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
    >
      <CartesianGrid vertical={false} strokeDasharray="3 3" stroke="hsl(var(--border))" />
      <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={false} minTickGap={24} />
      <YAxis tick={AXIS} tickLine={false} axisLine={false} width={56} tickFormatter={tick} />
      <Tooltip content={ChartTooltip} />
      <Area
        type="monotone"
        dataKey="value"
        stroke={colour}
        strokeWidth={2}
        fill={colour}
        fillOpacity={0.15}
        isAnimationActive={false}
      />
    </AreaChart>
  );
}

/** The largest rows as horizontal bars, largest on top (the table lists every row). */
export function RankChart({
  data,
  tone,
  tick,
}: {
  data: readonly ChartDatum[];
  tone: ChartTone;
  tick: (value: number) => string;
}) {
  return (
    <BarChart
      responsive
      layout="vertical"
      data={[...data]}
      accessibilityLayer={false}
      style={{ width: '100%', height: Math.max(120, data.length * 32 + 32) }}
      margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
    >
      <CartesianGrid horizontal={false} strokeDasharray="3 3" stroke="hsl(var(--border))" />
      <XAxis type="number" tick={AXIS} tickLine={false} axisLine={false} tickFormatter={tick} />
      <YAxis
        type="category"
        dataKey="label"
        tick={AXIS}
        tickLine={false}
        axisLine={false}
        width={112}
        tickFormatter={(label: string) => truncate(label, 16)}
      />
      <Tooltip content={ChartTooltip} cursor={{ fill: 'hsl(var(--muted))' }} />
      <Bar
        dataKey="value"
        fill={COLOURS[tone]}
        radius={[0, 4, 4, 0]}
        isAnimationActive={false}
        barSize={18}
      />
    </BarChart>
  );
}
