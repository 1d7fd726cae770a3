// How the board reads the wheel, and how its chrome keeps a readable size
// zoomed out.

// wheelZooms says whether a wheel event zooms (else it pans). A mouse
// wheel zooms; so does any wheel with Ctrl/⌘ (a trackpad pinch arrives as
// a Ctrl+wheel). A trackpad's two-finger scroll pans, as does Shift+wheel
// (sideways). Browsers report both in pixels, so a trackpad is told by its
// events: a horizontal part, a fraction of a pixel, or a step under 50 px
// (a wheel notch is 50–120 px); a mouse-like event within 300 ms of a
// trackpad one (the end of a fast scroll) still pans. Lines or pages
// (Firefox's mouse wheel) are a mouse.
let trackpadAt = -Infinity;
export function wheelZooms(ev) {
  if (ev.ctrlKey || ev.metaKey) return true;
  if (ev.shiftKey) return false;
  if (ev.deltaMode !== 0) return true;
  const now = ev.timeStamp || performance.now();
  if (ev.deltaX !== 0 || !Number.isInteger(ev.deltaY) || Math.abs(ev.deltaY) < 50) {
    trackpadAt = now;
    return false;
  }
  return now - trackpadAt > 300;
}

// chromeScale counter-scales the cards' title bars and the edges' strokes
// when the view is zoomed out (web-client.md §4.5): --node-chrome-scale is
// min(2.2, 1/scale) (title text, badge, buttons: readable, hit targets
// ≥ ~20 px; bodies are not scaled) and --edge-scale is 1/scale (a stroke
// keeps its on-screen width), both 1 at 100% and over. They are set on the
// world in 0.05 steps (rounded up), so a zoom restyles the cards only
// when a step changes.
let last = "";
export function chromeScale(world, scale) {
  const inv = scale < 1 ? Math.ceil((1 / scale) * 20) / 20 : 1;
  const chrome = Math.min(2.2, inv), edge = Math.min(10, inv);
  const key = chrome + "/" + edge;
  if (key === last) return;
  last = key;
  world.style.setProperty("--node-chrome-scale", String(chrome));
  world.style.setProperty("--edge-scale", String(edge));
}
