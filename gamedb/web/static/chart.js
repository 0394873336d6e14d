// Charts as plain SVG: the value history of the line played, and the list's counts by value.

import { FOR_MOVER, RESULTS, SYMBOL, canvas, shortValue, svg, valueText } from "./values.js";

// The line's values seen by one player: the first player of the game, or, for impartial games
// (where positions do not say whose turn it is), the player to move at the line's first position.
function perspective(info, answers) {
  return answers.map((answer, ply) => {
    const mine = info.impartial ? ply % 2 === 0 : answer.player === info.players[0];
    return { result: mine ? answer.result : FOR_MOVER[answer.result], remoteness: answer.remoteness };
  });
}

// wins above the middle, losses below, ties and draws on it; the nearer the end, the further out
export function drawHistory(info, answers, current, onPick) {
  const width = 680, height = 250, top = 44, mid = (height + top) / 2 - 6, band = mid - top, left = 150;
  // the caption on the first line; a point's label (13px above it) stays below the caption even at the top
  const points = perspective(info, answers);
  const longest = Math.max(1, ...points.map((p) => p.remoteness ?? 0));
  const step = answers.length > 1 ? Math.min(48, (width - left - 20) / (answers.length - 1)) : 0;
  const who = info.impartial ? "mover at ply 0" : info.players[0];  // impartial: the player to move at the line's first position (next, in N/P terms)
  const chart = canvas(width, height, `value history of ${answers.length} positions, for ${who}`);
  chart.setAttribute("data-points", answers.length);
  chart.append(
    svg("text", { x: 4, y: top, class: "label" }, `${who} wins`),
    svg("text", { x: 4, y: mid, class: "label", "dominant-baseline": "central" }, "tie / draw"),
    svg("text", { x: 4, y: height - 6, class: "label" }, `${who} loses`),
    svg("line", { x1: left - 10, y1: mid, x2: width - 4, y2: mid, class: "axis" }),
  );
  const y = (p) => {
    if (p.result === "tie" || p.result === "draw") return mid;
    const out = band * (0.3 + 0.7 * (1 - (p.remoteness ?? 0) / (longest + 1)));
    return p.result === "win" ? mid - out : mid + out;
  };
  const xy = points.map((p, ply) => [left + ply * step, y(p)]);
  if (xy.length > 1) chart.append(svg("polyline", { points: xy.map((q) => q.join(",")).join(" "), class: "history-line" }));
  points.forEach((p, ply) => {
    const [x, py] = xy[ply];
    const said = `ply ${ply}: ${answers[ply].position}, ${valueText(p.result, p.remoteness)} for ${who}`;
    const point = svg(
      "g",
      { class: ply > current ? "later" : null, "data-ply": ply },
      svg("circle", { cx: x, cy: py, r: ply === current ? 9 : 7, class: `point v-${p.result}${ply === current ? " current" : ""}` }, svg("title", {}, said)),
      svg("text", { x, y: py - 13, class: "label point-label", "text-anchor": "middle" }, shortValue(p.result, p.remoteness)),
    );
    point.addEventListener("click", () => onPick(ply));
    chart.append(point);
  });
  chart.append(svg("text", { x: width - 4, y: 14, class: "label caption", "text-anchor": "end" }, `moves played: ${current} (click a point to go back to it)`));
  return chart;
}

// the list page's small bar chart of positions by value
export function drawResultBars(results) {
  const total = Math.max(1, ...RESULTS.map((r) => results[r] || 0));
  const w = 34, h = 46;
  const chart = canvas(RESULTS.length * w, h + 14, "positions by value");
  chart.classList.add("bars");
  RESULTS.forEach((result, i) => {
    const count = results[result] || 0;
    const bar = count ? Math.max(2, (h - 12) * (count / total)) : 0;
    chart.append(
      svg("rect", { x: i * w + 4, y: h - bar, width: w - 8, height: bar, class: `v-${result}` }, svg("title", {}, `${count.toLocaleString("en")} ${result}`)),
      svg("text", { x: i * w + w / 2, y: h - bar - 2, "text-anchor": "middle" }, compact(count)),
      svg("text", { x: i * w + w / 2, y: h + 11, "text-anchor": "middle" }, SYMBOL[result]),
    );
  });
  return chart;
}

function compact(count) {
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e4) return `${Math.round(count / 1e3)}k`;
  return String(count);
}
