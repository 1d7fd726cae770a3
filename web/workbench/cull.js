// Viewport culling: on a large board only the cards near the view are in
// the DOM, so panning, zooming and a change cost what is on screen, not
// what the board holds. A small board keeps every card (its frames never
// reload because the view moved). Edges are culled the same way: an edge
// is drawn while the box between its ends' centres is near the view (so an
// edge whose ends are both off screen but that crosses the view stays).

// CULL_MIN is the number of board nodes from which cards are culled.
export const CULL_MIN = 300;

// A card enters the DOM within MARGIN viewports of the view and leaves it
// beyond KEEP viewports: panning back and forth near the edge does not
// rebuild the same cards.
const MARGIN = 0.5, KEEP = 1, COVER = 0.25;

// viewRect is the world rectangle the view shows, grown by k viewports on
// every side. view: {x, y, scale}; w, h: the viewport's size in pixels.
export function viewRect(view, w, h, k) {
  const ww = w / view.scale, wh = h / view.scale;
  const x = -view.x / view.scale, y = -view.y / view.scale;
  return { x0: x - ww * k, y0: y - wh * k, x1: x + ww * (1 + k), y1: y + wh * (1 + k) };
}

const overlaps = (n, r) => n.position.x < r.x1 && n.position.x + n.size.width > r.x0 &&
  n.position.y < r.y1 && n.position.y + n.size.height > r.y0;

// createCuller decides, for the current view, which board nodes have a
// card. size() is the viewport's size {w, h}; view() the view.
export function createCuller(view, size) {
  let near = null, keep = null, shown = null, partial = false;
  return {
    // update recomputes the rectangles for the current view.
    update() {
      const v = view(), s = size();
      near = viewRect(v, s.w, s.h, MARGIN);
      keep = viewRect(v, s.w, s.h, KEEP);
      shown = viewRect(v, s.w, s.h, 0);
      partial = false;
    },
    // inView: n is on screen now (not only in the margin).
    inView(n) {
      if (!shown) this.update();
      return overlaps(n, shown);
    },
    // deferred: the last scan left cards of the margin for a later frame.
    deferred() { partial = true; },
    // covers: the cards made at the last update still cover the current
    // view with a quarter viewport to spare, so a pan or zoom frame need
    // not look at every node again.
    covers() {
      if (!near || partial) return false;
      const v = view(), s = size(), r = viewRect(v, s.w, s.h, COVER);
      return r.x0 >= near.x0 && r.y0 >= near.y0 && r.x1 <= near.x1 && r.y1 <= near.y1;
    },
    // wants: n should have a card (it is near the view). had: it has one
    // now, which it keeps while it is within the wider rectangle.
    wants(n, had) {
      if (!near) this.update();
      return overlaps(n, had ? keep : near);
    },
    // wantsBox: the same for a world box {x0, y0, x1, y1} (an edge's).
    wantsBox(b, had) {
      if (!near) this.update();
      const r = had ? keep : near;
      return b.x0 <= r.x1 && b.x1 >= r.x0 && b.y0 <= r.y1 && b.y1 >= r.y0;
    },
  };
}
