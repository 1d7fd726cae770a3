// The "Tufte" charts of graph nodes, on recharts: sparkline, dot plot,
// bullet chart and slopegraph. They favour data over ink: few axes, no
// boxes, labels on the data.

import {
  Area,
  AreaChart as RAreaChart,
  Bar,
  BarChart as RBarChart,
  CartesianGrid,
  LabelList,
  Line,
  LineChart as RLineChart,
  Scatter,
  ScatterChart as RScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { BaseComponentProps } from "@json-render/react";
import { usePalette } from "../theme";
import { axisProps, type Base, ChartFrame, num, rows, seriesColor, short, tooltipProps } from "./kit";

interface SparkProps extends Base {
  valueKey?: string | null;
  color?: string | null;
  fill?: boolean | null;
  showEndDot?: boolean | null;
  showMinMax?: boolean | null;
  showValue?: boolean | null;
}

/**
 * Sparkline is a word-sized line without axes; it can mark the last
 * value, the minimum and maximum, and print the last value beside it.
 */
export function Sparkline({ props }: BaseComponentProps<SparkProps>) {
  const p = usePalette();
  const key = props.valueKey ?? "value";
  const values = rows(props.data).map((r) => num(r[key]));
  const data = values.map((v, i) => ({ i, v }));
  const color = props.color ?? seriesColor(p, 0);
  const present = values.filter((v): v is number => v !== null);
  const min = Math.min(...present);
  const max = Math.max(...present);
  const lastIndex = values.length - 1;
  const showMinMax = props.showMinMax === true;
  const showEnd = props.showEndDot !== false;
  const dot = (d: { cx?: number; cy?: number; index?: number; value?: unknown }) => {
    const i = d.index ?? -1;
    const v = num(d.value);
    let fill: string | null = null;
    if (showEnd && i === lastIndex) fill = color;
    else if (showMinMax && v === max) fill = p.up;
    else if (showMinMax && v === min) fill = p.down;
    if (fill === null || d.cx === undefined || d.cy === undefined) return <g key={i} />;
    return <circle key={i} cx={d.cx} cy={d.cy} r={3.5} fill={fill} stroke={p.panel} strokeWidth={1.5} />;
  };
  const last = values[lastIndex] ?? null;
  const chart = props.fill ? (
    <RAreaChart data={data} margin={{ top: 6, right: 6, bottom: 6, left: 6 }}>
      <YAxis hide domain={["dataMin", "dataMax"]} />
      <Area
        type="monotone"
        dataKey="v"
        stroke={color}
        strokeWidth={1.5}
        fill={color}
        fillOpacity={0.15}
        dot={dot}
        activeDot={false}
        isAnimationActive={false}
      />
    </RAreaChart>
  ) : (
    <RLineChart data={data} margin={{ top: 6, right: 6, bottom: 6, left: 6 }}>
      <YAxis hide domain={["dataMin", "dataMax"]} />
      <Line type="monotone" dataKey="v" stroke={color} strokeWidth={1.5} dot={dot} activeDot={false} isAnimationActive={false} />
    </RLineChart>
  );
  return (
    <div className="pmx-spark">
      <div className="pmx-spark-line">
        <ChartFrame name="Sparkline" title={props.title} height={props.height ?? 64} empty={!present.length}>
          {chart}
        </ChartFrame>
      </div>
      {props.showValue && last !== null ? (
        <div className="pmx-spark-value" style={{ color }}>
          {short(last)}
        </div>
      ) : null}
    </div>
  );
}

interface DotProps extends Base {
  labelKey?: string | null;
  valueKey?: string | null;
  color?: string | null;
  sort?: "asc" | "desc" | "none" | null;
}

/**
 * DotPlot (Cleveland) puts one dot per label on a shared value scale,
 * with a faint guide line per row: easier to compare than bars.
 */
export function DotPlot({ props }: BaseComponentProps<DotProps>) {
  const p = usePalette();
  const labelKey = props.labelKey ?? "label";
  const valueKey = props.valueKey ?? "value";
  const data = rows(props.data).map((r) => ({ label: String(r[labelKey] ?? ""), value: num(r[valueKey]) }));
  if (props.sort === "asc") data.sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
  if (props.sort === "desc") data.sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const color = props.color ?? seriesColor(p, 0);
  const height = props.height ?? Math.max(120, data.length * 30 + 40);
  return (
    <ChartFrame name="DotPlot" title={props.title} height={height} empty={!data.length}>
      <RScatterChart data={data} margin={{ top: 8, right: 24, bottom: 4, left: 8 }}>
        <CartesianGrid stroke={p.grid} strokeDasharray="1 3" horizontal vertical={false} />
        <XAxis type="number" dataKey="value" name={valueKey} {...axisProps(p)} domain={["auto", "auto"]} />
        <YAxis
          type="category"
          dataKey="label"
          name={labelKey}
          allowDuplicatedCategory={false}
          reversed
          {...axisProps(p)}
          tickFormatter={undefined}
          axisLine={false}
          width={110}
        />
        <Tooltip {...tooltipProps(p, "none")} />
        <Scatter data={data} fill={color} shape="circle" isAnimationActive={false} />
      </RScatterChart>
    </ChartFrame>
  );
}

interface BulletProps extends Base {
  valueKey?: string | null;
  labelKey?: string | null;
  targetKey?: string | null;
  rangesKey?: string | null;
  color?: string | null;
}

interface BulletRow {
  label: string;
  value: number;
  target: number | null;
  ranges: number[];
  extent: number;
}

/** ranges reads a row's qualitative bands: a number list or one number. */
function ranges(v: unknown): number[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list.map(num).filter((n): n is number => n !== null && n > 0).sort((a, b) => a - b);
}

/**
 * BulletChart (Few) shows per row a value bar over grey qualitative bands
 * with a tick at the target; the lowest band is the most salient. Each row is drawn by one custom bar shape
 * whose length spans the row's extent, so the shape can place the bands,
 * bar and tick on the same pixel scale.
 */
export function BulletChart({ props }: BaseComponentProps<BulletProps>) {
  const p = usePalette();
  const valueKey = props.valueKey ?? "value";
  const data: BulletRow[] = rows(props.data).map((r, i) => {
    const value = num(r[valueKey]) ?? 0;
    const target = props.targetKey ? num(r[props.targetKey]) : null;
    const bands = props.rangesKey ? ranges(r[props.rangesKey]) : [];
    const label = props.labelKey ? String(r[props.labelKey] ?? "") : `${i + 1}`;
    return { label, value, target, ranges: bands, extent: Math.max(value, target ?? 0, ...bands) };
  });
  const color = props.color ?? seriesColor(p, 0);
  const height = props.height ?? Math.max(110, data.length * 52 + 36);
  const shape = (s: { x?: number; y?: number; width?: number; height?: number; payload?: BulletRow }) => {
    const row = s.payload;
    const [x, y, w, h] = [s.x ?? 0, s.y ?? 0, s.width ?? 0, s.height ?? 0];
    if (!row || row.extent <= 0) return <g />;
    const px = (v: number) => x + (v / row.extent) * w;
    const bands = row.ranges.length ? row.ranges : [row.extent];
    return (
      <g className="pmx-bullet">
        {bands
          .map((b, i) => ({ b, fill: p.ranges[Math.min(i, p.ranges.length - 1)] }))
          .reverse()
          .map(({ b, fill }) => (
            <rect key={b} x={x} y={y} width={px(b) - x} height={h} fill={fill} />
          ))}
        <rect x={x} y={y + h * 0.32} width={px(row.value) - x} height={h * 0.36} fill={color} />
        {row.target !== null ? (
          <line x1={px(row.target)} x2={px(row.target)} y1={y + h * 0.12} y2={y + h * 0.88} stroke={p.foreground} strokeWidth={2.5} />
        ) : null}
      </g>
    );
  };
  return (
    <ChartFrame name="BulletChart" title={props.title} height={height} empty={!data.length}>
      <RBarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 8 }} barCategoryGap="30%">
        <XAxis type="number" {...axisProps(p)} domain={[0, "dataMax"]} />
        <YAxis type="category" dataKey="label" {...axisProps(p)} tickFormatter={undefined} axisLine={false} width={110} />
        <Tooltip {...tooltipProps(p, "none")} formatter={(_v, _n, item) => bulletTip(item?.payload as BulletRow)} />
        <Bar dataKey="extent" name={valueKey} shape={shape} isAnimationActive={false} />
      </RBarChart>
    </ChartFrame>
  );
}

function bulletTip(row: BulletRow | undefined): string {
  if (!row) return "";
  return row.target !== null ? `${short(row.value)} (target ${short(row.target)})` : short(row.value);
}

interface SlopeProps extends Base {
  labelKey?: string | null;
  beforeKey?: string | null;
  afterKey?: string | null;
  beforeLabel?: string | null;
  afterLabel?: string | null;
  color?: string | null;
  colorByDirection?: boolean | null;
}

/**
 * Slopegraph joins each row's before and after values with a line, the
 * row's label and value written at both ends. With colorByDirection, rises
 * and falls get the up and down colours.
 */
export function Slopegraph({ props }: BaseComponentProps<SlopeProps>) {
  const p = usePalette();
  const labelKey = props.labelKey ?? "label";
  const beforeKey = props.beforeKey ?? "before";
  const afterKey = props.afterKey ?? "after";
  const before = props.beforeLabel ?? "Before";
  const after = props.afterLabel ?? "After";
  const lines = rows(props.data).map((r, i) => ({
    key: `s${i}`,
    label: String(r[labelKey] ?? `${i + 1}`),
    before: num(r[beforeKey]),
    after: num(r[afterKey]),
  }));
  const data = [
    Object.fromEntries([["side", before], ...lines.map((l) => [l.key, l.before])]),
    Object.fromEntries([["side", after], ...lines.map((l) => [l.key, l.after])]),
  ];
  const colorOf = (l: (typeof lines)[number], i: number) => {
    if (!props.colorByDirection) return props.color ?? seriesColor(p, i);
    if (l.before === null || l.after === null || l.after === l.before) return p.muted;
    return l.after > l.before ? p.up : p.down;
  };
  return (
    <ChartFrame name="Slopegraph" title={props.title} height={props.height} empty={!lines.length}>
      <RLineChart data={data} margin={{ top: 28, right: 8, bottom: 8, left: 8 }}>
        <XAxis
          dataKey="side"
          orientation="top"
          axisLine={false}
          tickLine={false}
          tick={{ fill: p.foreground, fontSize: 12, fontWeight: 600 }}
          padding={{ left: 130, right: 130 }}
        />
        <YAxis hide domain={["auto", "auto"]} />
        <Tooltip {...tooltipProps(p)} formatter={(v, name) => [short(v), lines.find((l) => l.key === name)?.label ?? name]} />
        {lines.map((l, i) => {
          const c = colorOf(l, i);
          return (
            <Line key={l.key} dataKey={l.key} name={l.label} stroke={c} strokeWidth={2} dot={{ r: 4, fill: c, strokeWidth: 0 }} isAnimationActive={false}>
              <LabelList
                dataKey={l.key}
                content={(lp) => {
                  const side = lp.index === 0 ? "start" : "end";
                  const x = Number(lp.x ?? 0) + (side === "start" ? -10 : 10);
                  const text = side === "start" ? `${l.label}  ${short(lp.value)}` : `${short(lp.value)}  ${l.label}`;
                  return (
                    <text x={x} y={Number(lp.y ?? 0)} dy={4} fontSize={12} fill={p.foreground} textAnchor={side === "start" ? "end" : "start"}>
                      {text}
                    </text>
                  );
                }}
              />
            </Line>
          );
        })}
      </RLineChart>
    </ChartFrame>
  );
}
