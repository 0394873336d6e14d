// Where the cat-and-mouse graph's nodes and edges go. Nodes: placed so their distances on the page
// follow their distances in the graph (stress majorization, started from rings around the hole), with
// the same layout every time. Edges: a straight line when it keeps
// clear of every node that is not one of its ends, otherwise a curve (or, failing that, a path found
// on a grid) routed around those nodes, so the picture never shows an edge that does not exist.

// node -> [x, y]
export function graphLayout(graph, size) {
  const n = graph.length, far = hops(graph);
  let place = ringStart(graph);
  const rounds = Math.max(20, Math.min(300, Math.floor(2e7 / (n * n)))); // fewer for large graphs: a second at most
  for (let round = 0; round < rounds; round++) {
    const next = place.map((p) => p.slice());
    for (let i = 0; i < n; i++) {
      let x = 0, y = 0, weights = 0;
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const d = far[i][j], w = 1 / (d * d), q = next[j];
        let dx = next[i][0] - q[0], dy = next[i][1] - q[1], length = Math.hypot(dx, dy);
        if (length < 1e-9) { dx = Math.cos(i + j); dy = Math.sin(i + j); length = 1; } // a nudge apart, the same every time
        x += w * (q[0] + (d * dx) / length);
        y += w * (q[1] + (d * dy) / length);
        weights += w;
      }
      if (weights) next[i] = [x / weights, y / weights];
    }
    place = next;
  }
  // fit the drawing into the square, centred
  const xs = place.map((p) => p[0]), ys = place.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = (size - 60) / Math.max(1e-9, x1 - x0, y1 - y0);
  return place.map(([x, y]) => [size / 2 + (x - (x0 + x1) / 2) * scale, size / 2 + (y - (y0 + y1) / 2) * scale]);
}

// every pair's distance in moves; a node out of reach counts as one further than the furthest reached
function hops(graph) {
  const n = graph.length;
  const far = graph.map((_, s) => {
    const d = new Array(n).fill(-1);
    d[s] = 0;
    for (let queue = [s], k = 0; k < queue.length; k++) for (const b of graph[queue[k]]) if (d[b] < 0) { d[b] = d[queue[k]] + 1; queue.push(b); }
    return d;
  });
  const longest = far.reduce((most, row) => row.reduce((m, d) => Math.max(m, d), most), 1);
  return far.map((row) => row.map((d) => (d < 0 ? longest + 1 : d)));
}

// rings by distance from node 0, each in its breadth-first order, alternate rings turned half a step
function ringStart(graph) {
  const n = graph.length, depth = new Array(n).fill(-1), place = new Array(n);
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
  place[0] = [0, 0];
  rings.forEach((nodes, k) => {
    if (k === 0) return;
    nodes.forEach((v, i) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * (i + 0.5 * (k % 2))) / nodes.length;
      place[v] = [k * Math.cos(angle), k * Math.sin(angle)];
    });
  });
  return place;
}

export function edgeList(graph) {
  const edges = [];
  graph.forEach((ends, a) => { for (const b of ends) if (a < b) edges.push([a, b]); });
  return edges;
}

// the node radius for a layout: a third of the nearest two nodes' distance, between 4 and 16
export function nodeRadius(place) {
  const placed = place.filter(Boolean);
  let nearest = Infinity;
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) nearest = Math.min(nearest, Math.hypot(placed[i][0] - placed[j][0], placed[i][1] - placed[j][1]));
  }
  return Math.max(4, Math.min(16, nearest / 3));
}

// how far an edge keeps from a node that is not its end: the radius, the edge's and the node's strokes, a margin
const clearanceFor = (place) => nodeRadius(place) + 4;

function segmentDistance(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1], length2 = dx * dx + dy * dy;
  const t = length2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

// true when the polyline keeps `clearance` from every node but the two ends (only nodes near its box are measured)
function polylineClear(points, place, a, b, clearance) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  for (let v = 0; v < place.length; v++) {
    if (v === a || v === b || !place[v]) continue;
    const [x, y] = place[v];
    if (x < x0 - clearance || x > x1 + clearance || y < y0 - clearance || y > y1 + clearance) continue;
    for (let i = 1; i < points.length; i++) if (segmentDistance(place[v], points[i - 1], points[i]) < clearance) return false;
  }
  return true;
}

const SAMPLES = 48;

function quadraticPoints(p, c, q) {
  const points = [];
  for (let i = 0; i <= SAMPLES; i++) {
    const t = i / SAMPLES, u = 1 - t;
    points.push([u * u * p[0] + 2 * u * t * c[0] + t * t * q[0], u * u * p[1] + 2 * u * t * c[1] + t * t * q[1]]);
  }
  return points;
}

const inside = (points, size, margin) => points.every(([x, y]) => x >= margin && y >= margin && x <= size - margin && y <= size - margin);

// edge -> {a, b, d}: the SVG path of every edge ("M x y L x y", "M x y Q cx cy x y" or a polyline)
export function routeEdges(graph, place, size) {
  const clearance = clearanceFor(place);
  return edgeList(graph).map(([a, b]) => ({ a, b, d: route(place, a, b, size, clearance) }));
}

function route(place, a, b, size, clearance) {
  const p = place[a], q = place[b];
  if (polylineClear([p, q], place, a, b, clearance)) return `M ${fmt(p)} L ${fmt(q)}`;
  // a bow to one side or the other, wider and wider; curves are checked with a little more room
  const mid = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2], length = Math.hypot(q[0] - p[0], q[1] - p[1]);
  const normal = [-(q[1] - p[1]) / length, (q[0] - p[0]) / length];
  const controls = [];
  for (const bow of [0.2, 0.35, 0.5, 0.7, 0.9, 1.2]) {
    for (const side of [1, -1]) controls.push([mid[0] + side * bow * length * normal[0], mid[1] + side * bow * length * normal[1]]);
  }
  const grid = 12;
  for (let i = 1; i < grid; i++) for (let j = 1; j < grid; j++) controls.push([(i * size) / grid, (j * size) / grid]);
  const byLength = (c) => Math.hypot(c[0] - p[0], c[1] - p[1]) + Math.hypot(c[0] - q[0], c[1] - q[1]);
  const rest = controls.splice(12).sort((x, y) => byLength(x) - byLength(y));
  for (const c of [...controls, ...rest]) {
    const points = quadraticPoints(p, c, q);
    if (inside(points, size, 2) && polylineClear(points, place, a, b, clearance + 1)) return `M ${fmt(p)} Q ${fmt(c)} ${fmt(q)}`;
  }
  const path = gridPath(place, a, b, size, clearance + 1);
  return path ? `M ${path.map(fmt).join(" L ")}` : `M ${fmt(p)} L ${fmt(q)}`;
}

const fmt = (point) => `${point[0].toFixed(1)} ${point[1].toFixed(1)}`;

// the shortest 8-connected path on a grid of cells clear of the other nodes, pulled taut
function gridPath(place, a, b, size, clearance) {
  const cell = Math.max(3, clearance / 3), cols = Math.ceil(size / cell);
  const centre = (k) => [((k % cols) + 0.5) * cell, (Math.floor(k / cols) + 0.5) * cell];
  const cellOf = (pt) => Math.min(cols - 1, Math.floor(pt[1] / cell)) * cols + Math.min(cols - 1, Math.floor(pt[0] / cell));
  const free = new Uint8Array(cols * cols).fill(1);
  for (let v = 0; v < place.length; v++) {
    if (v === a || v === b || !place[v]) continue;
    const reach = Math.ceil((clearance + cell) / cell), [cx, cy] = [Math.floor(place[v][0] / cell), Math.floor(place[v][1] / cell)];
    for (let y = Math.max(0, cy - reach); y <= Math.min(cols - 1, cy + reach); y++) {
      for (let x = Math.max(0, cx - reach); x <= Math.min(cols - 1, cx + reach); x++) {
        if (Math.hypot(place[v][0] - centre(y * cols + x)[0], place[v][1] - centre(y * cols + x)[1]) < clearance + cell) free[y * cols + x] = 0;
      }
    }
  }
  const start = cellOf(place[a]), goal = cellOf(place[b]);
  free[start] = free[goal] = 1;
  const dist = new Float64Array(cols * cols).fill(Infinity), from = new Int32Array(cols * cols).fill(-1);
  const [gx, gy] = [goal % cols, Math.floor(goal / cols)];
  const open = new Heap();
  dist[start] = 0;
  open.push(0, start);
  while (open.size) {
    const [estimate, k] = open.pop();
    const x = k % cols, y = Math.floor(k / cols);
    if (k === goal) break;
    if (estimate > dist[k] + Math.hypot(gx - x, gy - y) + 1e-9) continue; // a stale entry
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx, ny = y + dy, next = ny * cols + nx;
        if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= cols || ny >= cols || !free[next]) continue;
        const d = dist[k] + Math.hypot(dx, dy);
        if (d < dist[next]) {
          dist[next] = d;
          from[next] = k;
          open.push(d + Math.hypot(gx - nx, gy - ny), next);
        }
      }
    }
  }
  if (!Number.isFinite(dist[goal])) return null;
  const cells = [];
  for (let k = goal; k !== -1; k = from[k]) cells.push(k);
  const points = [place[b], ...cells.slice(1, -1).map(centre), place[a]].reverse();
  // pull taut: from each kept point, jump to the furthest point still in clear sight
  const taut = [points[0]];
  let i = 0;
  while (i < points.length - 1) {
    let j = points.length - 1;
    while (j > i + 1 && !polylineClear([points[i], points[j]], place, a, b, clearance)) j--;
    taut.push(points[j]);
    i = j;
  }
  return taut;
}

// a binary min-heap of [key, value] pairs
class Heap {
  constructor() { this.items = []; }
  get size() { return this.items.length; }
  push(key, value) {
    const items = this.items;
    items.push([key, value]);
    for (let i = items.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (items[up][0] <= items[i][0]) break;
      [items[up], items[i]] = [items[i], items[up]];
      i = up;
    }
  }
  pop() {
    const items = this.items, top = items[0], last = items.pop();
    if (items.length) {
      items[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < items.length && items[l][0] < items[m][0]) m = l;
        if (r < items.length && items[r][0] < items[m][0]) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i], items[m]];
        i = m;
      }
    }
    return top;
  }
}
