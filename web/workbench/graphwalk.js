// Walking the graph with the arrow keys (web-client.md §4.7): from the
// active card, the next card in the arrow's direction is, among the cards
// an edge connects it to, the one whose centre scores best on
// dot/dist − 0.001·dist (dot: the centre offset along the arrow, which
// must be positive; dist: its length), so a card straight ahead wins over
// a nearer one off to the side. A card with no connected card that way
// walks, by the same rule, to the board's other cards (the reference then
// stays put, which leaves a card without edges unreachable by keys).

import { center } from "./geometry.js";

export const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// walk returns the id of the card to move to from node `from` for an
// arrow key, or null. connected: the ids an edge joins `from` to;
// candidates: every card that can be walked to (not docked).
export function walk(from, key, connected, candidates) {
  const dir = ARROWS[key];
  if (!from || !dir) return null;
  const c = center(from);
  const pick = (nodes) => {
    let bestId = null, bestScore = -Infinity;
    for (const n of nodes) {
      if (n.id === from.id) continue;
      const p = center(n), vx = p.x - c.x, vy = p.y - c.y;
      const dot = vx * dir[0] + vy * dir[1], dist = Math.hypot(vx, vy);
      if (dot <= 0 || dist === 0) continue;
      const score = dot / dist - 0.001 * dist;
      if (score > bestScore) { bestScore = score; bestId = n.id; }
    }
    return bestId;
  };
  return pick(candidates.filter((n) => connected.has(n.id))) ?? pick(candidates);
}
