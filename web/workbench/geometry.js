// Board geometry shared by the view (fit) and the minimap.

// center is a node's centre in world coordinates.
export function center(n) {
  return { x: n.position.x + n.size.width / 2, y: n.position.y + n.size.height / 2 };
}

// nodeBounds is the box around nodes (and any extra {x, y, w, h} rects), or
// null when there is nothing. A loop, not Math.min(...list): a spread of a
// very large board would exceed the engine's argument limit.
export function nodeBounds(nodes, extra = []) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const add = (x, y, w, h) => {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x + w > maxX) maxX = x + w;
    if (y + h > maxY) maxY = y + h;
  };
  for (const n of nodes) add(n.position.x, n.position.y, n.size.width, n.size.height);
  for (const r of extra) add(r.x, r.y, r.w, r.h);
  return minX === Infinity ? null : { minX, minY, maxX, maxY };
}
