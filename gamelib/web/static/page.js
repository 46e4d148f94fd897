// The web view: the LEDs live (an event stream of frames and the game's words), a seat with the
// PIN (this phone's, 4 digits, or the pairing PIN, 8: spaces typed between its groups of four are left
// out), and the joystick.  Uses only the documented API (docs/API.md); no library, no build step.  Its words
// come from /page-words.js (_, ngettext, format: the catalogue in the page's language, gamelib/web/words.py);
// the API's values (phases, kinds, error codes) are mapped to words here, the game's state by /status.js.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const canvas = $("leds");
  const ctx = canvas.getContext("2d");
  const DIRECTIONS = ["left", "right", "up", "down", "middle"];
  const KEYS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down", Enter: "middle", " ": "middle" };
  const HOLD_SECONDS = 3;  // the pairing gesture: the stick's middle held this long (gamelib.backends.base.PAIR_HOLD)
  const LONG_WAIT = 20;    // seconds: a wait for this phone's PIN long enough to suggest the gesture
  const HOLD = format(_("At the Pi, hold the middle of the stick for {seconds} seconds: the LEDs show an 8-digit PIN for any phone at once. Type it here."),
    { seconds: HOLD_SECONDS });
  // what the page says for each refusal of the API (its "error" code: docs/API.md)
  const REFUSED = {
    bad_pin: _("Wrong PIN: read it on the LEDs, or ask for a new one."),
    no_pin: _("No PIN is waiting for this phone: ask for one (the LEDs scroll it)."),
    tried: _("This phone has had its one try at this pairing PIN: hold the middle of the stick at the Pi again for a new one."),
    bad_token: _("No seat goes with this page: take a seat with the PIN."),
    lan: _("This game is played with another Pi over the LAN: watch only."),
    not_your_turn: _("Not your turn."),
    rate: _("Too many presses at once: slow down."),
    busy: _("The game is busy: try again in a moment."),
    offline: _("No connection to the game."),
  };
  function refused(reply) {
    const left = reply.data.tries_left;
    if (reply.data.error === "bad_pin" && left > 0) {
      return format(ngettext("Wrong PIN: read it on the LEDs ({n} try left).", "Wrong PIN: read it on the LEDs ({n} tries left).",
        left), { n: left });
    }
    return REFUSED[reply.data.error] || format(_("Refused ({status})."), { status: reply.status });
  }

  const cssColour = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  let LEDS = cssColour("--leds");          // behind the LEDs (/palette.css, made from gamelib/palette.py)
  let LED_OFF = cssColour("--led-off");    // a dark LED
  let palette = null;  // the palette the page's colours are from (the state's "palette")
  let pixels = new Array(64).fill([0, 0, 0]);
  let status = null;   // the game's words (GET /api/state's "status")
  let seating = null;  // who holds the seats (the state's "seating")
  let seat = Number(sessionStorage.getItem("seat")) || 0;
  let since = Number(sessionStorage.getItem("since")) || 0;  // the seating version our seat began at
  let token = sessionStorage.getItem("token") || "";
  let asking = 0;      // the seat whose PIN is being typed
  let source = null;
  let retries = 0;

  // -- the palette -------------------------------------------------------------------
  // The game's palette changed (the launcher's colours setting): the page's colours, from /palette.css again.
  function follow(name) {
    if (typeof name !== "string" || name === palette) return;
    const first = palette === null;   // the colours loaded with the page are this palette's
    palette = name;
    if (first) return;
    const link = document.querySelector('link[href^="/palette.css"]');
    link.onload = () => { LEDS = cssColour("--leds"); LED_OFF = cssColour("--led-off"); draw(); };
    link.href = `/palette.css?${encodeURIComponent(name)}`;
  }

  // -- the LEDs ------------------------------------------------------------------------
  function draw() {
    const css = canvas.clientWidth || 400;
    const side = Math.max(64, Math.round(css * (window.devicePixelRatio || 1)));
    if (canvas.width !== side) { canvas.width = side; canvas.height = side; }
    const cell = side / 8;
    const radius = cell * 0.36;
    ctx.shadowBlur = 0;
    ctx.fillStyle = LEDS;
    ctx.fillRect(0, 0, side, side);
    const at = (i) => [(i % 8 + 0.5) * cell, (Math.floor(i / 8) + 0.5) * cell];
    // glows first, then every LED over them, so each LED's middle is exactly its colour
    for (let i = 0; i < 64; i++) {
      const [r, g, b] = pixels[i];
      if (!(r || g || b)) continue;
      const [x, y] = at(i);
      ctx.beginPath();
      ctx.arc(x, y, radius * 1.08, 0, 2 * Math.PI);
      ctx.shadowColor = `rgb(${r},${g},${b})`;
      ctx.shadowBlur = cell * 0.35;
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      ctx.fill();
    }
    ctx.shadowBlur = 0;
    for (let i = 0; i < 64; i++) {
      const [r, g, b] = pixels[i];
      const [x, y] = at(i);
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, 2 * Math.PI);
      ctx.fillStyle = (r || g || b) ? `rgb(${r},${g},${b})` : LED_OFF;
      ctx.fill();
    }
  }

  // -- the words -----------------------------------------------------------------------
  let valueWords = {};   // the game's values in the page's language (/api/pages' "words": "Connect 4", "easy")
  function shown(value) {
    return Object.prototype.hasOwnProperty.call(valueWords, value) ? valueWords[value] : value;
  }

  function label(s) {
    if (!s) return "";
    if (s.level) return format(_("computer ({level})"), { level: shown(s.level) });
    return STATUS.name(s.name) || format(_("player {seat}"), { seat: s.seat });
  }

  function who(s) {
    const span = document.createElement("span");
    if (!s) return span;
    const dot = document.createElement("span");
    dot.className = "swatch";
    dot.style.background = s.colour;
    span.append(dot, label(s));
    if (s.kind === "phone") span.append(" \u00b7 " + _("phone"));
    if (s.seat === seat) {
      const you = document.createElement("span");
      you.className = "you";
      you.textContent = " " + _("(you)");
      span.append(you);
    }
    return span;
  }

  function row(name, ...content) {
    const shown = content.length > 0 && content[0] !== null && content[0] !== "";
    $(`${name}-row`).hidden = !shown;
    $(name).replaceChildren(...(shown ? content : []));
  }

  function words() {
    const s = status || {};
    const seats = s.seats || [];
    $("game").textContent = s.game ? `\u00b7 ${shown(s.game)}` : "";
    const line = STATUS.line(status, shown);   // in the page's language, from the state's values (status.js)
    $("text").textContent = status ? line : _("waiting for the game\u2026");
    canvas.setAttribute("aria-label", format(_("the LEDs: {text}"), { text: status ? line : _("off") }));
    row("turn", s.turn ? who(seats[s.turn - 1]) : null);
    const players = [];
    seats.forEach((x, k) => { if (k) players.push(", "); players.push(who(x)); });
    row("players", ...players);
    row("score", s.score ? `${s.score[0]} \u2013 ${s.score[1]}` + (s.round ? " " + format(_("(round {round})"),
      { round: s.round }) : "") : null);
    row("board", s.board || null);
    let result = null;
    if (s.phase === "result") {
      if (s.result === "round" && s.winner) result = format(_("{name} wins the round"), { name: label(seats[s.winner - 1]) });
      else if (s.result === "draw") result = _("a draw");
      else result = STATUS.summary(s);
    }
    row("result", result);
    // a puzzle being played (phase "puzzle"): its id and date, the stones left, the try, and the streak
    const puzzle = s.phase === "puzzle" && typeof s.puzzle === "string";
    let state = null;
    if (puzzle) {
      if (s.solved) state = _("solved");
      else if (s.right === false) state = format(_("column {column} was wrong"), { column: s.tried });
      else state = format(ngettext("{n} stone left", "{n} stones left", s.left), { n: s.left });
    }
    row("puzzle", puzzle ? format(_("{puzzle} of {date}: win within {n} \u00b7 {state} \u00b7 try {try}"),
                                  { puzzle: s.puzzle, date: s.date, n: s.n, state: state, try: s.try }) : null);
    row("streak", puzzle && Number.isInteger(s.streak) ? format(ngettext("{n} day", "{n} days", s.streak), { n: s.streak }) : null);
    $("stick").classList.toggle("your-turn", !!seat && s.turn === seat);
  }

  // -- the seat ------------------------------------------------------------------------
  function message(text) { $("seat-message").textContent = text; }

  function remember() {
    if (seat) {
      sessionStorage.setItem("seat", String(seat)); sessionStorage.setItem("token", token);
      sessionStorage.setItem("since", String(since));
    } else { sessionStorage.removeItem("seat"); sessionStorage.removeItem("token"); sessionStorage.removeItem("since"); }
  }

  function lose(why) {
    const had = token;
    seat = 0; token = ""; remember(); message(why); panel(); words();
    if (had) reconnect();
  }

  function panel() {
    const seats = (seating && seating.seats) || [];
    const mine = seats[seat - 1];
    // a state sent before we sat (still on its way) says the seat is free: only a newer one counts
    const current = seating && (seating.version || 0) >= since;
    if (seat && mine && !mine.taken && current) { lose(_("Your seat ended with the match: take a seat again to play on.")); return; }
    const colour = (n) => { const s = status && status.seats && status.seats[n - 1]; return s ? ` (${STATUS.colour(s)})` : ""; };
    $("seat-text").textContent = seat ? format(_("You play seat {seat}."), { seat }) : _("Play from here: take a seat.");
    $("seat").classList.toggle("seated", !!seat);
    $("seat-buttons").hidden = !!seat || !!asking;
    $("pin-form").hidden = !!seat || !asking;
    $("leave").hidden = !seat;
    for (const n of [1, 2]) {
      const taken = seats[n - 1] && seats[n - 1].taken;
      $(`sit-${n}`).textContent = format(taken ? _("Player {seat} (on a phone)") : _("Player {seat}"), { seat: n });
      $(`sit-${n}`).title = format(_("take seat {seat}"), { seat: n }) + colour(n);
    }
    for (const d of DIRECTIONS) $(d).disabled = !seat;
  }

  async function post(path, body) {
    try {
      const reply = await fetch(path, {
        method: "POST", cache: "no-store",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      let data = {};
      try { data = await reply.json(); } catch (e) { /* an empty or non-JSON body */ }
      return { status: reply.status, data };
    } catch (e) {
      return { status: 0, data: { error: "offline" } };
    }
  }

  async function ask(n) {
    asking = n;
    $("pin").value = "";
    panel();
    $("pin").focus();
    message(_("The PIN scrolls across the LEDs: type it here."));
    const reply = await post("/api/pin", {});
    const seconds = reply.data.seconds;
    if (reply.status === 202 && seconds >= LONG_WAIT) {
      message(format(_("The PIN scrolls across the LEDs in about {seconds} s (others asked first)."), { seconds }) +
        " " + HOLD);
    } else if (reply.status === 202 && seconds > 0) {
      message(format(_("The PIN scrolls across the LEDs in about {seconds} s (others asked first): type it here."),
        { seconds }));
    } else if (reply.status === 503) {
      message(_("Too many devices are waiting for a PIN.") + " " + HOLD);
    } else if (reply.status !== 202) {
      message(refused(reply));
    }
  }

  async function sit(event) {
    event.preventDefault();
    const reply = await post("/api/seat", { pin: $("pin").value.replace(/\s+/g, ""), seat: asking });
    if (reply.status === 200) {
      token = reply.data.token; seat = reply.data.seat; since = reply.data.version || 0; asking = 0;
      remember(); message(""); reconnect();
    } else {
      message(refused(reply));
    }
    panel(); words();
  }

  async function leave() {
    await post("/api/leave", { token });
    lose("");
  }

  async function press(direction) {
    if (!seat) return;
    const reply = await post("/api/press", { token, direction });
    if (reply.status === 202) { message(""); return; }
    if (reply.status === 403) lose(_("Your seat ended (the match is over, or another phone took it)."));
    else message(refused(reply));
  }

  // -- the connection --------------------------------------------------------------------
  function live(ok) {
    const c = $("connection");
    c.className = ok ? "live" : (retries ? "lost" : "connecting");
    c.textContent = ok ? _("live") : (retries ? _("connection lost: reconnecting\u2026") : _("connecting\u2026"));
    document.body.classList.toggle("lost", !ok && retries > 0);
  }

  // a seat's page keeps its stream open with the seat's token: on the seat's turn, a phone whose page
  // is closed is waited for a while, then the seat goes back to the stick at the Pi (docs/API.md)
  function reconnect() {
    if (source) source.close();
    connect();
  }

  function connect() {
    source = new EventSource(token ? `/api/events?token=${encodeURIComponent(token)}` : "/api/events");
    source.onopen = () => { retries = 0; live(true); };
    source.addEventListener("frame", (e) => {
      const data = JSON.parse(e.data);
      pixels = data.pixels;
      canvas.dataset.seq = String(data.seq);
      draw();
    });
    source.addEventListener("state", (e) => {
      const data = JSON.parse(e.data);
      status = data.status; seating = data.seating;
      follow(data.palette);
      words(); panel();
    });
    source.onerror = () => {
      retries += 1;
      live(false);
      if (source.readyState === EventSource.CLOSED) {   // refused: the browser will not retry by itself
        source.close();
        setTimeout(connect, Math.min(5000, 1000 * retries));
      }
    };
  }

  // -- the pages a game adds (Connect 4: the games played) ------------------------------
  async function links() {
    try {
      const reply = await fetch("/api/pages", { cache: "no-store" });
      const data = await reply.json();
      if (data.words && typeof data.words === "object") { valueWords = data.words; words(); }
      $("links").replaceChildren(...data.links.map((link) => {
        const a = document.createElement("a");
        a.href = link.path;
        a.textContent = link.title;
        return a;
      }));
    } catch (e) { /* no links: the live view works without them */ }
  }

  // -- wiring --------------------------------------------------------------------------
  $("sit-1").addEventListener("click", () => ask(1));
  $("sit-2").addEventListener("click", () => ask(2));
  $("cancel").addEventListener("click", () => { asking = 0; message(""); panel(); });
  $("pin-form").addEventListener("submit", sit);
  $("leave").addEventListener("click", leave);
  for (const d of DIRECTIONS) $(d).addEventListener("click", () => press(d));
  document.addEventListener("keydown", (e) => {
    const d = KEYS[e.key];
    if (!d || !seat || e.target instanceof HTMLInputElement || e.repeat) return;
    if (e.target instanceof HTMLButtonElement && (e.key === "Enter" || e.key === " ")) return;  // the button's own click
    e.preventDefault();
    press(d);
  });
  window.addEventListener("resize", draw);
  draw(); words(); panel();
  connect();
  links();
})();
