// The games played: the recorded matches, newest first (GET /api/history, as `sensehat-c4 history`), each
// round with links to its review and its replay.  No library, no build step (docs/API.md).  Its words come from
// /records-words.js (_, ngettext, format) and the players' and results' from /records.js.
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
    // in the page's language (the words script set it), as the browser's Intl writes dates there
    return isNaN(date) ? text : date.toLocaleString([document.documentElement.lang || "en"], { dateStyle: "medium", timeStyle: "short" });
  }

  function player(match, seat) {
    return el("span", "player", swatch(match.players[seat].colour), playerLabel(match.players[seat], Number(seat)));
  }

  function length(round) {
    const seconds = Math.max(0, (new Date(round.ended) - new Date(round.started)) / 1000) || 0;
    const moves = round.moves.length;
    return format(ngettext("{n} move, {time}", "{n} moves, {time}", moves),
      { n: moves, time: `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}` });
  }

  function roundItem(match, round) {
    const review = el("a", "review", _("review"));
    review.href = `/review/${round.round}`;
    const replay = el("a", "replay", _("replay"));
    replay.href = `/replay/${round.round}`;
    const item = el("li", "round",
      el("span", "number", format(_("Round {number}"), { number: round.number })),
      el("span", "first", format(_("{name} first"), { name: playerLabel(match.players[String(round.starter)], round.starter) })),
      el("span", "result", roundResult(match, round)),
      el("span", "length", length(round)),
      ...(helpsText(round) ? [el("span", "helps", helpsText(round))] : []),
      el("span", "links", review, replay));
    item.dataset.round = String(round.round);
    return item;
  }

  function matchItem(match) {
    const title = el("h2", "",
      el("span", "when", `${when(match.started)} · `),
      player(match, "1"), " " + _("v") + " ", player(match, "2"),
      ` · ${matchResult(match)} `,
      el("span", "size", `(${match.board[0]}x${match.board[1]})`));
    const item = el("li", "match", title, el("ol", "rounds", ...match.rounds.map((r) => roundItem(match, r))));
    item.dataset.match = String(match.match);
    return item;
  }

  async function load() {
    $("message").textContent = _("loading\u2026");
    try {
      const reply = await fetch(`/api/history?limit=${limit}`, { cache: "no-store" });
      const data = await reply.json();
      if (!reply.ok) { $("message").textContent = refused(reply.status, data); return; }
      $("matches").replaceChildren(...data.matches.map(matchItem));
      const n = data.skipped.length;
      const skipped = n ? " " + format(ngettext("({n} damaged row left out)", "({n} damaged rows left out)", n), { n }) : "";
      const count = format(ngettext("the last match", "the last {n} matches", data.matches.length), { n: data.matches.length });
      $("message").textContent = (data.matches.length ? count : _("no matches recorded yet")) + skipped;
      $("more").hidden = data.matches.length < limit || limit >= 200;
    } catch (e) {
      $("message").textContent = _("no connection to the game");
    }
  }

  $("more").addEventListener("click", () => { limit = Math.min(200, limit + STEP); load(); });
  load();
})();
