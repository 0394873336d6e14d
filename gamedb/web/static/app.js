// The explorer page: the list of games, and a game's position with its board, its moves by value,
// undo/redo and the value history. The URL holds the game and the position (?game=NAME&position=TEXT),
// so a link can be shared and back/forward walk through the positions seen.

import { drawBoard } from "./boards.js";
import { drawHistory, drawResultBars } from "./chart.js";
import { moveValues, shortValue, valueText } from "./values.js";

const $ = (id) => document.getElementById(id);
const view = { game: null, info: null, line: [], index: 0 };
const answers = new Map(); // "game\nposition" -> the API's answer
let generation = 0; // a newer navigation makes an older one's late answers moot

class ApiError extends Error {}

async function api(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError((body && body.error) || `HTTP ${response.status}`);
  return body;
}

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
    const start = row.insertCell();
    if (game.start_value && game.start_value.result) {
      const v = game.start_value;
      const badge = document.createElement("span");
      badge.className = `swatch v-${v.result}`;
      badge.textContent = shortValue(v.result, null);
      start.append(badge, ` ${valueText(v.result, v.remoteness)} `);
      const code = document.createElement("code");
      code.textContent = game.start;
      start.append(code);
    }
  }
  $("no-games").hidden = games.length > 0;
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
      if (mine === generation) failed(error);
      return;
    }
    $("game-summary").textContent = `${view.info.family}: ${view.info.summary}`;
    $("syntax").textContent = `Position text: ${view.info.position_syntax}`;
  }
  document.title = `${game} - gamedb`;
  let loaded;
  try {
    loaded = await Promise.all(line.map((position) => answerFor(game, position)));
  } catch (error) {
    if (mine === generation) failed(error);
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

function clearPosition() {
  $("board").replaceChildren();
  $("status").textContent = "";
  $("position-text").textContent = "";
  $("moves").querySelector("tbody").replaceChildren();
  $("moves-note").hidden = true;
  $("history-chart").replaceChildren();
  $("undo").disabled = $("redo").disabled = true;
}

function render(loaded) {
  const answer = loaded[view.index];
  const values = moveValues(answer);
  const winner = answer.winner ? ` (${answer.winner} wins)` : "";
  const grundy = answer.grundy !== undefined && answer.grundy !== null ? `, grundy ${answer.grundy}` : "";
  const over = answer.moves.length ? "" : " Game over.";
  const limit = answer.turn_limit ? ` Within ${answer.turn_limit} turns the mouse ${answer.mouse_wins_within_limit ? "wins" : "does not win"}.` : "";
  $("status").textContent = `${answer.player} to move: ${valueText(answer.result, answer.remoteness)}${winner}${grundy}.${over}${limit}`;
  $("position-text").textContent = answer.position;
  $("position-input").value = answer.position;
  $("board").replaceChildren(drawBoard(view.info, answer, values));
  const body = $("moves").querySelector("tbody");
  body.replaceChildren();
  for (const m of answer.moves) {
    const value = values.get(m.move);
    const row = body.insertRow();
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = m.move;
    button.className = `v-${value.result}${value.best ? " best" : ""}`;
    button.textContent = m.move;
    button.title = `play ${m.move}: ${valueText(value.result, value.remoteness)}`;
    row.insertCell().append(button);
    row.insertCell().textContent = `${shortValue(value.result, value.remoteness)} ${valueText(value.result, value.remoteness)}`;
    row.insertCell().textContent = value.best ? "\u2605 best" : "";
    const to = document.createElement("code");
    to.textContent = m.position;
    row.insertCell().append("\u2192 ", to);
  }
  $("moves").hidden = answer.moves.length === 0;
  const note = $("moves-note");
  note.hidden = answer.moves_complete !== false;
  note.textContent = `${answer.degree.toLocaleString("en")} moves in all; only the best is listed.`;
  $("undo").disabled = view.index === 0;
  $("redo").disabled = view.index >= view.line.length - 1;
  const chart = drawHistory(view.info, loaded, view.index, (ply) => go(ply));
  $("history-chart").replaceChildren(chart);
}

function navigate(line, index) {
  view.line = line;
  view.index = index;
  remember(true);
  return busy(() => showGame(view.game, view.line, view.index));
}

function play(label) {
  const answer = answers.get(`${view.game}\n${view.line[view.index]}`);
  const move = answer && answer.moves.find((m) => m.move === label);
  if (!move) return;
  navigate([...view.line.slice(0, view.index + 1), move.position], view.index + 1);
}

function go(index) {
  if (index >= 0 && index < view.line.length && index !== view.index) navigate(view.line, index);
}

async function typedPosition(event) {
  event.preventDefault();
  const text = $("position-input").value.trim();
  if (!text || !view.info) return;
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
    return showGame(game, [params.get("position")], 0);
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

function start() {
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("keydown", onBoardKey);
  $("moves").addEventListener("click", onBoardClick);
  $("undo").addEventListener("click", () => go(view.index - 1));
  $("redo").addEventListener("click", () => go(view.index + 1));
  $("restart").addEventListener("click", () => view.info && navigate([null], 0));
  $("position-form").addEventListener("submit", typedPosition);
  $("games").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-game]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    history.pushState(null, "", link.getAttribute("href"));
    route();
  });
  $("home").addEventListener("click", (event) => {
    event.preventDefault();
    history.pushState(null, "", "/");
    route();
  });
  window.addEventListener("popstate", () => route());
  route();
}

start();
