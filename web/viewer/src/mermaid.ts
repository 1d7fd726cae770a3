// The mermaid viewer: renders a mermaid node's diagram source to SVG. It is
// its own bundle (viewer-mermaid.js) because mermaid is several times the
// size of everything else, and only mermaid documents need it.

import mermaid from "mermaid";
import {
  applyTheme,
  errorText,
  onThemeMessage,
  readPayload,
  renderErrorBox,
  reportHeight,
  type Theme,
} from "./frame";

/** cssVar reads a theme colour from the stylesheet (viewer.css). */
function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/**
 * themeConfig maps the viewer theme onto mermaid's "base" theme, whose
 * variables are the same colours the rest of the viewer uses.
 */
function themeConfig(theme: Theme) {
  return {
    startOnLoad: false,
    securityLevel: "strict" as const,
    theme: "base" as const,
    fontFamily: cssVar("--font-ui") || "system-ui, sans-serif",
    themeVariables: {
      darkMode: theme !== "light",
      background: cssVar("--card"),
      fontFamily: cssVar("--font-ui") || "system-ui, sans-serif",
      primaryColor: cssVar("--diagram-node"),
      primaryBorderColor: cssVar("--diagram-border"),
      primaryTextColor: cssVar("--foreground"),
      secondaryColor: cssVar("--diagram-node-alt"),
      tertiaryColor: cssVar("--card"),
      lineColor: cssVar("--diagram-line"),
      textColor: cssVar("--foreground"),
      mainBkg: cssVar("--diagram-node"),
      nodeBorder: cssVar("--diagram-border"),
      clusterBkg: cssVar("--diagram-cluster"),
      clusterBorder: cssVar("--border"),
      edgeLabelBackground: cssVar("--card"),
      noteBkgColor: cssVar("--diagram-node-alt"),
      noteTextColor: cssVar("--foreground"),
    },
  };
}

let renders = 0;

/**
 * draw renders source into root with the given theme. A parse error is
 * shown as an error box rather than mermaid's own "bomb" graphic.
 */
async function draw(root: HTMLElement, source: string, theme: Theme): Promise<void> {
  mermaid.initialize(themeConfig(theme));
  try {
    await mermaid.parse(source);
  } catch (err) {
    renderErrorBox(root, "Mermaid syntax error", errorText(err));
    return;
  }
  try {
    const { svg, bindFunctions } = await mermaid.render(`pmx-mermaid-${++renders}`, source);
    const figure = document.createElement("div");
    figure.className = "pmx-mermaid";
    figure.innerHTML = svg; // sanitized by mermaid (securityLevel strict)
    root.replaceChildren(figure);
    bindFunctions?.(figure);
  } catch (err) {
    renderErrorBox(root, "Mermaid render error", errorText(err));
  }
}

function main(): void {
  const payload = readPayload();
  const root = document.getElementById("pmx-root") ?? document.body;
  applyTheme(payload.theme);
  const source = payload.source ?? "";
  if (source.trim() === "") {
    renderErrorBox(root, "Empty diagram", "This mermaid node has no diagram source.");
  } else {
    void draw(root, source, payload.theme);
    onThemeMessage((theme) => void draw(root, source, theme));
  }
  reportHeight(payload.nodeId, root);
}

main();
