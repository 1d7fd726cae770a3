// Frames grow to their content (web-client.md §5.8 "iframe content-fit"):
// a surface or the viewer reports its document's height
// ({type:"pmx-frame-height", height}); when the node would need more than
// 8 px more to show it, the node grows (never shrinks) to that height plus
// its title bar and padding, at most 1400 px, and the new size is stored
// (not an undo step). A node the human resized, or one created with
// strictSize, keeps its size.

import { useEffect, useRef } from "./ui.js";
import { api } from "./client.js";

const CHROME = 37 + 24; // title bar and body padding
const MAX_HEIGHT = 1400;
const SLACK = 8;
const SETTLE_MS = 300;

// grownHeight is the height node should grow to for content of height h,
// or 0 when it keeps its size.
export function grownHeight(node, h) {
  const d = node.data || {};
  if (d.userResized || d.strictSize || node.collapsed || !(h > 0)) return 0;
  const target = Math.min(Math.ceil(h) + CHROME, MAX_HEIGHT);
  return target > node.size.height + SLACK ? target : 0;
}

// useContentHeight grows node to what the frame in frameRef reports;
// accept(message) says whether a message is the frame's own (its nonce).
export function useContentHeight(frameRef, node, accept) {
  const latest = useRef(node);
  latest.current = node;
  useEffect(() => {
    let timer = 0, asked = 0;
    const onMessage = (ev) => {
      const f = frameRef.current, m = ev.data;
      if (!f || ev.source !== f.contentWindow || !m || m.type !== "pmx-frame-height" || !accept(m)) return;
      const target = grownHeight(latest.current, Number(m.height));
      if (!target || target <= asked) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const n = latest.current;
        if (target <= n.size.height + SLACK) return;
        asked = target;
        api("POST", "/api/canvas/update", { updates: [{ id: n.id, size: { width: n.size.width, height: target } }] });
      }, SETTLE_MS);
    };
    addEventListener("message", onMessage);
    return () => { clearTimeout(timer); removeEventListener("message", onMessage); };
  }, []);
}
