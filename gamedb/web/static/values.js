// Value conventions shared by the page's modules (the same as gamedb's: every value is for the player to move).

export const RESULTS = ["win", "lose", "tie", "draw"];
export const SYMBOL = { win: "W", lose: "L", tie: "T", draw: "D", hidden: "" };
// a move's stored value is for the opponent; this is what it means for the mover
export const FOR_MOVER = { win: "lose", lose: "win", tie: "tie", draw: "draw" };

export function valueText(result, remoteness) {
  if (result === "hidden") return "value hidden";
  return remoteness === null || remoteness === undefined ? result : `${result} in ${remoteness}`;
}

// "W3": the value's letter and its remoteness, so colour is never the only cue
export function shortValue(result, remoteness) {
  return SYMBOL[result] + (remoteness === null || remoteness === undefined ? "" : remoteness);
}

// label -> {result, remoteness, best, position}: every move's value for the player to move now
export function moveValues(answer) {
  const values = new Map();
  for (const m of answer.moves) {
    values.set(m.move, {
      result: FOR_MOVER[m.result],
      remoteness: m.remoteness === null ? null : m.remoteness + 1,
      best: m.move === answer.best_move,
      position: m.position,
    });
  }
  return values;
}

// the same moves with their values hidden (practice): nothing tells a move from another but its label
export function hiddenValues(values) {
  return new Map([...values].map(([label, value]) => [label, { result: "hidden", remoteness: null, best: false, position: value.position }]));
}

// labels in their natural order (numbers by value), so the order of a list does not give the best away
export function byLabel(a, b) {
  return a.localeCompare(b, "en", { numeric: true });
}

// the computer's move (perfect play): the quickest win, else a tie, else a draw, else the longest loss;
// among equals the first listed (the stored best first). Null when the game is over.
export function computerMove(answer) {
  const values = moveValues(answer);
  const rank = (v) => (v.result === "win" ? [3, -(v.remoteness ?? 0)] : v.result === "tie" ? [2, 0] : v.result === "draw" ? [1, 0] : [0, v.remoteness ?? 0]);
  let best = null;
  for (const m of answer.moves) {
    const r = rank(values.get(m.move));
    if (!best || r[0] > best.rank[0] || (r[0] === best.rank[0] && r[1] > best.rank[1])) best = { rank: r, move: m };
  }
  return best && best.move;
}

// the label of the move that leads from one answer's position to the next one's, when it is listed
export function moveBetween(before, after) {
  const move = before && after && before.moves.find((m) => m.position === after.position);
  return move ? move.move : null;
}

const SVG_NS = "http://www.w3.org/2000/svg";

// an SVG element: svg("circle", {cx: 1, class: "node"}, child, "text"...)
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return el;
}

export function canvas(width, height, label) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label });
}

// a clickable move on a board: carries data-move, its value's colour, letter and remoteness, and a title
// (star: false leaves the best move's star off its text, for small shapes: its outline still marks it)
export function moveTarget(label, value, shape, textX, textY, fontSize = 14, star = true) {
  const classes = ["move", `v-${value.result}`, value.result];
  if (value.best) classes.push("best");
  const text = shortValue(value.result, value.remoteness) + (value.best && star ? "\u2605" : "");
  const describe = `move ${label}: ${valueText(value.result, value.remoteness)}${value.best ? " (best)" : ""}`;
  shape.classList.add("target");
  return svg(
    "g",
    { class: classes.join(" "), "data-move": label, role: "button", tabindex: 0, "aria-label": describe },
    svg("title", {}, describe),
    shape,
    svg("text", { x: textX, y: textY, "text-anchor": "middle", "dominant-baseline": "central", "font-size": fontSize }, text),
  );
}
