// The explorer page: the list of games, and a game's position with its board, its moves by value,
// undo/redo, the moves played and the value history; play against perfect play (choose a side, the
// computer answers) with the values shown or hidden. The URL holds the game and the position
// (?game=NAME&position=TEXT), so a link can be shared and back/forward walk through the positions seen.

import { drawBoard } from "./boards.js";
import { drawHistory, drawResultBars } from "./chart.js";
import { FOR_MOVER, byLabel, computerMove, hiddenValues, moveBetween, moveValues, shortValue, valueText } from "./values.js";

const $ = (id) => document.getElementById(id);
// side: the player the user plays against the computer (0 or 1), null to explore both sides
const view = { game: null, info: null, line: [], index: 0, side: null, showValues: true };
const COMPUTER_DELAY_MS = 350; // the computer's answer waits a moment, so its move can be seen
const answers = new Map(); // "game\nposition" -> the API's answer
let generation = 0; // a newer navigation makes an older one's late answers moot

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError((body && body.error) || `HTTP ${response.status}`, response.status);
  return body;
}

// "1 move", "2 moves": a count and its noun, singular for 1 (as gamedb/plural.py words the CLI's counts)
const counted = (count, noun) => `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;
const gamePath = (name) => `/api/games/${encodeURIComponent(name)}`;

async function answerFor(game, position) {
  const key = `${game}\n${position}`;
  if (!answers.has(key)) {
    const query = position === null ? "" : `?position=${encodeURIComponent(position)}`;
    const answer = await api(`${gamePath(game)}/positions${query}`);
    answers.set(key, answer);
    answers.set(`${game}\n${answer.position}`, answer);
  }
  return answers.get(key);
}

function urlFor(game, position) {
  if (!game) return "/";
  const query = new URLSearchParams({ game });
  if (position !== null && position !== undefined) query.set("position", position);
  return `/?${query}`;
}

function remember(push) {
  const state = { game: view.game, line: view.line, index: view.index };
  const url = urlFor(view.game, view.line[view.index]);
  if (push) history.pushState(state, "", url);
  else history.replaceState(state, "", url);
}

function showError(message) {
  $("error").textContent = message ? `Error: ${message}` : "";
  $("error").hidden = !message;
}

async function busy(work) {
  document.body.dataset.busy = "1";
  try {
    await work();
  } finally {
    document.body.dataset.busy = "0";
  }
}

// --- the list -------------------------------------------------------------------------
async function showList() {
  $("game-view").hidden = true;
  $("list-view").hidden = false;
  document.title = "gamedb";
  const games = await api("/api/games");
  const body = $("games").querySelector("tbody");
  body.replaceChildren();
  for (const game of games) {
    const row = body.insertRow();
    const name = row.insertCell();
    if (game.status === "solved") {
      const link = document.createElement("a");
      link.href = urlFor(game.name, null);
      link.dataset.game = game.name;
      link.textContent = game.name;
      name.append(link);
    } else {
      name.textContent = `${game.name} (unfinished: ${game.status})`;
    }
    row.insertCell().textContent = game.family;
    const count = row.insertCell();
    count.className = "num";
    count.textContent = game.positions === null ? "-" : game.positions.toLocaleString("en");
    const bars = row.insertCell();
    if (game.results) bars.append(drawResultBars(game.results));
    // the position the game opens at, as `gamedb play` (a heap game's stored start, one heap of --max, is what
    // `gamedb list` and `stats` show: said in the cell's title)
    const start = row.insertCell();
    const v = game.play_start_value;
    if (v && v.result) {
      const badge = document.createElement("span");
      badge.className = `swatch v-${v.result}`;
      badge.textContent = shortValue(v.result, null);
      start.append(badge, ` ${valueText(v.result, v.remoteness)} `);
      start.append(shortCode(game.play_start));
      if (game.play_start !== game.start && game.start_value) {
        const stored = game.start_value;
        start.title = `where the game opens, as gamedb play; the stored start (gamedb list, stats) is ${game.start}: ${valueText(stored.result, stored.remoteness)}`;
      }
    }
  }
  $("no-games").hidden = games.length > 0;
}

// a position's text in a <code>, cut to its first characters (the whole text in its title) when long
const SHORT = 40;
function shortCode(text) {
  const code = document.createElement("code");
  code.className = "position";
  if (text.length > SHORT) {
    code.textContent = `${text.slice(0, SHORT - 1)}\u2026`;
    code.title = text;
  } else {
    code.textContent = text;
  }
  return code;
}

// --- a game ------------------------------------------------------------------------------
async function showGame(game, line, index) {
  const mine = ++generation;
  $("list-view").hidden = true;
  $("game-view").hidden = false;
  showError("");
  if (view.game !== game || !view.info) {
    view.info = null;
    $("game-title").textContent = game;
    $("game-summary").textContent = $("syntax").textContent = "";
    clearPosition();
    view.game = game;
    try {
      view.info = await api(gamePath(game));
    } catch (error) {
      if (mine === generation) {
        failed(error);
        $("game-body").hidden = true; // no such game here: the message and the way back, nothing else
        $("not-found").hidden = false;
        document.title = "no such game - gamedb";
      }
      return;
    }
    $("game-body").hidden = false;
    $("not-found").hidden = true;
    if (view.info.rules_missing) {  // a plugin's game whose rules are not available here: its stored rows, as text
      $("game-summary").textContent = `${view.info.family}: answered from the stored rows (${view.info.rules_missing})`;
      $("syntax").textContent = "";
    } else {
      $("game-summary").textContent = `${view.info.family}: ${view.info.summary}`;
      $("syntax").textContent = `Position text: ${view.info.position_syntax}`;
    }
    chooseSides();
  }
  document.title = `${game} - gamedb`;
  let loaded;
  try {
    // no position (a link to the game, Start): where play starts, as `gamedb play` does (a heap game's stored start is
    // one heap of --max, the end of its solved range); the stored start when the rules are not available here
    loaded = await Promise.all(line.map((position) => answerFor(game, position ?? view.info.play_start ?? null)));
  } catch (error) {
    if (mine === generation) {
      failed(error);
      // a link's position that has no answer: its text in the box, to correct and Go
      if (line.length === 1 && typeof line[0] === "string") $("position-input").value = line[0];
    }
    return;
  }
  if (mine !== generation) return;
  view.line = loaded.map((answer) => answer.position);
  view.index = Math.min(index, loaded.length - 1);
  remember(false); // the canonical text of every position (the start's too) in the URL
  render(loaded);
}

function failed(error) {
  if (!(error instanceof ApiError)) throw error;
  showError(error.message);
  clearPosition();
}

// no position to show (loading a game, or its position has no answer): no board, moves or chart, empty or stale
function clearPosition() {
  $("play-area").hidden = $("history").hidden = true;
  $("board").replaceChildren();
  $("status").textContent = "";
  $("play-status").hidden = true;
  $("played").replaceChildren();
  $("position-text").textContent = "";
  $("moves").querySelector("tbody").replaceChildren();
  $("moves-note").hidden = true;
  $("history-chart").replaceChildren();
  $("undo").disabled = $("redo").disabled = true;
}

function render(loaded) {
  const focused = focusedPlace();
  const answer = loaded[view.index];
  const shown = view.showValues;
  $("play-area").hidden = false;
  const values = shown ? moveValues(answer) : hiddenValues(moveValues(answer));
  const winner = answer.winner ? ` (${answer.winner} wins)` : "";
  const grundy = answer.grundy !== undefined && answer.grundy !== null ? `, grundy ${answer.grundy}` : "";
  const over = gameOver(answer) || repeatedAt(view.index) !== null ? " Game over." : "";
  const best = !answer.moves.length && answer.best_move !== null && shown && !over ? ` Best move: ${answer.best_move}.` : "";
  const limit = answer.turn_limit ? ` Within ${answer.turn_limit} turns the mouse ${answer.mouse_wins_within_limit ? "wins" : "does not win"}.` : "";
  $("status").textContent = shown
    ? `${answer.player} to move: ${valueText(answer.result, answer.remoteness)}${winner}${grundy}.${over}${best}${limit}`
    : `${answer.player} to move.${over}`;
  $("position-text").textContent = answer.position;
  $("position-input").value = answer.position;
  const lastMove = view.index > 0 ? moveBetween(loaded[view.index - 1], answer) : null;
  $("board").replaceChildren(drawBoard(view.info, answer, values, { lastMove }));
  $("board").classList.toggle("waiting", computerToMove(answer) || repeatedAt(view.index) !== null);
  showPlayed(loaded);
  showPlayStatus(answer);
  const body = $("moves").querySelector("tbody");
  body.replaceChildren();
  const listed = shown ? answer.moves : [...answer.moves].sort((a, b) => byLabel(a.move, b.move));
  for (const m of listed) {
    const value = values.get(m.move);
    const row = body.insertRow();
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = m.move;
    button.className = `v-${value.result}${value.best ? " best" : ""}`;
    button.textContent = m.move;
    button.title = `play ${m.move}: ${valueText(value.result, value.remoteness)}`;
    button.disabled = computerToMove(answer) || repeatedAt(view.index) !== null;
    row.insertCell().append(button);
    row.insertCell().textContent = shown ? `${shortValue(value.result, value.remoteness)} ${valueText(value.result, value.remoteness)}` : "";
    row.insertCell().textContent = value.best ? "\u2605 best" : "";
    const to = shortCode(m.position);
    row.insertCell().append("\u2192 ", to);
  }
  $("moves").hidden = answer.moves.length === 0;
  $("moves").querySelector("caption").textContent = shown ? "Moves, best first; value for the player to move" : "Moves (values hidden)";
  const note = $("moves-note");
  note.hidden = answer.moves_complete !== false;
  const rows = `the file keeps no move rows for this game${answer.rules_missing ? " and its rules are not available here" : ""}`;
  note.textContent = `${counted(answer.degree, "move")} in all; ${answer.moves.length ? "only the best is listed" : `none can be listed: ${rows}`}.`;
  $("undo").disabled = userPly(view.index, -1, loaded) === null;
  $("redo").disabled = view.index >= view.line.length - 1;
  for (const part of document.querySelectorAll(".values-only")) part.hidden = !shown;
  const chart = drawHistory(view.info, loaded, view.index, (ply) => go(ply));
  $("history-chart").replaceChildren(chart);
  keepFocus(focused);
}

// A move played, or undo/redo, redraws or disables the element that had the keyboard's focus: the focus
// goes to the like of it (the first move of the same board or list, the other of undo/redo), else to the
// status line, so that keyboard users go on from where they were rather than from the top of the page.
function focusedPlace() {
  const element = document.activeElement;
  return { element, region: ["board", "moves", "played"].find((id) => $(id).contains(element)) };
}

function keepFocus({ element, region }) {
  if (!element || element === document.body || (document.contains(element) && !element.disabled)) return;
  const other = { undo: "redo", redo: "undo" }[element.id];
  const next = other ? $(other) : region ? $(region).querySelector("[data-move]:not([disabled]), button:not([disabled])") : null;
  (next && !next.disabled ? next : $("status")).focus();
}

// the moves of the line in the order played (a position's text may put them in another order)
function showPlayed(loaded) {
  const list = $("played");
  list.replaceChildren();
  for (let ply = 1; ply < loaded.length; ply++) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = ply;
    button.textContent = moveBetween(loaded[ply - 1], loaded[ply]) ?? "?";
    button.title = `go to the position after move ${ply}: ${loaded[ply].position}`;
    if (ply === view.index) item.setAttribute("aria-current", "step");
    if (ply > view.index) item.className = "later";
    item.append(button);
    list.append(item);
  }
  $("no-moves-played").hidden = loaded.length > 1;
}

// --- playing against the computer ----------------------------------------------------------------
// the player to move at ply `ply` of the line: by name, or for impartial games (positions do not say
// whose turn it is) by the ply's parity, the line's first position being the first player's
function playerAt(answer, ply) {
  return view.info.impartial ? ply % 2 : view.info.players.indexOf(answer.player);
}

// no move: the game is over, unless the file keeps no move rows for a position that has some (moves_complete false)
function gameOver(answer) {
  return answer.moves.length === 0 && answer.moves_complete !== false;
}

function computerToMove(answer) {
  return view.side !== null && answer.moves.length > 0 && view.index === view.line.length - 1 && playerAt(answer, view.index) !== view.side
    && repeatedAt(view.index) === null;
}

// playing against the computer, a position reached before in the line ends the game as a draw by repetition
// (the rule of the loopy families, cat and mouse and Dobutsu): the earlier ply it was reached at, else null.
// An impartial position does not say who is to move: it repeats at a ply of the same parity only.
function repeatedAt(ply) {
  if (view.side === null || !view.info) return null;
  const step = view.info.impartial ? 2 : 1;
  for (let earlier = ply - step; earlier >= 0; earlier -= step) if (view.line[earlier] === view.line[ply]) return earlier;
  return null;
}

function chooseSides() {
  const select = $("side");
  const names = view.info.impartial ? ["the first player", "the second player"] : view.info.players;
  select.replaceChildren(new Option("both sides (explore)", ""), ...names.map((name, k) => new Option(name, String(k))));
  view.side = null;
}

function showPlayStatus(answer) {
  const status = $("play-status");
  status.hidden = view.side === null;
  if (status.hidden) return;
  const mine = playerAt(answer, view.index) === view.side;
  const repeated = repeatedAt(view.index);
  if (repeated !== null) {
    const when = repeated === 0 ? "at the start" : `after move ${repeated}`;
    status.textContent = `Game over: a draw by repetition (${answer.position} was reached ${when} too).`;
    status.dataset.outcome = "draw";
  } else if (!gameOver(answer) && !answer.moves.length) {
    status.textContent = "No move can be played from here: the file does not list them.";
    delete status.dataset.outcome;
  } else if (gameOver(answer)) {
    const result = mine ? answer.result : FOR_MOVER[answer.result];
    const said = { win: "you win", lose: "the computer wins", tie: "a tie", draw: "a draw" }[result];
    status.textContent = `Game over: ${said}.`;
    status.dataset.outcome = result;
  } else {
    status.textContent = computerToMove(answer) ? "The computer is choosing its move\u2026" : mine ? "Your move." : "The computer's turn here: Redo shows its move.";
    delete status.dataset.outcome;
  }
}

// the ply to undo or redo to: the nearest one where the user is to move (any ply when exploring)
function userPly(from, step, loaded) {
  for (let ply = from + step; ply >= 0 && ply < view.line.length; ply += step) {
    const answer = loaded ? loaded[ply] : answers.get(`${view.game}\n${view.line[ply]}`);
    if (view.side === null || !answer || playerAt(answer, ply) === view.side) return ply;
  }
  return null;
}

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

// while the computer is to move at the end of the line: wait a moment, play its move, show it
async function computerTurns() {
  for (;;) {
    const mine = generation;
    const answer = answers.get(`${view.game}\n${view.line[view.index]}`);
    if (!answer || !view.info || !computerToMove(answer)) return;
    await pause(COMPUTER_DELAY_MS);
    if (mine !== generation) return; // the user went elsewhere meanwhile
    const move = computerMove(answer);
    view.line = [...view.line.slice(0, view.index + 1), move.position];
    view.index += 1;
    remember(true);
    await showGame(view.game, view.line, view.index);
  }
}

function navigate(line, index) {
  view.line = line;
  view.index = index;
  remember(true);
  return busy(async () => {
    await showGame(view.game, view.line, view.index);
    await computerTurns();
  });
}

function play(label) {
  const answer = answers.get(`${view.game}\n${view.line[view.index]}`);
  const move = answer && answer.moves.find((m) => m.move === label);
  if (!move || computerToMove(answer) || repeatedAt(view.index) !== null) return;
  navigate([...view.line.slice(0, view.index + 1), move.position], view.index + 1);
}

function go(index) {
  if (index >= 0 && index < view.line.length && index !== view.index) navigate(view.line, index);
}

async function typedPosition(event) {
  event.preventDefault();
  const text = $("position-input").value.trim();
  if (!view.info) return;
  if (!text) return navigate([null], 0); // nothing typed: the start, as the Start button (and a link's empty position=)
  await busy(async () => {
    try {
      const answer = await answerFor(view.game, text);
      showError("");
      await navigate([answer.position], 0);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showError(error.message);
    }
  });
}

function route() {
  const params = new URLSearchParams(location.search);
  const game = params.get("game");
  const saved = history.state;
  return busy(async () => {
    if (!game) {
      view.game = null;
      return showList();
    }
    if (saved && saved.game === game && Array.isArray(saved.line) && saved.line.length) {
      return showGame(game, saved.line, saved.index);
    }
    const position = params.get("position"); // an empty or blank position= (a form's empty box): the start
    return showGame(game, [position && position.trim() ? position : null], 0);
  });
}

function onBoardClick(event) {
  const target = event.target.closest("[data-move]");
  if (target) play(target.dataset.move);
}

function onBoardKey(event) {
  if (event.key !== "Enter" && event.key !== " ") return;
  const target = event.target.closest("[data-move]");
  if (target) {
    event.preventDefault();
    play(target.dataset.move);
  }
}

// a plain click on a link of the page's own opens it in place; with Ctrl, Cmd, Shift or Alt the browser
// does what it does with any link (a new tab, a new window, a download)
function inPage(event, url) {
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
  event.preventDefault();
  history.pushState(null, "", url);
  route();
}

function start() {
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("keydown", onBoardKey);
  $("moves").addEventListener("click", onBoardClick);
  $("undo").addEventListener("click", () => go(userPly(view.index, -1) ?? view.index));
  $("redo").addEventListener("click", () => go(userPly(view.index, 1) ?? view.line.length - 1));
  $("played").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-ply]");
    if (button) go(Number(button.dataset.ply));
  });
  $("side").addEventListener("change", () => {
    view.side = $("side").value === "" ? null : Number($("side").value);
    if (view.info) navigate(view.line.slice(0, view.index + 1), view.index); // play from here; the computer answers at once on its turn
  });
  $("show-values").addEventListener("change", () => {
    view.showValues = $("show-values").checked;
    if (view.info) busy(() => showGame(view.game, view.line, view.index).then(computerTurns)); // a move it was about to make is made
  });
  $("back-to-list").addEventListener("click", (event) => inPage(event, "/"));
  $("restart").addEventListener("click", () => view.info && navigate([null], 0));
  $("position-form").addEventListener("submit", typedPosition);
  $("games").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-game]");
    if (link) inPage(event, link.getAttribute("href"));
  });
  $("home").addEventListener("click", (event) => inPage(event, "/"));
  window.addEventListener("popstate", () => route());
  route();
}

start();
