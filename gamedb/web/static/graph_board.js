// Cat and mouse on a graph (LeetCode 913): the graph laid out by its distances, the same
// layout every time (graph_layout.js: no edge is drawn through a node that is not one of its ends);
// the two tokens; the mover's moves.

import { graphLayout, nodeRadius, routeEdges } from "./graph_layout.js";
import { canvas, moveTarget, svg } from "./values.js";

export function catMouseBoard(info, answer, values) {
  const graph = info.parameters.graph;
  const m = /^mouse=(\d+),cat=(\d+),turn=(mouse|cat)$/.exec(answer.position);
  if (!m || !Array.isArray(graph)) return null;
  const mouse = Number(m[1]), cat = Number(m[2]), n = graph.length;
  const size = Math.min(900, Math.max(320, 60 * Math.sqrt(n) + 120));
  const place = graphLayout(graph, size);
  const r = nodeRadius(place);
  const board = canvas(size, size, `graph of ${n} nodes, ${answer.position}`);
  const mover = m[3] === "mouse" ? mouse : cat; // the mover's edges are drawn stronger
  for (const { a, b, d } of routeEdges(graph, place, size)) {
    board.append(svg("path", { d, class: a === mover || b === mover ? "edge live" : "edge", "data-edge": `${a}-${b}` }));
  }
  for (let v = 0; v < n; v++) {
    const [x, y] = place[v];
    board.append(svg("circle", { cx: x, cy: y, r, class: v === 0 ? "hole" : "node", "data-node": v }, svg("title", {}, v === 0 ? "node 0: the hole" : `node ${v}`)));
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
