// A round's review (/review/ID) or replay (/replay/ID): the board stepping through the moves, and for a review
// the outcome after each move as a graph (move over it, or tap it, and the board follows), the key moments,
// every move's mark and each player's summary.  Reads GET /api/round/ID, then polls GET /api/review/ID (202:
// how far the review is; 200: the review, as `sensehat-c4 review --json`).  No library, no build step.  Its
// words come from /records-words.js (_, ngettext, format), the players' and results' from /records.js; the
// review's values (marks) are mapped to words here.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const parts = location.pathname.split("/");
  const mode = parts[1] === "replay" ? "replay" : "review";
  const ident = parts[2] || "last";
  const CELL = 10;
  const STEP = 8, LEFT = 6, MID = 50, HALF = 38;   // the graph: a column per position, bars up to HALF
  const MIN_WIDTH = 240;   // a short round's columns widen to this, so its graph is not tall and thin
  const REACH = 6;         // the least room on each side of the axis (a draw's line, a one-sided round)
  const PLAY_MS = 800;

  let match = null;      // GET /api/round's "match" (players, labels, board)
  let round = null;      // ... and "round" (moves, starter, winning_cells)
  let review = null;     // GET /api/review's answer, once made
  let moves = [];        // 0-based columns
  let ply = 0;           // moves on the board shown
  let timer = null;

  function el(tag, className, ...content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.append(...content);
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function swatch(colour) {
    const dot = el("span", "swatch");
    dot.style.background = colour;
    return dot;
  }

  // the board's player 1 moved first: the starter's seat
  const seatOf = (player) => (player === 1 ? round.starter : 3 - round.starter);
  const colourOf = (player) => match.players[String(seatOf(player))].colour;
  const labelOf = (seat) => playerLabel(match.players[String(seat)], Number(seat));
  const MARKS = {   // the review's marks (values of the API) in words
    best: _("best"), "only move": _("only move"), inaccuracy: _("inaccuracy"), mistake: _("mistake"),
    blunder: _("blunder"), unsolved: _("not solved in time"),
  };
  const signed = (score) => (score === null || score === undefined ? "?" : score > 0 ? `+${score}` : String(score));

  // -- the board -----------------------------------------------------------------------------
  function position(upTo) {
    const [columns, rows] = match.board;
    const cells = Array.from({ length: columns }, () => []);
    for (let i = 0; i < upTo; i++) cells[moves[i]].push(i % 2 === 0 ? 1 : 2);
    return { columns, rows, cells };
  }

  function drawBoard() {
    const { columns, rows, cells } = position(ply);
    const board = $("board");
    board.setAttribute("viewBox", `0 0 ${columns * CELL} ${rows * CELL}`);
    const nodes = [svg("rect", { class: "field", width: columns * CELL, height: rows * CELL, rx: 2 })];
    const won = new Set(ply === moves.length ? (round.winning_cells || []).map(([c, r]) => `${c - 1},${r - 1}`) : []);
    const last = ply ? moves[ply - 1] : -1;
    for (let c = 0; c < columns; c++) {
      for (let r = 0; r < rows; r++) {
        const owner = cells[c][r] || 0;
        const circle = svg("circle", {
          cx: c * CELL + CELL / 2, cy: (rows - 1 - r) * CELL + CELL / 2, r: CELL * 0.4,
          "data-col": c + 1, "data-row": r + 1, "data-owner": owner,
        });
        if (owner) circle.setAttribute("fill", colourOf(owner));
        const classes = [owner ? "token" : "hole"];
        if (c === last && r === cells[c].length - 1) classes.push("last");
        if (won.has(`${c},${r}`)) classes.push("won");
        circle.setAttribute("class", classes.join(" "));
        nodes.push(circle);
      }
    }
    board.replaceChildren(...nodes);
    board.setAttribute("aria-label", format(ngettext("the board after {n} of {total} move", "the board after {n} of {total} moves",
      moves.length), { n: ply, total: moves.length }));
    board.dataset.ply = String(ply);
  }

  function drawOptions() {
    // above the board: every column's score for the move to come (the review's), the one played underlined
    const options = $("options");
    const columns = match.board[0];
    options.setAttribute("viewBox", `0 0 ${columns * CELL} 5`);
    const next = review && review.review[ply];
    if (!next || !next.scores) { options.replaceChildren(); return; }
    const keeping = new Set(next.keeping);
    const nodes = [];
    for (const [column, score] of Object.entries(next.scores)) {
      const c = Number(column);
      const classes = [keeping.has(c) ? "keeps" : "changes"];
      if (c === next.column) classes.push("played");
      nodes.push(svg("text", { x: (c - 1) * CELL + CELL / 2, y: 4, class: classes.join(" "), "data-col": c },
        signed(score)));
    }
    options.replaceChildren(...nodes);
  }

  // -- the words -----------------------------------------------------------------------------
  function outcome(value) {
    if (!value) return _("not solved");
    if (value.score === 0) return _("a draw");
    const winner = labelOf(value.score > 0 ? round.starter : 3 - round.starter);
    return value.in === 0 ? format(_("{name} has won"), { name: winner })
      : format(_("{name} wins in {n}"), { name: winner, n: value.in });
  }

  function markText(move) {
    const mark = MARKS[move.mark] || move.mark;
    return move.missed_win ? format(_("{mark} (missed win)"), { mark }) : mark;
  }

  function describe() {
    const parts = [];
    if (ply === 0) parts.push(_("The empty board."));
    else {
      const said = { n: ply, name: labelOf(seatOf(ply % 2 === 1 ? 1 : 2)), column: moves[ply - 1] + 1 };
      const move = review && review.review[ply - 1];
      if (!move) parts.push(format(_("Move {n}: {name} played column {column}."), said));
      else if (move.mark === "best" || move.mark === "only move" || !move.best.length) {
        parts.push(format(_("Move {n}: {name} played column {column} ({score}): {mark}."),
          { ...said, score: signed(move.score), mark: markText(move) }));
      } else {
        parts.push(format(_("Move {n}: {name} played column {column} ({score}): {mark}; best {best} ({best_score})."),
          { ...said, score: signed(move.score), mark: markText(move), best: move.best.join(", "),
            best_score: signed(move.best_score) }));
      }
    }
    if (review) parts.push(format(_("Now: {outcome}."), { outcome: outcome(review.values[ply]) }));
    $("position").textContent = parts.join(" ");
  }

  // -- stepping ------------------------------------------------------------------------------
  function select(to) {
    ply = Math.max(0, Math.min(moves.length, to));
    $("ply").value = String(ply);
    drawBoard(); drawOptions(); describe(); cursor();
    for (const row of $("move-rows").children) row.classList.toggle("selected", Number(row.dataset.ply) === ply);
    $("first").disabled = $("back").disabled = ply === 0;
    $("last").disabled = $("forward").disabled = ply === moves.length;
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    $("play").textContent = "\u25B6\uFE0E " + _("play");
    $("play").setAttribute("aria-label", _("play"));
  }

  function play() {
    if (timer) { stop(); return; }
    if (ply === moves.length) select(0);
    $("play").textContent = "\u23F8\uFE0E " + _("pause");
    $("play").setAttribute("aria-label", _("pause"));
    timer = setInterval(() => { select(ply + 1); if (ply === moves.length) stop(); }, PLAY_MS);
  }

  // -- the graph -----------------------------------------------------------------------------
  function height(value) {
    // as the terminal's graph: full when the winner's next move wins, an eighth less per move more
    if (!value || value.score === 0) return 0;
    return Math.max(1, Math.min(8, 9 - value.in)) / 8 * HALF;
  }

  const step = () => Math.max(STEP, (MIN_WIDTH - LEFT * 2) / (moves.length + 1));
  const graphWidth = () => LEFT * 2 + step() * (moves.length + 1);
  const xOf = (p) => LEFT + step() * p + step() / 2;

  function drawGraph() {
    const graph = $("graph");
    const width = graphWidth(), w = step();
    const keys = new Set(review.key_moments);
    // the height follows the values: as far up and down as the bars reach (a one-sided round has no
    // empty half), with room above for the key moments' marks and below for the move numbers
    const reach = (sign) => Math.max(REACH, ...review.values.map((v) => (v && v.score * sign > 0 ? height(v) : 0)));
    const top = MID - reach(1) - (keys.size ? 14 : 4), bottom = MID + reach(-1) + 12;
    graph.setAttribute("viewBox", `0 ${top} ${width} ${bottom - top}`);
    const nodes = [svg("line", { class: "axis", x1: LEFT, x2: width - LEFT, y1: MID, y2: MID })];
    review.values.forEach((value, p) => {
      const x = xOf(p);
      if (value === null) {
        nodes.push(svg("text", { class: "unknown", x, y: MID + 3, "data-ply": p }, "?"));
      } else if (value.score === 0) {
        nodes.push(svg("line", { class: "draw", x1: x - w / 2 + 0.5, x2: x + w / 2 - 0.5, y1: MID, y2: MID,
          "data-ply": p }));
      } else {
        const h = height(value);
        const up = value.score > 0;
        nodes.push(svg("rect", { class: "bar", x: x - w / 2 + 1, width: w - 2, y: up ? MID - h : MID, height: h,
          fill: colourOf(up ? 1 : 2), "data-ply": p }));
      }
      if (keys.has(p)) {
        nodes.push(svg("line", { class: "key-line", x1: x, x2: x, y1: top + 12, y2: bottom - 11 }));
        nodes.push(svg("text", { class: "key", x, y: top + 10, "data-ply": p }, "!"));
      }
      if (p % 5 === 0) nodes.push(svg("text", { class: "label", x, y: bottom - 2, "text-anchor": "middle" }, String(p)));
    });
    nodes.push(svg("line", { class: "cursor", id: "cursor", x1: 0, x2: 0, y1: top + 2, y2: bottom - 11 }));
    graph.replaceChildren(...nodes);
    graph.setAttribute("aria-label", format(ngettext(
      "the outcome after each move, for {name} (who started): {n} key moment",
      "the outcome after each move, for {name} (who started): {n} key moments", review.key_moments.length),
    { name: labelOf(round.starter), n: review.key_moments.length }));
    $("graph-box").hidden = false;
    const caption = $("graph-caption");
    caption.replaceChildren(
      _("Up:") + " ", swatch(colourOf(1)), format(_("{name} wins;"), { name: labelOf(round.starter) }) + " ",
      _("down:") + " ", swatch(colourOf(2)), format(_("{name} wins;"), { name: labelOf(3 - round.starter) }) + " " +
      _("the line: a draw.") + " ",
      _("A taller bar: a nearer win. ! marks a move that changed the outcome. Move over the graph (or tap it)."));
    cursor();
  }

  function cursor() {
    const line = document.getElementById("cursor");
    if (!line) return;
    line.setAttribute("x1", String(xOf(ply)));
    line.setAttribute("x2", String(xOf(ply)));
  }

  function fromPointer(event) {
    const box = $("graph").getBoundingClientRect();
    if (!box.width) return;
    const x = (event.clientX - box.left) / box.width * graphWidth();
    select(Math.round((x - LEFT - step() / 2) / step()));
  }

  // -- the table and the summary ---------------------------------------------------------------
  function drawTable() {
    const rows = review.review.map((move) => {
      const mark = el("td", ["mark", `mark-${move.mark.replace(" ", "-")}`].join(" "), markText(move));   // its class: the value
      const row = el("tr", "",
        el("td", "num", String(move.ply)),
        el("td", "", swatch(match.players[String(move.player)].colour), labelOf(move.player)),
        el("td", "num", String(move.column)),
        el("td", "num", signed(move.score)),
        el("td", "", move.best.length ? `${move.best.join(",")} (${signed(move.best_score)})` : ""),
        mark);
      row.dataset.ply = String(move.ply);
      row.addEventListener("click", () => { stop(); select(move.ply); });
      return row;
    });
    $("move-rows").replaceChildren(...rows);
    $("moves").hidden = false;
    overflow();
    const lines = ["1", "2"].map((seat) => {
      const s = review.summary[seat];
      const accuracy = s.accuracy === null ? _("no move solved")
        : format(_("accuracy {percent}%"), { percent: Math.round(s.accuracy) });
      const count = (text, n) => format(text, { n });
      const only = s.only_moves ? " " + count(ngettext("({n} only move)", "({n} only moves)", s.only_moves), s.only_moves) : "";
      const parts = [count(ngettext("{n} inaccuracy", "{n} inaccuracies", s.inaccuracies), s.inaccuracies),
        count(ngettext("{n} mistake", "{n} mistakes", s.mistakes), s.mistakes),
        count(ngettext("{n} blunder", "{n} blunders", s.blunders), s.blunders)];
      if (s.missed_wins) parts.push(count(ngettext("{n} missed win", "{n} missed wins", s.missed_wins), s.missed_wins));
      if (s.unsolved) parts.push(count(ngettext("{n} not solved", "{n} not solved", s.unsolved), s.unsolved));
      return el("p", "", swatch(match.players[seat].colour), format(_("{name}: {accuracy} \u00b7 {best}{only}, {counts}"),
        { name: labelOf(Number(seat)), accuracy, best: count(ngettext("{n} best", "{n} best", s.best), s.best), only,
          counts: parts.join(", ") }));
    });
    $("summary").replaceChildren(...lines);
  }

  function overflow() {
    // wider than the screen even wrapped (a narrow phone): say it scrolls sideways, and shade the edge
    const box = $("table-box");
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    $("table-frame").classList.toggle("more", scrolls && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    $("table-hint").hidden = !scrolls;
    // a region that scrolls is reached with the keyboard too (its arrows scroll it), and only then
    if (scrolls) box.setAttribute("tabindex", "0"); else box.removeAttribute("tabindex");
  }

  // -- loading ---------------------------------------------------------------------------------
  function progress(text, done, total) {
    $("progress-box").hidden = false;
    $("progress-text").textContent = text;
    $("progress").max = Math.max(1, total);
    $("progress").value = done;
  }

  async function poll() {
    let reply, data = {};
    try {
      reply = await fetch(`/api/review/${round.round}`, { cache: "no-store" });
      data = await reply.json();
    } catch (e) {
      progress(_("no connection to the game: trying again\u2026"), 0, 1);
      setTimeout(poll, 2000);
      return;
    }
    if (reply.status === 200) {
      review = data;
      $("progress-box").hidden = true;
      drawGraph(); drawTable(); select(ply);
    } else if (reply.status === 202) {
      const text = data.waiting
        ? format(ngettext("waiting for {n} other review\u2026", "waiting for {n} other reviews\u2026", data.waiting),
          { n: data.waiting })
        : format(_("reviewing: move {n} of {total}"), { n: Math.min(data.done + 1, data.total), total: data.total });
      progress(text, data.done, data.total);
      setTimeout(poll, 300);
    } else if (reply.status === 503) {
      progress(_("busy: trying again\u2026"), 0, 1);
      setTimeout(poll, 1000 * (Number(reply.headers.get("Retry-After")) || 2));
    } else {
      progress(refused(reply.status, data), 0, 1);
    }
  }

  async function load() {
    try {
      const reply = await fetch(`/api/round/${encodeURIComponent(ident)}`, { cache: "no-store" });
      const data = await reply.json();
      if (!reply.ok) { $("title").textContent = refused(reply.status, data); $("round").hidden = true; return; }
      match = data.match; round = data.round;
    } catch (e) {
      $("title").textContent = _("no connection to the game");
      return;
    }
    moves = Array.from(round.moves, (c) => Number(c) - 1);
    const said = { round: round.round, match: match.match, number: round.number };
    document.title = format(mode === "review" ? _("Review of round {round}") : _("Replay of round {round}"), said) +
      " \u00b7 " + _("Connect 4");   // the game's name in the page's words (Puissance 4)
    $("title").textContent = format(mode === "review" ? _("Review: round {round} (match {match}, round {number})")
      : _("Replay: round {round} (match {match}, round {number})"), said);
    const helps = helpsText(round);
    const result = { result: roundResult(match, round), n: moves.length, helps };
    $("players").replaceChildren(swatch(match.players["1"].colour), labelOf(1), " " + _("v") + " ",
      swatch(match.players["2"].colour), labelOf(2), ` \u00b7 ${match.board[0]}x${match.board[1]} \u00b7 ` +
      format(_("{name} first"), { name: labelOf(round.starter) }) + " \u00b7 " +
      format(helps ? ngettext("{result} ({n} move, {helps})", "{result} ({n} moves, {helps})", moves.length)
        : ngettext("{result} ({n} move)", "{result} ({n} moves)", moves.length), result));
    $("other").textContent = mode === "review" ? _("Replay") : _("Review");
    $("other").href = `/${mode === "review" ? "replay" : "review"}/${round.round}`;
    $("ply").max = String(moves.length);
    select(mode === "replay" ? 0 : moves.length);
    if (mode === "review") poll();
    else $("review").hidden = true;
  }

  $("first").addEventListener("click", () => { stop(); select(0); });
  $("back").addEventListener("click", () => { stop(); select(ply - 1); });
  $("forward").addEventListener("click", () => { stop(); select(ply + 1); });
  $("last").addEventListener("click", () => { stop(); select(moves.length); });
  $("play").addEventListener("click", play);
  $("ply").addEventListener("input", () => { stop(); select(Number($("ply").value)); });
  $("table-box").addEventListener("scroll", overflow, { passive: true });
  window.addEventListener("resize", () => { if (review) overflow(); });
  $("graph").addEventListener("pointermove", fromPointer);
  $("graph").addEventListener("pointerdown", (e) => { stop(); fromPointer(e); });
  document.addEventListener("keydown", (e) => {
    if (!round || e.target instanceof HTMLInputElement) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault(); stop(); select(to);
  });
  load();
})();
