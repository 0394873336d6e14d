// One board drawing per built-in family, from the game's parameters and the position's text;
// every legal move is a clickable element with data-move="LABEL" (see values.js: moveTarget).
// A family without a drawing (graph, plugin games), or a text it cannot read, is shown as text.

import { canvas, moveTarget, shortValue, svg } from "./values.js";
import { catMouseBoard } from "./graph_board.js";

const HEAP_FAMILIES = ["nim", "subtraction", "octal", "grundy"];

// context.lastMove: the label of the move that led here, when known (it is highlighted)
export function drawBoard(info, answer, values, context = {}) {
  const draw = BOARDS[info.family] || (HEAP_FAMILIES.includes(info.family) ? heapsBoard : null);
  if (draw) {
    const board = draw(info, answer, values, context);
    if (board) return board;
  }
  return textBoard(answer);
}

function textBoard(answer) {
  const pre = document.createElement("pre");
  pre.className = "position-text";
  pre.textContent = answer.position;
  return pre;
}

// the runs of `length` equal stones in a grid (grid[column][row], missing = empty), in the four directions:
// each run as its cells [[column, row], ...]
function winningRuns(grid, columns, rows, length) {
  const runs = [];
  for (let c = 0; c < columns; c++) {
    for (let r = 0; r < rows; r++) {
      const stone = grid[c][r];
      if (!stone) continue;
      for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        const cells = Array.from({ length }, (_, k) => [c + k * dc, r + k * dr]);
        if (cells.every(([cc, rr]) => cc >= 0 && cc < columns && rr >= 0 && rr < rows && grid[cc][rr] === stone)) runs.push(cells);
      }
    }
  }
  return runs;
}

function winLine(from, to, cells) {
  return svg("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "win-line", "data-cells": cells });
}

// --- tic-tac-toe: nine cells, moves are the cell numbers 1-9 ------------------------------------
function tictactoeBoard(info, answer, values, context) {
  const cells = answer.position;
  if (cells.length !== 9) return null;
  const s = 80;
  const board = canvas(3 * s + 4, 3 * s + 4, `tic-tac-toe board ${cells}`);
  const centre = (i) => [2 + (i % 3) * s + s / 2, 2 + Math.floor(i / 3) * s + s / 2];
  for (let i = 0; i < 9; i++) {
    const x = 2 + (i % 3) * s, y = 2 + Math.floor(i / 3) * s;
    const last = context.lastMove === String(i + 1);
    board.append(svg("rect", { x, y, width: s, height: s, class: last ? "cell last-move" : "cell", "data-cell": i + 1 }, last ? svg("title", {}, `last move: ${i + 1}`) : null));
    const mark = cells[i].toUpperCase();
    const value = values.get(String(i + 1));
    if (mark === "X" || mark === "O") {
      board.append(svg("text", { x: x + s / 2, y: y + s / 2, class: "mark", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 48 }, mark));
    } else if (value) {
      const shape = svg("rect", { x: x + 8, y: y + 8, width: s - 16, height: s - 16, rx: 8 });
      board.append(moveTarget(String(i + 1), value, shape, x + s / 2, y + s / 2, 18));
    }
  }
  const grid = [0, 1, 2].map((c) => [0, 1, 2].map((r) => /[XO]/.test(cells[r * 3 + c].toUpperCase()) ? cells[r * 3 + c].toUpperCase() : null));
  for (const run of winningRuns(grid, 3, 3, 3)) {
    const index = run.map(([c, r]) => r * 3 + c);
    board.append(winLine(centre(index[0]), centre(index[2]), index.map((i) => i + 1).join(",")));
  }
  return board;
}

// --- Connect-Four: the moves as column numbers replayed with gravity --------------------------------
function connect4Board(info, answer, values, context) {
  const { width, height } = info.parameters;
  const connect = info.parameters.connect || 4;
  const text = answer.position.trim();
  const tokens = text === "-" ? [] : width <= 9 ? [...text] : text.split(",");
  const grid = Array.from({ length: width }, () => []);
  for (let i = 0; i < tokens.length; i++) {
    const column = Number(tokens[i]) - 1;
    if (!(column >= 0 && column < width) || grid[column].length >= height) return null;
    grid[column].push(i % 2 === 0 ? "X" : "O");
  }
  const s = 56, top = 64;
  const board = canvas(width * s + 8, top + height * s + 8, `Connect-Four board after ${text}`);
  board.append(svg("rect", { x: 0, y: top - 4, width: width * s + 8, height: height * s + 12, rx: 8, class: "frame" }));
  const at = (c, r) => [4 + c * s + s / 2, top + (height - 1 - r) * s + s / 2];
  const lastColumn = Number(context.lastMove) - 1;
  for (let c = 0; c < width; c++) {
    const x = 4 + c * s + s / 2;
    for (let r = 0; r < height; r++) {
      const y = top + (height - 1 - r) * s + s / 2;
      const stone = grid[c][r];
      const kind = stone === "X" ? "x-stone" : stone === "O" ? "o-stone" : "empty-slot";
      const last = stone && c === lastColumn && r === grid[c].length - 1;
      board.append(svg("circle", { cx: x, cy: y, r: s / 2 - 5, class: last ? `${kind} last-move` : kind, "data-cell": `${c + 1},${r + 1}` }, svg("title", {}, stone ? `${stone} stone${last ? " (last move)" : ""}` : "empty")));
      if (stone) board.append(svg("text", { x, y, class: `token-text ${kind}-text`, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 16 }, stone));
    }
    const label = String(c + 1);
    const value = values.get(label);
    if (value) {
      board.append(moveTarget(label, value, svg("circle", { cx: x, cy: top / 2 - 4, r: s / 2 - 4 }), x, top / 2 - 4, 14));
    } else {
      board.append(svg("text", { x, y: top / 2 - 4, class: "label", "text-anchor": "middle", "dominant-baseline": "central" }, label));
    }
  }
  for (const run of winningRuns(grid, width, height, connect)) {
    board.append(winLine(at(...run[0]), at(...run[run.length - 1]), run.map(([c, r]) => `${c + 1},${r + 1}`).join(" ")));
  }
  return board;
}

// --- cat and mouse on a grid (LeetCode 1728): walls, food, the two tokens ------------------------------
function parseCells(text) {
  const found = {};
  for (const m of text.matchAll(/(mouse|cat)=r(\d+)c(\d+)/g)) found[m[1]] = [Number(m[2]), Number(m[3])];
  const turn = /turn=(mouse|cat)/.exec(text);
  return found.mouse && found.cat && turn ? { ...found, turn: turn[1] } : null;
}

function catMouseGridBoard(info, answer, values) {
  const grid = info.parameters.grid;
  const here = parseCells(answer.position);
  if (!here || !Array.isArray(grid)) return null;
  const rows = grid.length, cols = grid[0].length, s = Math.max(28, Math.min(64, Math.floor(480 / Math.max(rows, cols))));
  const board = canvas(cols * s + 4, rows * s + 4, `grid, ${answer.position}`);
  const targets = new Map(); // "r,c" -> [label, value]
  for (const [label, value] of values) {
    const next = parseCells(value.position);
    if (next) targets.set(String(next[here.turn]), [label, value]);
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = 2 + c * s, y = 2 + r * s, ch = grid[r][c];
      board.append(svg("rect", { x, y, width: s, height: s, class: ch === "#" ? "wall" : ch === "F" ? "food" : "cell" }));
      if (ch === "F") board.append(svg("text", { x: x + s / 2, y: y + s / 4, class: "label", "text-anchor": "middle", "dominant-baseline": "central" }, "food"));
      const target = targets.get(String([r, c]));
      if (target) {
        const shape = svg("rect", { x: x + 3, y: y + 3, width: s - 6, height: s - 6, rx: 5 });
        board.append(moveTarget(target[0], target[1], shape, x + s / 2, y + s - 11, Math.min(13, s / 3)));
      }
    }
  }
  for (const who of ["mouse", "cat"]) {
    const [r, c] = here[who];
    const x = 2 + c * s + s / 2, y = 2 + r * s + s / 2 - (targets.has(String([r, c])) ? s / 6 : 0);
    board.append(svg("circle", { cx: x, cy: y, r: s / 4, class: who }, svg("title", {}, `${who} at r${r}c${c}`)));
    board.append(svg("text", { x, y, class: "token-text", "text-anchor": "middle", "dominant-baseline": "central", "font-size": s / 4 }, who[0].toUpperCase()));
  }
  return board;
}

// --- the flip game: the +/- string; move I flips cells I and I+1 -------------------------------------
function flipBoard(info, answer, values) {
  const text = answer.position;
  if (!/^[+-]+$/.test(text) || text.length > 200) return null;
  const s = Math.max(16, Math.min(40, Math.floor(800 / text.length)));
  const board = canvas(text.length * s + 4, s + 2 * (s + 8) + 8, `flip position ${text}`);
  [...text].forEach((ch, i) => {
    const x = 2 + i * s;
    board.append(svg("rect", { x, y: 2, width: s - 2, height: s, rx: 3, class: ch === "+" ? "plus" : "minus" }));
    board.append(svg("text", { x: x + s / 2 - 1, y: 2 + s / 2, class: "token-text", "text-anchor": "middle", "dominant-baseline": "central", "font-size": s * 0.6 }, ch === "+" ? "+" : "\u2212"));
  });
  for (const [label, value] of values) {
    const i = Number(label);
    const x = 2 + i * s, y = s + 8 + (i % 2) * (s + 4);
    const shape = svg("rect", { x, y, width: 2 * s - 2, height: s, rx: 4 });
    board.append(moveTarget(label, value, shape, x + s, y + s / 2, Math.min(13, s / 2)));
  }
  return board;
}

// --- heaps (nim, subtraction, octal, grundy): one row of tokens per heap ------------------------------
// a move's label is "HEAP:REST", REST what the move leaves of that heap ("4", or "1+4" when it splits it).
// A token is clickable when a move leaves its heap with as many tokens as lie before it; every other
// move of the heap (splits, heaps longer than the row) is a chip under the row, so every move is marked.
const MAX_TOKENS = 30;
const CHAR = 7.2; // a generous width of a 12px label character, for laying out text before it is drawn

function heapsBoard(info, answer, values) {
  const heaps = answer.position.trim() === "0" ? [] : answer.position.trim().split(/\s+/).map(Number);
  if (heaps.some((n) => !Number.isInteger(n) || n < 0) || heaps.length > 60) return null;
  const s = 26, widest = Math.min(MAX_TOKENS, Math.max(1, ...heaps));
  const labels = heaps.map((n, h) => `heap ${h + 1}: ${n}`);
  const left = 12 + CHAR * Math.max(0, ...labels.map((t) => t.length));
  const width = Math.max(360, left + widest * s + 12 + CHAR * 12);
  const chipsOf = new Map(heaps.map((_, h) => [h, []]));
  const others = [];
  for (const [label, value] of values) {
    const m = /^(\d+):(.+)$/.exec(label);
    const h = m ? Number(m[1]) - 1 : -1;
    if (!(h >= 0 && h < heaps.length)) { others.push([label, value]); continue; }
    const j = /^\d+$/.test(m[2]) ? Number(m[2]) : -1;
    if (!(j >= 0 && j < Math.min(heaps[h], MAX_TOKENS))) chipsOf.get(h).push([label, value, m[2]]);
  }
  const parts = [];
  let y = 8;
  const chipRows = (chips, y0) => { // lays chips out in rows from x = left; returns the y below them
    let x = left, y = y0;
    for (const [label, value, text] of chips) {
      const w = Math.max(44, 8.4 * (text.length + 2 + shortValue(value.result, value.remoteness).length + (value.best ? 1 : 0)) + 12);
      if (x + w > width - 6 && x > left) { x = left; y += 26; }
      const target = moveTarget(label, value, svg("rect", { x, y, width: w, height: 22, rx: 4 }), x + w / 2, y + 11, 11);
      const said = target.querySelector("text");
      said.textContent = `\u2192 ${text}${said.textContent ? ` ${said.textContent}` : ""}`;
      target.classList.add("chip");
      parts.push(target);
      x += w + 4;
    }
    return chips.length ? y + 26 : y0;
  };
  if (!heaps.length) parts.push(svg("text", { x: 10, y: 20, class: "label" }, "no heaps left"));
  heaps.forEach((n, h) => {
    parts.push(svg("text", { x: 6, y: y + s / 2, class: "label heap-label", "dominant-baseline": "central", "data-heap": h + 1 }, labels[h]));
    for (let j = 0; j < Math.min(n, MAX_TOKENS); j++) {
      const x = left + j * s;
      const label = `${h + 1}:${j}`;
      const value = values.get(label);
      if (value) {
        const size = Math.min(8.5, (s - 6) / (0.62 * shortValue(value.result, value.remoteness).length || 1));
        parts.push(moveTarget(label, value, svg("rect", { x, y, width: s - 2, height: s, rx: 4 }), x + s / 2 - 1, y + s / 2, size, false));
      }
      else parts.push(svg("circle", { cx: x + s / 2 - 1, cy: y + s / 2, r: s / 2 - 3, class: "heap-token", "data-heap": h + 1 }));
    }
    if (n > MAX_TOKENS) parts.push(svg("text", { x: left + MAX_TOKENS * s + 6, y: y + s / 2, class: "label", "dominant-baseline": "central" }, `\u2026 ${n - MAX_TOKENS} more`));
    y = chipRows(chipsOf.get(h), y + s + 6) + 4;
  });
  y = chipRows(others.map(([label, value]) => [label, value, label]), y);
  const board = canvas(width, Math.max(y + 6, 40), `heaps ${answer.position}`);
  board.append(...parts);
  return board;
}

// --- stone game IX: three piles by residue mod 3, the removed sum and whose turn ---------------------------
function stoneIxBoard(info, answer, values) {
  const m = /^c0=(\d+),c1=(\d+),c2=(\d+),sum=(\d),turn=(alice|bob)(,over)?$/i.exec(answer.position);
  if (!m) return null;
  const counts = [Number(m[1]), Number(m[2]), Number(m[3])];
  const s = 14, shown = 20, w = 180, h = (Math.min(Math.max(...counts), shown) / 2) * (s / 2 + 4) + 90;
  const board = canvas(3 * w + 20, h, `stone game IX: ${answer.position}`);
  counts.forEach((count, residue) => {
    const middle = 10 + residue * w + w / 2; // each pile, its label and its move centred in its column
    for (let k = 0; k < Math.min(count, shown); k++) {
      const cx = middle - (s + 2) / 2 + (k % 2) * (s + 2), cy = h - 60 - Math.floor(k / 2) * (s / 2 + 4);
      board.append(svg("circle", { cx, cy, r: s / 2, class: "stone" }));
    }
    if (count > shown) board.append(svg("text", { x: middle + s + 6, y: h - 60, class: "label" }, `+${count - shown}`));
    board.append(svg("text", { x: middle, y: h - 36, class: "label pile-label", "text-anchor": "middle" }, `value \u2261 ${residue} (mod 3): ${count}`));
    const value = values.get(String(residue));
    if (value) {
      const shape = svg("rect", { x: middle - 40, y: h - 28, width: 80, height: 24, rx: 5 });
      board.append(moveTarget(String(residue), value, shape, middle, h - 16, 12));
    }
  });
  board.append(svg("text", { x: 10, y: 18, class: "label" }, `removed so far: sum \u2261 ${m[4]} (mod 3)${m[6] ? ", the last removal lost" : ""}`));
  return board;
}

// --- Dōbutsu shōgi: the 3x4 board (row 1 on top, the second player's pieces upside down), hands, moves as chips ---
function dobutsuBoard(info, answer, values, context) {
  const m = /^([.LGECHlgech]{3})\/([.LGECHlgech]{3})\/([.LGECHlgech]{3})\/([.LGECHlgech]{3}) (\S+) (first|second)$/.exec(answer.position.trim());
  if (!m) return null;
  const s = 64, left = 24, top = 24, chip = 96, perRow = 5, moves = [...values];
  const below = top + 4 * s + 30;
  const board = canvas(perRow * (chip + 4) + 8, below + 8 + Math.ceil(moves.length / perRow) * 26, `Dōbutsu shōgi ${answer.position}`);
  const last = context.lastMove ? context.lastMove.slice(-2) : null;
  for (let r = 0; r < 4; r++) {
    board.append(svg("text", { x: 8, y: top + r * s + s / 2, class: "label", "dominant-baseline": "central" }, String(r + 1)));
    for (let c = 0; c < 3; c++) {
      const x = left + c * s, y = top + r * s, piece = m[r + 1][c], square = "abc"[c] + (r + 1);
      if (!r) board.append(svg("text", { x: x + s / 2, y: 16, class: "label", "text-anchor": "middle" }, "abc"[c]));
      board.append(svg("rect", { x, y, width: s, height: s, class: square === last ? "cell last-move" : "cell", "data-square": square }));
      if (piece === ".") continue;
      const turned = piece === piece.toLowerCase() ? `rotate(180 ${x + s / 2} ${y + s / 2})` : null;
      board.append(svg("text", { x: x + s / 2, y: y + s / 2, class: "mark", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 32, transform: turned }, piece.toUpperCase()));
    }
  }
  board.append(svg("text", { x: 8, y: top + 4 * s + 18, class: "label" }, `hands: ${m[5]}, ${m[6]} to move`));
  moves.forEach(([label, value], k) => {
    const x = 4 + (k % perRow) * (chip + 4), y = below + Math.floor(k / perRow) * 26;
    const target = moveTarget(label, value, svg("rect", { x, y, width: chip, height: 22, rx: 4 }), x + chip / 2, y + 11, 11);
    const said = target.querySelector("text");
    said.textContent = `${label} ${said.textContent}`;
    target.classList.add("chip");
    board.append(target);
  });
  return board;
}

const BOARDS = {
  tictactoe: tictactoeBoard,
  connect4: connect4Board,
  "cat-mouse": catMouseBoard,
  "cat-mouse-grid": catMouseGridBoard,
  flip: flipBoard,
  "stone-ix": stoneIxBoard,
  dobutsu: dobutsuBoard,
};
