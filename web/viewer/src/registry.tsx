// The component registry of the viewer: the shadcn set, the canvas's own
// Button and Badge, and the twelve graph charts, so a json-render spec may
// use any of them and a graph spec is just a Card holding one chart.

import type { ComponentRegistry, ComponentRenderProps, BaseComponentProps } from "@json-render/react";
import { shadcnComponents } from "@json-render/shadcn";
import type { ReactNode } from "react";
import { AreaChart, BarChart, ComposedChart, LineChart, PieChart, RadarChart, ScatterChart, StackedBarChart } from "./charts/basic";
import { BulletChart, DotPlot, Slopegraph, Sparkline } from "./charts/tufte";
import { Badge, Button } from "./controls";
import { Boundary, ErrorBox } from "./errors";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ComponentFn = (ctx: BaseComponentProps<any>) => ReactNode;

/** charts are the graph node components (reference domain §2.14). */
export const charts: Record<string, ComponentFn> = {
  LineChart,
  BarChart,
  PieChart,
  AreaChart,
  ScatterChart,
  RadarChart,
  StackedBarChart,
  ComposedChart,
  Sparkline,
  DotPlot,
  BulletChart,
  Slopegraph,
};

const components: Record<string, ComponentFn> = {
  ...(shadcnComponents as Record<string, ComponentFn>),
  Button,
  Badge,
  ...charts,
};

/**
 * adapt turns a component function into a renderer, the way
 * defineRegistry does (props are the element's resolved props), inside a
 * Boundary so a throwing component shows an error box naming it.
 */
function adapt(name: string, fn: ComponentFn) {
  const Inner = ({ element, children, emit, on, bindings, loading }: ComponentRenderProps) =>
    fn({ props: element.props, children, emit, on, bindings, loading });
  Inner.displayName = name;
  const Renderer = (p: ComponentRenderProps) => (
    <Boundary name={`Component ${name}`}>
      <Inner {...p} />
    </Boundary>
  );
  Renderer.displayName = `Safe(${name})`;
  return Renderer;
}

/** registry is what the Renderer draws specs with. */
export const registry: ComponentRegistry = Object.fromEntries(
  Object.entries(components).map(([name, fn]) => [name, adapt(name, fn)]),
);

/** componentNames lists every known component type, sorted. */
export const componentNames = Object.keys(components).sort();

/**
 * Unknown is the fallback for an element whose type is not in the
 * registry: an error box naming the type, then the element's children, so
 * the rest of the spec still shows.
 */
export function Unknown({ element, children }: ComponentRenderProps) {
  return (
    <>
      <ErrorBox
        title={`Unknown component "${element.type}"`}
        detail={`This viewer has no component of that type. Known types: ${componentNames.join(", ")}.`}
      />
      {children}
    </>
  );
}
