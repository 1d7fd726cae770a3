// The classic charts of graph nodes, on recharts: line, area, bar,
// stacked bar, composed (bar + line), scatter, pie and radar. Props follow
// the graph node catalog (reference domain §2.14).

import { useId } from "react";
import {
  Area,
  AreaChart as RAreaChart,
  Bar,
  BarChart as RBarChart,
  CartesianGrid,
  Cell,
  ComposedChart as RComposedChart,
  Legend,
  Line,
  LineChart as RLineChart,
  Pie,
  PieChart as RPieChart,
  PolarAngleAxis,
  PolarGrid,
  PolarRadiusAxis,
  Radar,
  RadarChart as RRadarChart,
  Scatter,
  ScatterChart as RScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from "recharts";
import type { BaseComponentProps } from "@json-render/react";
import { usePalette } from "../theme";
import {
  aggregate,
  axisProps,
  type Aggregate,
  type Base,
  ChartFrame,
  gridProps,
  legendProps,
  num,
  rows,
  seriesColor,
  short,
  tooltipProps,
} from "./kit";

const margin = { top: 8, right: 16, bottom: 4, left: 0 };

interface XY extends Base {
  xKey?: string | null;
  yKey?: string | null;
  aggregate?: Aggregate;
  color?: string | null;
}

/** LineChart plots yKey over xKey as a smooth line with dots. */
export function LineChart({ props }: BaseComponentProps<XY>) {
  const p = usePalette();
  const x = props.xKey ?? "label";
  const y = props.yKey ?? "value";
  const data = aggregate(rows(props.data), x, [y], props.aggregate);
  const color = props.color ?? seriesColor(p, 0);
  return (
    <ChartFrame name="LineChart" title={props.title} height={props.height} empty={!data.length}>
      <RLineChart data={data} margin={margin}>
        <CartesianGrid {...gridProps(p)} />
        <XAxis dataKey={x} {...axisProps(p)} tickFormatter={undefined} />
        <YAxis {...axisProps(p)} width={48} />
        <Tooltip {...tooltipProps(p)} />
        <Line
          type="monotone"
          dataKey={y}
          stroke={color}
          strokeWidth={2}
          dot={{ r: 3, fill: color, strokeWidth: 0 }}
          activeDot={{ r: 5, stroke: p.panel, strokeWidth: 2 }}
          isAnimationActive={false}
        />
      </RLineChart>
    </ChartFrame>
  );
}

/** AreaChart is LineChart with a gradient fill under the line. */
export function AreaChart({ props }: BaseComponentProps<XY>) {
  const p = usePalette();
  const gradient = `area-${useId().replace(/:/g, "")}`;
  const x = props.xKey ?? "label";
  const y = props.yKey ?? "value";
  const data = aggregate(rows(props.data), x, [y], props.aggregate);
  const color = props.color ?? seriesColor(p, 0);
  return (
    <ChartFrame name="AreaChart" title={props.title} height={props.height} empty={!data.length}>
      <RAreaChart data={data} margin={margin}>
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor={color} stopOpacity={0.45} />
            <stop offset="100%" stopColor={color} stopOpacity={0.02} />
          </linearGradient>
        </defs>
        <CartesianGrid {...gridProps(p)} />
        <XAxis dataKey={x} {...axisProps(p)} tickFormatter={undefined} />
        <YAxis {...axisProps(p)} width={48} />
        <Tooltip {...tooltipProps(p)} />
        <Area
          type="monotone"
          dataKey={y}
          stroke={color}
          strokeWidth={2}
          fill={`url(#${gradient})`}
          isAnimationActive={false}
        />
      </RAreaChart>
    </ChartFrame>
  );
}

interface BarProps extends XY {
  colorBy?: "series" | "category" | "value" | "none" | null;
  highlight?: string | null;
}

/**
 * highlighted returns the index of the bar to emphasise: highlight is
 * "max", "min", or an x value; -1 when nothing is highlighted.
 */
function highlighted(data: Record<string, unknown>[], x: string, y: string, highlight?: string | null): number {
  if (!highlight || highlight === "none") return -1;
  const values = data.map((r) => num(r[y]) ?? 0);
  if (highlight === "max") return values.indexOf(Math.max(...values));
  if (highlight === "min") return values.indexOf(Math.min(...values));
  return data.findIndex((r) => String(r[x]) === highlight);
}

/**
 * BarChart draws one bar per x value. colorBy picks one colour (series),
 * a colour per bar (category), an intensity by value, or a neutral tone
 * (none); highlight keeps one bar at full strength and dims the rest.
 */
export function BarChart({ props }: BaseComponentProps<BarProps>) {
  const p = usePalette();
  const x = props.xKey ?? "label";
  const y = props.yKey ?? "value";
  const data = aggregate(rows(props.data), x, [y], props.aggregate);
  const base = props.color ?? seriesColor(p, 0);
  const colorBy = props.colorBy ?? "series";
  const hi = colorBy === "series" ? highlighted(data, x, y, props.highlight) : -1;
  const values = data.map((r) => num(r[y]) ?? 0);
  const max = Math.max(...values.map(Math.abs), 1);
  const fill = (i: number) =>
    colorBy === "category" ? seriesColor(p, i) : colorBy === "none" ? p.muted : base;
  const opacity = (i: number) =>
    colorBy === "value" ? 0.3 + 0.7 * (Math.abs(values[i]) / max) : hi >= 0 && i !== hi ? 0.35 : 1;
  return (
    <ChartFrame name="BarChart" title={props.title} height={props.height} empty={!data.length}>
      <RBarChart data={data} margin={margin}>
        <CartesianGrid {...gridProps(p)} />
        <XAxis dataKey={x} {...axisProps(p)} tickFormatter={undefined} />
        <YAxis {...axisProps(p)} width={48} />
        <Tooltip {...tooltipProps(p, "none")} />
        <Bar dataKey={y} radius={[4, 4, 0, 0]} maxBarSize={64} isAnimationActive={false}>
          {data.map((_, i) => (
            <Cell key={i} fill={fill(i)} fillOpacity={opacity(i)} />
          ))}
        </Bar>
      </RBarChart>
    </ChartFrame>
  );
}

interface StackedProps extends Base {
  xKey?: string | null;
  series?: string[] | null;
  aggregate?: Aggregate;
  showLegend?: boolean | null;
}

/** StackedBarChart stacks one bar segment per series key at each x. */
export function StackedBarChart({ props }: BaseComponentProps<StackedProps>) {
  const p = usePalette();
  const x = props.xKey ?? "label";
  const series = props.series ?? [];
  const data = aggregate(rows(props.data), x, series, props.aggregate);
  return (
    <ChartFrame name="StackedBarChart" title={props.title} height={props.height} empty={!data.length}>
      <RBarChart data={data} margin={margin}>
        <CartesianGrid {...gridProps(p)} />
        <XAxis dataKey={x} {...axisProps(p)} tickFormatter={undefined} />
        <YAxis {...axisProps(p)} width={48} />
        <Tooltip {...tooltipProps(p, "none")} />
        {props.showLegend !== false ? <Legend {...legendProps()} /> : null}
        {series.map((s, i) => (
          <Bar
            key={s}
            dataKey={s}
            stackId="stack"
            fill={seriesColor(p, i)}
            maxBarSize={64}
            radius={i === series.length - 1 ? [4, 4, 0, 0] : undefined}
            isAnimationActive={false}
          />
        ))}
      </RBarChart>
    </ChartFrame>
  );
}

interface ComposedProps extends Base {
  xKey?: string | null;
  barKey?: string | null;
  lineKey?: string | null;
  barColor?: string | null;
  lineColor?: string | null;
  showLegend?: boolean | null;
}

/**
 * ComposedChart draws barKey as bars on the left axis and lineKey as a
 * line on its own right axis (a count and a rate rarely share a scale).
 */
export function ComposedChart({ props }: BaseComponentProps<ComposedProps>) {
  const p = usePalette();
  const x = props.xKey ?? "label";
  const bar = props.barKey ?? "value";
  const line = props.lineKey ?? "rate";
  const data = aggregate(rows(props.data), x, [bar, line], null);
  const lineColor = props.lineColor ?? seriesColor(p, 1);
  return (
    <ChartFrame name="ComposedChart" title={props.title} height={props.height} empty={!data.length}>
      <RComposedChart data={data} margin={margin}>
        <CartesianGrid {...gridProps(p)} />
        <XAxis dataKey={x} {...axisProps(p)} tickFormatter={undefined} />
        <YAxis yAxisId="bar" {...axisProps(p)} width={48} />
        <YAxis yAxisId="line" orientation="right" {...axisProps(p)} width={48} />
        <Tooltip {...tooltipProps(p, "none")} />
        {props.showLegend !== false ? <Legend {...legendProps()} /> : null}
        <Bar
          yAxisId="bar"
          dataKey={bar}
          fill={props.barColor ?? seriesColor(p, 0)}
          radius={[4, 4, 0, 0]}
          maxBarSize={56}
          isAnimationActive={false}
        />
        <Line
          yAxisId="line"
          type="monotone"
          dataKey={line}
          stroke={lineColor}
          strokeWidth={2}
          dot={{ r: 3, fill: lineColor, strokeWidth: 0 }}
          isAnimationActive={false}
        />
      </RComposedChart>
    </ChartFrame>
  );
}

interface ScatterProps extends Base {
  xKey?: string | null;
  yKey?: string | null;
  zKey?: string | null;
  color?: string | null;
}

/** ScatterChart plots (xKey, yKey) points, sized by zKey when given. */
export function ScatterChart({ props }: BaseComponentProps<ScatterProps>) {
  const p = usePalette();
  const x = props.xKey ?? "x";
  const y = props.yKey ?? "y";
  const z = props.zKey ?? null;
  const data = aggregate(rows(props.data), x, z ? [x, y, z] : [x, y], null);
  const color = props.color ?? seriesColor(p, 0);
  return (
    <ChartFrame name="ScatterChart" title={props.title} height={props.height} empty={!data.length}>
      <RScatterChart margin={margin}>
        <CartesianGrid {...gridProps(p)} vertical />
        <XAxis type="number" dataKey={x} name={x} {...axisProps(p)} />
        <YAxis type="number" dataKey={y} name={y} {...axisProps(p)} width={48} />
        {z ? <ZAxis type="number" dataKey={z} name={z} range={[40, 400]} /> : null}
        <Tooltip {...tooltipProps(p)} />
        <Scatter data={data} fill={color} fillOpacity={0.75} stroke={color} isAnimationActive={false} />
      </RScatterChart>
    </ChartFrame>
  );
}

interface PieProps extends Base {
  nameKey?: string | null;
  valueKey?: string | null;
  showLabels?: boolean | null;
  showLegend?: boolean | null;
}

/** PieChart is a donut of valueKey per nameKey, labelled with values. */
export function PieChart({ props }: BaseComponentProps<PieProps>) {
  const p = usePalette();
  const name = props.nameKey ?? "name";
  const value = props.valueKey ?? "value";
  const data = aggregate(rows(props.data), name, [value], null);
  const labels = props.showLabels !== false;
  return (
    <ChartFrame name="PieChart" title={props.title} height={props.height} empty={!data.length}>
      <RPieChart margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
        <Tooltip {...tooltipProps(p)} />
        {props.showLegend !== false ? <Legend {...legendProps()} /> : null}
        <Pie
          data={data}
          dataKey={value}
          nameKey={name}
          innerRadius="52%"
          outerRadius="78%"
          paddingAngle={2}
          stroke={p.panel}
          strokeWidth={2}
          label={labels ? { fill: p.foreground, fontSize: 12, formatter: short } : false}
          labelLine={labels ? { stroke: p.grid } : false}
          isAnimationActive={false}
        >
          {data.map((_, i) => (
            <Cell key={i} fill={seriesColor(p, i)} />
          ))}
        </Pie>
      </RPieChart>
    </ChartFrame>
  );
}

interface RadarProps extends Base {
  axisKey?: string | null;
  metrics?: string[] | null;
  showLegend?: boolean | null;
}

/** RadarChart draws one filled polygon per metric around axisKey. */
export function RadarChart({ props }: BaseComponentProps<RadarProps>) {
  const p = usePalette();
  const axis = props.axisKey ?? "axis";
  const metrics = props.metrics ?? [];
  const data = aggregate(rows(props.data), axis, metrics, null);
  return (
    <ChartFrame name="RadarChart" title={props.title} height={props.height} empty={!data.length}>
      <RRadarChart data={data} outerRadius="80%" margin={{ top: 8, right: 16, bottom: 8, left: 16 }}>
        <PolarGrid stroke={p.grid} />
        <PolarAngleAxis dataKey={axis} tick={{ fill: p.axis, fontSize: 12 }} />
        <PolarRadiusAxis tick={false} axisLine={false} />
        <Tooltip {...tooltipProps(p)} />
        {props.showLegend !== false ? <Legend {...legendProps()} /> : null}
        {metrics.map((m, i) => (
          <Radar
            key={m}
            dataKey={m}
            stroke={seriesColor(p, i)}
            fill={seriesColor(p, i)}
            fillOpacity={0.18}
            strokeWidth={2}
            isAnimationActive={false}
          />
        ))}
      </RRadarChart>
    </ChartFrame>
  );
}
