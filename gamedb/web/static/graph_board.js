// Cat and mouse on a graph (LeetCode 913): the graph in rings by distance from the hole
// (node 0 in the middle), the same layout every time; the two tokens; the mover's moves.

import { canvas, moveTarget, svg } from "./values.js";

// node -> [x, y]: breadth-first rings around node 0, each ring ordered by its parents' angles
export function ringLayout(graph, size) {
  const n = graph.length, depth = new Array(n).fill(-1), angle = new Array(n).fill(0);
  let ring = [0];
  depth[0] = 0;
  const rings = [ring];
  while (ring.length) {
    const next = [];
    for (const a of ring) for (const b of [...graph[a]].sort((x, y) => x - y)) if (depth[b] < 0) { depth[b] = depth[a] + 1; next.push(b); }
    if (next.length) rings.push(next);
    ring = next;
  }
  const unreached = [...Array(n).keys()].filter((v) => depth[v] < 0);
  if (unreached.length) rings.push(unreached);
  const centre = size / 2, step = (size / 2 - 24) / Math.max(rings.length - 1, 1);
  const place = new Array(n);
  place[0] = [centre, centre];
  rings.forEach((nodes, k) => {
    if (k === 0) return;
    nodes.forEach((v, i) => {
      angle[v] = -Math.PI / 2 + (2 * Math.PI * (i + 0.5 * (k % 2))) / nodes.length;
      place[v] = [centre + k * step * Math.cos(angle[v]), centre + k * step * Math.sin(angle[v])];
    });
  });
  return place;
}

export function catMouseBoard(info, answer, values) {
  const graph = info.parameters.graph;
  const m = /^mouse=(\d+),cat=(\d+),turn=(mouse|cat)$/.exec(answer.position);
  if (!m || !Array.isArray(graph)) return null;
  const mouse = Number(m[1]), cat = Number(m[2]), n = graph.length;
  const size = Math.min(900, Math.max(320, 60 * Math.sqrt(n) + 120));
  const place = ringLayout(graph, size);
  const r = Math.max(4, Math.min(18, size / (3 * Math.sqrt(n) + 4)));
  const board = canvas(size, size, `graph of ${n} nodes, ${answer.position}`);
  const mover = m[3] === "mouse" ? mouse : cat; // the mover's edges are drawn stronger
  for (let a = 0; a < n; a++) {
    for (const b of graph[a]) {
      if (a < b) board.append(svg("line", { x1: place[a][0], y1: place[a][1], x2: place[b][0], y2: place[b][1], class: a === mover || b === mover ? "edge live" : "edge" }));
    }
  }
  for (let v = 0; v < n; v++) {
    const [x, y] = place[v];
    board.append(svg("circle", { cx: x, cy: y, r, class: v === 0 ? "hole" : "node" }, svg("title", {}, v === 0 ? "node 0: the hole" : `node ${v}`)));
    if (n <= 80 && v !== mouse && v !== cat) {
      board.append(svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", "font-size": r, class: v === 0 ? "token-text" : "label" }, String(v)));
    }
  }
  for (const [label, value] of values) {
    const v = Number(label);
    if (!(v >= 0 && v < n)) continue;
    const [x, y] = place[v];
    board.append(moveTarget(label, value, svg("circle", { cx: x + r * 1.6, cy: y - r * 1.6, r: Math.max(r, 10) }), x + r * 1.6, y - r * 1.6, Math.max(9, r * 0.75)));
  }
  for (const [who, v] of [["mouse", mouse], ["cat", cat]]) {
    if (!(v >= 0 && v < n)) continue;
    const [x, y] = place[v];
    board.append(svg("circle", { cx: x, cy: y, r: r * 1.1, class: who }, svg("title", {}, `${who} at node ${v}`)));
    board.append(svg("text", { x, y, class: "token-text", "text-anchor": "middle", "dominant-baseline": "central", "font-size": r }, who[0].toUpperCase()));
  }
  return board;
}
