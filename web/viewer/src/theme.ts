// The current theme as a React store. Charts draw SVG, whose presentation
// attributes cannot use CSS var(), so they read the theme's colours from
// the stylesheet (viewer.css is the single source) and re-render when the
// parent switches theme.

import { useSyncExternalStore } from "react";
import { applyTheme, type Theme } from "./frame";

/** Palette holds the resolved colours charts draw with. */
export interface Palette {
  theme: Theme;
  series: string[];
  foreground: string;
  muted: string;
  grid: string;
  axis: string;
  panel: string;
  dim: string;
  up: string;
  down: string;
  ranges: string[];
}

let current: Palette | null = null;
const listeners = new Set<() => void>();

function read(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function readPalette(theme: Theme): Palette {
  return {
    theme,
    series: [1, 2, 3, 4, 5, 6].map((i) => read(`--chart-${i}`)),
    foreground: read("--foreground"),
    muted: read("--muted-foreground"),
    grid: read("--chart-grid"),
    axis: read("--chart-axis"),
    panel: read("--card"),
    dim: read("--chart-dim"),
    up: read("--chart-up"),
    down: read("--chart-down"),
    ranges: [1, 2, 3].map((i) => read(`--chart-range-${i}`)),
  };
}

/** setTheme applies theme to the document and notifies the charts. */
export function setTheme(theme: Theme): void {
  applyTheme(theme);
  current = readPalette(theme);
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function snapshot(): Palette {
  if (!current) {
    const t = document.documentElement.dataset.theme as Theme | undefined;
    current = readPalette(t ?? "dark");
  }
  return current;
}

/** usePalette returns the current theme's chart colours. */
export function usePalette(): Palette {
  return useSyncExternalStore(subscribe, snapshot);
}

/** Display is inline (in a canvas node) or expanded (the focus overlay). */
export type Display = "inline" | "expanded";

/** display reads the document's display mode, fixed for its lifetime. */
export function display(): Display {
  return document.documentElement.dataset.display === "expanded" ? "expanded" : "inline";
}
