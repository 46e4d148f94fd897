// The games played: the recorded matches, newest first (GET /api/history, as `sensehat-c4 history`), each
// round with links to its review and its replay.  No library, no build step (docs/API.md).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const STEP = 20;
  let limit = STEP;

  function el(tag, className, ...content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.append(...content);
    return node;
  }

  function swatch(colour) {
    const dot = el("span", "swatch");
    dot.style.background = colour;
    return dot;
  }

  function when(text) {
    const date = new Date(text);
    return isNaN(date) ? text : date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  }

  function player(match, seat) {
    return el("span", "player", swatch(match.players[seat].colour), match.labels[seat]);
  }

  function length(round) {
    const seconds = Math.max(0, (new Date(round.ended) - new Date(round.started)) / 1000) || 0;
    const moves = round.moves.length;
    return `${moves} ${moves === 1 ? "move" : "moves"}, ${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
  }

  function roundItem(match, round) {
    const review = el("a", "review", "review");
    review.href = `/review/${round.round}`;
    const replay = el("a", "replay", "replay");
    replay.href = `/replay/${round.round}`;
    const item = el("li", "round",
      el("span", "number", `Round ${round.number}`),
      el("span", "first", `${match.labels[round.starter]} first`),
      el("span", "result", round.result_text),
      el("span", "length", length(round)),
      ...(round.helps_text ? [el("span", "helps", round.helps_text)] : []),
      el("span", "links", review, replay));
    item.dataset.round = String(round.round);
    return item;
  }

  function matchItem(match) {
    const title = el("h2", "",
      el("span", "when", `${when(match.started)} · `),
      player(match, "1"), " v ", player(match, "2"),
      ` · ${match.result_text} `,
      el("span", "size", `(${match.board[0]}x${match.board[1]})`));
    const item = el("li", "match", title, el("ol", "rounds", ...match.rounds.map((r) => roundItem(match, r))));
    item.dataset.match = String(match.match);
    return item;
  }

  async function load() {
    $("message").textContent = "loading\u2026";
    try {
      const reply = await fetch(`/api/history?limit=${limit}`, { cache: "no-store" });
      const data = await reply.json();
      if (!reply.ok) { $("message").textContent = data.message || `refused (${reply.status})`; return; }
      $("matches").replaceChildren(...data.matches.map(matchItem));
      const skipped = data.skipped.length ? ` (${data.skipped.length} damaged rows left out)` : "";
      const count = data.matches.length === 1 ? "the last match" : `the last ${data.matches.length} matches`;
      $("message").textContent = data.matches.length ? `${count}${skipped}`
        : `no matches recorded yet${skipped}`;
      $("more").hidden = data.matches.length < limit || limit >= 200;
    } catch (e) {
      $("message").textContent = "no connection to the game";
    }
  }

  $("more").addEventListener("click", () => { limit = Math.min(200, limit + STEP); load(); });
  load();
})();
