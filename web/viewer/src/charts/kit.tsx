// What every chart shares: the frame that sizes it (intrinsic height in a
// canvas node, filling the overlay when expanded), data coercion and
// aggregation, and the themed axis, grid, tooltip and legend settings.

import type { CSSProperties, ReactNode } from "react";
import { ResponsiveContainer } from "recharts";
import { display, type Palette } from "../theme";

/** Row is one data record of a chart. */
export type Row = Record<string, unknown>;

/** Base holds the props every chart accepts. */
export interface Base {
  data?: Row[] | null;
  title?: string | null;
  height?: number | null;
}

/** rows returns the chart's data, or [] for anything that is not a list. */
export function rows(data: unknown): Row[] {
  return Array.isArray(data) ? data.filter((r): r is Row => r !== null && typeof r === "object") : [];
}

/** num reads a number from a value that may be a numeric string. */
export function num(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Aggregate is how rows sharing an x value are combined. */
export type Aggregate = "sum" | "count" | "avg" | null | undefined;

/**
 * aggregate returns one row per x value (first-seen order) with each of
 * keys combined by mode; without a mode it only coerces keys to numbers.
 */
export function aggregate(data: Row[], xKey: string, keys: string[], mode: Aggregate): Row[] {
  if (!mode) {
    return data.map((r) => {
      const out: Row = { ...r };
      for (const k of keys) out[k] = num(r[k]);
      return out;
    });
  }
  const groups = new Map<string, { x: unknown; sums: number[]; counts: number[]; rows: number }>();
  for (const r of data) {
    const id = String(r[xKey]);
    let g = groups.get(id);
    if (!g) {
      g = { x: r[xKey], sums: keys.map(() => 0), counts: keys.map(() => 0), rows: 0 };
      groups.set(id, g);
    }
    g.rows++;
    keys.forEach((k, i) => {
      const n = num(r[k]);
      if (n !== null) {
        g.sums[i] += n;
        g.counts[i]++;
      }
    });
  }
  return [...groups.values()].map((g) => {
    const out: Row = { [xKey]: g.x };
    keys.forEach((k, i) => {
      out[k] = mode === "count" ? g.rows : mode === "avg" ? (g.counts[i] ? g.sums[i] / g.counts[i] : null) : g.sums[i];
    });
    return out;
  });
}

/** seriesColor is the i-th palette colour, cycling. */
export function seriesColor(p: Palette, i: number): string {
  return p.series[i % p.series.length];
}

/** short formats a number for ticks and labels: 1234567 → 1.2M. */
export function short(v: unknown): string {
  const n = num(v);
  if (n === null) return String(v ?? "");
  const a = Math.abs(n);
  if (a >= 1e9) return `${+(n / 1e9).toFixed(1)}B`;
  if (a >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${+(n / 1e3).toFixed(1)}k`;
  return `${+n.toFixed(2)}`;
}

/** axisProps is the themed look of a cartesian axis. */
export function axisProps(p: Palette) {
  return {
    stroke: p.grid,
    tick: { fill: p.axis, fontSize: 12 },
    tickLine: false,
    axisLine: { stroke: p.grid },
    tickFormatter: short,
  };
}

/** gridProps is the themed look of a cartesian grid: dashed, horizontal. */
export function gridProps(p: Palette) {
  return { stroke: p.grid, strokeDasharray: "3 3", vertical: false };
}

const tooltipBox: CSSProperties = {
  background: "var(--popover)",
  border: "1px solid var(--border)",
  borderRadius: 8,
  color: "var(--popover-foreground)",
  fontSize: 12,
  boxShadow: "0 6px 24px rgb(0 0 0 / 0.25)",
};

/**
 * tooltipProps is the themed tooltip. Bars get no hover cursor: the
 * bright band over a dark panel hid the bar it was meant to show.
 */
export function tooltipProps(p: Palette, cursor: "line" | "none" = "line") {
  return {
    contentStyle: tooltipBox,
    labelStyle: { color: "var(--muted-foreground)", marginBottom: 4 },
    itemStyle: { color: "var(--popover-foreground)", padding: 0 },
    cursor: cursor === "line" ? { stroke: p.axis, strokeDasharray: "3 3" } : false,
    isAnimationActive: false,
  };
}

/** legendProps is the themed legend (text in the muted colour). */
export function legendProps() {
  return {
    iconType: "circle" as const,
    iconSize: 8,
    wrapperStyle: { fontSize: 12, paddingTop: 8 },
    formatter: (value: unknown) => <span style={{ color: "var(--muted-foreground)" }}>{String(value)}</span>,
  };
}

/** The chart height in a canvas node when the spec gives none. */
export const defaultHeight = 280;

/**
 * ChartFrame sizes a chart: height (or defaultHeight) in a canvas node;
 * in the expanded overlay it fills the space left by the card around it.
 * The optional title is drawn above the plot.
 */
export function ChartFrame({
  name,
  title,
  height,
  empty,
  children,
}: {
  name: string;
  title?: string | null;
  height?: number | null;
  empty?: boolean;
  children: ReactNode;
}) {
  const expanded = display() === "expanded";
  const h = num(height) ?? defaultHeight;
  return (
    <figure className={expanded ? "pmx-chart pmx-chart-fill" : "pmx-chart"} data-chart={name}>
      {title ? <figcaption className="pmx-chart-title">{title}</figcaption> : null}
      {empty ? (
        <div className="pmx-chart-empty" style={{ height: expanded ? undefined : h }}>
          No data
        </div>
      ) : (
        <div className="pmx-chart-plot" style={expanded ? undefined : { height: h }}>
          <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 640, height: h }}>
            {children}
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
