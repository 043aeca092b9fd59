// The phone page: draws what /events sends (gamenight/board.py says every word and number
// in the page's language); only the chart's geometry is computed here. Names are set as
// text, never as markup.
"use strict";
const labels = JSON.parse(document.getElementById("labels").textContent);
const lang = document.documentElement.lang;
const $ = (id) => document.getElementById(id);
let digits = "0123456789";
const say = (n) => String(n).replace(/[0-9]/g, (d) => digits[Number(d)]);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

function swatch(colour) {
  const dot = el("span", { class: "swatch" });
  dot.style.background = colour;
  return dot;
}

for (const node of document.querySelectorAll("[data-label]")) {
  node.textContent = labels[node.dataset.label] || "";
}

function drawSeats(board) {
  const body = $("seats").tBodies[0];
  body.replaceChildren(...board.seats.map((seat) => {
    const row = el("tr", { class: seat.turn ? "turn" : "", "data-seat": seat.seat },
      el("td", { class: "name" }, swatch(seat.colour), seat.name),
      el("td", { class: "num" + (seat.one_tile ? " one-tile" : "") }, seat.tiles),
      el("td", { class: "num" }, seat.points));
    return row;
  }));
}

function drawHistory(history) {
  $("history-box").hidden = history.rows.length === 0;
  const head = el("tr", {}, el("th", {}, labels.player),
    ...history.numbers.map((n, i) => el("th", { class: "num", title: history.engines[i] || "" }, n)),
    el("th", { class: "num" }, labels.total));
  const rows = history.names.map((name, seat) => el("tr", {},
    el("td", { class: "name" }, name),
    ...history.rows.map((row) => el("td", { class: "num" }, row[seat])),
    el("td", { class: "num" }, history.totals[seat])));
  $("history").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

function drawChart(chart, rtl) {
  const svg = $("chart");
  const running = chart.running;
  $("chart-box").hidden = running.length === 0;
  if (running.length === 0) return;
  const W = 320, H = 180, left = 34, right = 10, top = 10, bottom = 22;
  const high = Math.max(1, ...running.flat());
  const x = (i) => {
    const t = running.length === 1 ? 0.5 : i / (running.length - 1);
    const fromStart = left + t * (W - left - right);
    return rtl ? W - fromStart : fromStart;
  };
  const y = (v) => top + (1 - v / high) * (H - top - bottom);
  const ns = "http://www.w3.org/2000/svg";
  const make = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const parts = [];
  for (const v of [0, Math.round(high / 2), high]) {
    parts.push(make("line", { x1: rtl ? right : left, x2: rtl ? W - left : W - right,
      y1: y(v), y2: y(v), stroke: "#2c3833" }));
    parts.push(make("text", { x: rtl ? W - 4 : 4, y: y(v) + 3,
      "text-anchor": rtl ? "end" : "start" }, say(v)));
  }
  running.forEach((_, i) => parts.push(make("text", { x: x(i), y: H - 6,
    "text-anchor": "middle" }, say(i + 1))));
  chart.colours.forEach((colour, seat) => {
    const points = running.map((row, i) => `${x(i)},${y(row[seat])}`).join(" ");
    parts.push(make("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5,
      "data-seat": seat }));
  });
  svg.replaceChildren(...parts);
}

function drawBoard(board) {
  digits = board.digits || digits;
  $("headline").textContent = board.headline;
  const offline = board.online === false;
  $("offline").hidden = !offline || board.phase === "offline";
  $("offline").textContent = labels.waiting;
  if (board.phase === "offline") {
    for (const id of ["ranking-box", "doubles-box", "history-box", "chart-box"]) $(id).hidden = true;
    $("seats").tBodies[0].replaceChildren();
    $("round").textContent = "";
    return;
  }
  $("round").textContent = board.round;
  drawSeats(board);
  $("doubles-box").hidden = board.doubles.length === 0;
  $("doubles").replaceChildren(...board.doubles.map((d) => el("li", {}, d)));
  drawHistory(board.history);
  drawChart(board.chart, board.dir === "rtl");
  $("ranking-box").hidden = !board.ranking;
  $("ranking").replaceChildren(...(board.ranking || []).map((r) =>
    el("li", {}, el("span", { class: "place" }, r.place), " ", swatch(r.colour), `${r.name} `,
      el("span", { class: "num" }, r.total))));
  document.body.dataset.phase = board.phase;
}

function drawLeague(league) {
  $("league-box").hidden = !league;
  if (!league) return;
  $("tables").textContent = league.tables;
  const head = el("tr", {}, el("th", {}, labels.place), el("th", {}, labels.player),
    el("th", { class: "num" }, labels.games), el("th", { class: "num" }, labels.wins),
    el("th", { class: "num" }, labels.total));
  $("league").replaceChildren(el("thead", {}, head), el("tbody", {}, ...league.rows.map((r) =>
    el("tr", {}, el("td", {}, r.place), el("td", { class: "name" }, r.name),
      el("td", { class: "num" }, r.games), el("td", { class: "num" }, r.wins),
      el("td", { class: "num" }, r.points)))));
}

$("lang").addEventListener("change", (event) => {
  window.location.search = "?lang=" + encodeURIComponent(event.target.value);
});

// EventSource reconnects by itself when the Wi-Fi comes back.
const events = new EventSource("/events?lang=" + encodeURIComponent(lang));
window.roundhouseBoards = 0;
events.addEventListener("board", (event) => {
  drawBoard(JSON.parse(event.data));
  window.roundhouseBoards += 1;
});
events.addEventListener("league", (event) => drawLeague(JSON.parse(event.data)));
