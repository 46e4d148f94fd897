// The game's state said in the page's language: the line over the LEDs' facts, worded here from the values of
// GET /api/state's "status" (docs/API.md: each phase and its fields) with the page's catalogue (/page-words.js:
// _, ngettext, format), never the Pi's sentence (its "text", in the Pi's language), which only a phase this page
// does not know shows.  The messages are the Pi's own (sensehat_c4/match/words.py and records/access.py,
// gamelib's menu, LAN and console), so a page says what the Pi would say in its language.  A name a player typed,
// a path the Pi names, and anything another machine sent, is data: its control and format characters taken out,
// cut (MOST_NAME characters for a name), and put in as text (format fills the placeholders of the message only,
// never those of what it puts in).
"use strict";
const STATUS = (() => {
  const MOST_NAME = 12;    // characters of a player's name (gamelib.players.MAX_LENGTH)
  const MOST_DATA = 200;   // characters of another Pi's refusal (as the LAN keeps it: gamelib/lan/flows.py)
  const MOST_PATH = 255;   // characters of a path the Pi names (a file's own name is at most 255 bytes)
  const MOST_TEXT = 400;   // characters of the Pi's own words
  const has = (object, key) => object !== null && typeof object === "object" && Object.prototype.hasOwnProperty.call(object, key);
  const number = (value) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

  // data from outside: no control or format character, one line, at most `most` characters
  function data(value, most) {
    const text = String(value === null || value === undefined ? "" : value);
    return Array.from(text.replace(/\s+/gu, " ").replace(/\p{C}+/gu, "").trim()).slice(0, most).join("").trim();
  }
  const name = (value) => (typeof value === "string" ? data(value, MOST_NAME) : "");

  // a colour by the colours' table's name (gamelib.colours.NAMES), in the page's language; its #rrggbb without one
  function colour(seat) {
    if (seat && typeof seat.colour_name === "string" && seat.colour_name) return _(seat.colour_name);
    return seat && typeof seat.colour === "string" ? data(seat.colour, 7) : "?";
  }

  // -- Connect 4: the seats and the match (sensehat_c4/match/words.py) ----------------------------------
  function owner(seat) {
    return name(seat.name) || format(_("player {seat}"), { seat: number(seat.seat) });
  }

  function seatLabel(seat, shown) {
    if (!seat) return "";
    const level = typeof seat.level === "string" ? shown(data(seat.level, 40)) : null;
    if (level !== null && seat.match_me) {
      return format(_("computer (match me: {number} {level}, {colour})"),
        { number: Number.isInteger(seat.number) ? seat.number : "?", level, colour: colour(seat) });
    }
    if (level !== null) return format(_("computer ({level}, {colour})"), { level, colour: colour(seat) });
    return format(_("{owner} ({colour})"), { owner: owner(seat), colour: colour(seat) });
  }

  const seatOf = (s, n) => (Array.isArray(s.seats) && Number.isInteger(n) ? s.seats[n - 1] || null : null);

  function where(s) {
    const score = Array.isArray(s.score) ? s.score : [0, 0];
    return format(_("round {number} ({first}-{second}, {size})"),
      { number: number(s.round), first: number(score[0]), second: number(score[1]), size: data(s.board, 8) });
  }

  function helpsCounts(hints, takebacks) {
    if (!hints && !takebacks) return _("no helps used");
    return format(_("{hints}, {takebacks}"), {
      hints: format(ngettext("{n} hint", "{n} hints", hints), { n: hints }),
      takebacks: format(ngettext("{n} take-back", "{n} take-backs", takebacks), { n: takebacks }),
    });
  }

  // the match's one line (the winner's, or the leader's, score first)
  function summary(s) {
    const score = Array.isArray(s.score) ? s.score.map(number) : [0, 0];
    const leader = Number.isInteger(s.winner) ? s.winner : score[0] > score[1] ? 1 : score[1] > score[0] ? 2 : 0;
    const [high, low] = [Math.max(score[0], score[1]), Math.min(score[0], score[1])];
    const seat = seatOf(s, leader);
    const who = leader ? (seat ? owner(seat) : format(_("player {seat}"), { seat: leader })) : "";
    if (s.result !== "abandoned") return format(_("{who} wins {high}-{low}"), { who, high, low });
    return format(leader ? _("abandoned at {high}-{low}, {who} ahead") : _("abandoned at {high}-{low}"), { who, high, low });
  }

  // the match's line with its number in the Pi's records ("match 3: Ann wins 2-1"; none: not recorded)
  function matchLine(s) {
    if (Number.isInteger(s.match)) return format(_("match {number}: {summary}"), { number: s.match, summary: summary(s) });
    return format(_("match not recorded: {summary}"), { summary: summary(s) });
  }

  function match(s, shown) {
    const at = where(s);
    const turn = seatOf(s, s.turn);
    let text;
    if (s.phase === "playing" && turn) text = format(_("{where}: {label} to move"), { where: at, label: seatLabel(turn, shown) });
    else if (s.phase === "thinking" && turn) text = format(_("{where}: {label} is thinking"), { where: at, label: seatLabel(turn, shown) });
    else if (s.phase === "confirming" && s.take_back) {
      text = format(_("{where}: abandon the match? up again to confirm, down takes back your last move"), { where: at });
    } else if (s.phase === "confirming") text = format(_("{where}: abandon the match? up again to confirm"), { where: at });
    else if (s.result === "round" && seatOf(s, s.winner)) {
      text = format(_("{where}: {label} wins the round"), { where: at, label: seatLabel(seatOf(s, s.winner), shown) });
    } else if (s.result === "draw") text = format(_("{where}: a draw"), { where: at });
    else if (s.result === "match" || s.result === "abandoned") text = matchLine(s);
    else return null;
    if (Number.isInteger(s.hints) && Number.isInteger(s.takebacks)) {
      text = format(_("{text} ({helps})"), { text, helps: helpsCounts(s.hints, s.takebacks) });
    }
    return text;
  }

  // -- Connect 4: the choosers, the rules, the resume question -------------------------------------------
  function opponent(choice, shown) {
    if (choice === null || typeof choice !== "object") return _("rules");
    if (choice.kind === "human") return _("2 players");
    if (choice.kind === "lan") return _("over the LAN");
    if (choice.kind === "match-me") return _("computer: match me");
    return format(_("computer: {number} {level}"), { number: number(choice.number), level: shown(data(choice.level, 40)) });
  }

  function choosingOpponent(s, shown) {
    const label = opponent(s.opponent, shown);
    if (typeof s.about === "string" && s.about) {
      return format(_("choosing the opponent: {label}: {about}"), { label, about: shown(s.about) });
    }
    return format(_("choosing the opponent: {label}"), { label });
  }

  function choosingHelps(s) {
    const label = s.helps ? _("helps: hints and take-backs") : _("helps: none");
    const about = s.helps ? _("middle shows a hint, up then down takes a move back") : _("no hints, no take-backs");
    return format(_("choosing helps: {label}: {about}"), { label, about });
  }

  function resume(s, shown) {
    return format(_("resume? an interrupted match, {where}: {label} to move (middle or down: resume, up: start afresh)"),
      { where: where(s), label: seatLabel(seatOf(s, s.turn), shown) });
  }

  function replay(s) {
    const values = { round: number(s.round), shown: number(s.move), total: number(s.moves) };
    const at = format(s.ended ? _("round {round}: move {shown} of {total} (the end)") :
      s.paused ? _("round {round}: move {shown} of {total} (paused)") : _("round {round}: move {shown} of {total}"), values);
    return format(_("replay of {where}"), { where: at });
  }

  // -- Connect 4: training (sensehat_c4/study/training.py) ----------------------------------------------
  function columns(list) {
    const names = list.map((c) => String(number(c)));
    if (names.length <= 1) return names.join("");
    return format(_("{some} and {last}"), { some: names.slice(0, -1).join(_(", ")), last: names[names.length - 1] });
  }

  function side(winner, shown) {   // a recorded side (sensehat_c4.records.Side.label)
    const seat = number(winner && winner.seat);
    if (winner && typeof winner.level === "string") {
      const level = shown(data(winner.level, 40));
      if (typeof winner.seconds !== "number") return format(_("computer {level}"), { level });
      return format(_("computer {level} ({seconds:g} s)"), { level, seconds: winner.seconds });
    }
    const who = (winner && name(winner.name)) || format(_("player {seat}"), { seat });
    return winner && winner.remote ? format(_("{name} (remote)"), { name: who }) : who;
  }

  function training(s, shown) {
    const step = { number: number(s.position), total: number(s.positions) };
    const find = s.goal === "win" ? _("find a move that keeps the win") : _("find a move that keeps the draw");
    if (s.step === "review") return format(_("reviewing round {round}"), { round: number(s.round) });
    if (s.step === "position") {
      return format(_("training {number} of {total}: {label} to move; {find}"), { ...step, label: seatLabel(s.turn, shown), find });
    }
    if (s.step === "try") {
      const outcome = s.outcome || {};
      const result = outcome.outcome === "win" ? _("wins") : outcome.outcome === "draw" ? _("draws") :
        format(_("loses ({who} wins in {moves})"), { who: side(outcome.winner, shown), moves: number(outcome.moves) });
      const keeping = Array.isArray(s.keeping) ? s.keeping : [];
      const keeps = s.goal === "win" ? ngettext("{columns} keeps the win", "{columns} keep the win", keeping.length) :
        ngettext("{columns} keeps the draw", "{columns} keep the draw", keeping.length);
      const text = s.right ? format(_("right: {column} {result}"), { column: number(s.tried), result }) :
        format(_("wrong: {column} {result}; {keeps}"), { column: number(s.tried), result, keeps: format(keeps, { columns: columns(keeping) }) });
      return format(_("training {number} of {total}: {text}"), { ...step, text });
    }
    const done = { right: number(s.right), tried: number(s.tried), total: number(s.positions) };
    return format(done.tried === done.total ? _("training over: {right} of {tried} right") :
      _("training over: {right} of {tried} right ({total} positions)"), done);
  }

  // -- Connect 4: the day's puzzle (sensehat_c4/study/puzzle.py) ----------------------------------------
  function puzzle(s) {
    const values = { id: data(s.puzzle, 16), n: number(s.try) };
    if (s.solved) {
      const text = format(_("puzzle {id} solved at try {n}"), values);
      return Number.isInteger(s.streak) ? format(_("{text}; {streak}"), { text, streak: format(ngettext("streak: {n} day", "streak: {n} days", s.streak), { n: s.streak }) }) : text;
    }
    if (s.right === false) {
      const winning = Array.isArray(s.winning) ? s.winning.map((c) => String(number(c))) : [];
      const wins = format(ngettext("column {columns} wins", "columns {columns} win", winning.length), { columns: winning.join(", ") });
      return format(_("puzzle {id}, try {n}: {column} does not win in time; {columns}"), { ...values, column: number(s.tried), columns: wins });
    }
    const task = format(ngettext("{player} to move: win with this stone", "{player} to move: win within {n} stones", number(s.left)),
      { player: colour(s), n: number(s.left) });
    return format(_("puzzle {id}, try {n}: {task}"), { ...values, task });
  }

  // -- Connect 4: the games not recorded (sensehat_c4/records/access.py's REASONS, code for code) -------
  const path = (value) => (typeof value === "string" ? data(value, MOST_PATH) : "?");
  const REASONS = {
    "directory": (s) => format(_("{name} is a directory"), { name: path(s.name) }),
    "not-regular": (s) => format(_("{name} is not a regular file"), { name: path(s.name) }),
    "read-only": (s) => format(_("{place} is read-only"), { place: path(s.place) }),
    "no-folder": (s) => format(_("the folder {folder} does not exist"), { folder: path(s.folder) }),
    "EACCES": () => _("Permission denied"),
    "EPERM": () => _("Operation not permitted"),
    "EROFS": () => _("Read-only file system"),
    "ENOSPC": () => _("No space left on device"),
    "EDQUOT": () => _("Disk quota exceeded"),
    "ENAMETOOLONG": () => _("File name too long"),
    "ENOENT": () => _("No such file or directory"),
    "ENOTDIR": () => _("Not a directory"),
    "EISDIR": () => _("Is a directory"),
    "ELOOP": () => _("Too many levels of symbolic links"),
    "EEXIST": () => _("File exists"),
    "EIO": () => _("Input/output error"),
    "EBUSY": () => _("Device or resource busy"),
    "ENXIO": () => _("No such device or address"),
    "EMFILE": () => _("Too many open files"),
    "ENFILE": () => _("Too many open files in system"),
    "ENOMEM": () => _("Cannot allocate memory"),
    "ESTALE": () => _("Stale file handle"),
  };

  // the reason worded here by its code; a code this page does not know, or none: the Pi's words (`why`)
  function unrecorded(s) {
    const why = typeof s.reason === "string" && has(REASONS, s.reason) ? REASONS[s.reason](s) :
      typeof s.why === "string" ? data(s.why, MOST_TEXT) : null;
    return why === null ? null : format(_("games are not being recorded: {why}"), { why });
  }

  // -- gamelib: the launcher's menu, the LAN's screens, a phone waited for -------------------------------
  function language(code) {
    if (code === "auto") return _("auto");
    const found = (typeof SWITCH === "object" ? SWITCH.choices : []).find(([choice]) => choice === code);
    return found ? found[1] : data(code, 16);
  }

  function menuItem(s, shown) {
    if (s.screen === "confirm") return _("shut down? down or middle: yes, up: no");
    if (s.screen === "system") {
      switch (s.setting) {
        case "light": return s.low_light ? _("brightness: low") : _("brightness: high");
        case "rotation": return format(_("rotation: {degrees}"), { degrees: number(s.rotation) });
        case "quit": return _("quit");
        case "palette": return format(_("colours: {name}"), { name: data(s.palette, 40) });
        case "language": return format(_("language: {name}"), { name: language(s.language) });
        case "poweroff": return s.poweroff_failed ? _("shut down (it failed last time)") : _("shut down");
        default: return null;
      }
    }
    if (s.entry === null) return _("no games are installed");
    if (!has(s, "entry") || typeof s.entry !== "object") return null;
    const game = shown(data(s.entry.name, 60));
    return s.entry.playable ? game : format(_("{game} (cannot be played)"), { game });
  }

  function menu(s, shown) {
    const item = menuItem(s, shown);
    if (item === null) return null;
    const said = { awake: _("menu: {item}"), dim: _("menu: {item} (dimmed)"), blank: _("menu: {item} (LEDs off)") }[s.idle];
    return said ? format(said, { item }) : null;
  }

  function lan(s, shown) {
    const who = name(s.name) || "?";
    switch (s.screen) {
      case "offering": return format(_("{name} offers {game} on the LAN: waiting for a guest (up: leave)"), { name: who, game: shown(data(s.game, 60)) });
      case "request": return format(_("{name} at {address} asks to play: middle accepts, up refuses"), { name: who, address: data(s.address, 64) });
      case "searching": return _("looking for games on the LAN (up: leave)");
      case "found": return format(_("a game on the LAN: {name} ({number} of {count}; middle asks to play, left/right: browse, up: leave)"),
        { name: who, number: number(s.number), count: number(s.count) });
      case "asking": return format(_("asking {name}: waiting for the answer at {name}'s Pi (up: give up)"), { name: who });
      case "refused": return format(_("{name}: {why}"), { name: who, why: data(s.reason, MOST_DATA) });
      case "away": return format(_("the link to {name} dropped: waiting for it to come back (the match is abandoned after {seconds} s; up: abandon now)"),
        { name: who, seconds: number(s.seconds) });
      case "left": return s.reason === "left" ? format(_("{name} left"), { name: who }) :
        s.reason === "is gone" ? format(_("{name} is gone"), { name: who }) : null;
      default: return null;
    }
  }

  function waiting(s) {
    const seat = number(s.phone);
    return format(_("waiting for {who}'s phone: its page is closed; seat {seat} goes back to the stick in {seconds:g} s (middle: now)"),
      { who: name(s.name) || format(_("player {seat}"), { seat }), seat, seconds: number(s.seconds) });
  }

  const PHASES = {
    "choosing opponent": choosingOpponent,
    "rules": (s, shown) => (typeof s.rules === "string" ? shown(s.rules) : null),
    "choosing size": (s) => format(_("choosing the board size: {size}"), { size: data(s.choice, 8) }),
    "choosing helps": choosingHelps,
    "playing": match, "thinking": match, "confirming": match, "result": match,
    "resume": resume,
    "replay": replay,
    "training": training,
    "puzzle": puzzle,
    "unrecorded": unrecorded,
    "menu": menu,
    "lan": lan,
    "waiting": waiting,
  };

  // the line for status `s` (null: no words yet); `shown(value)` says a game's value in the page's language
  function line(s, shown = (value) => value) {
    if (!s || typeof s !== "object") return null;
    const said = has(PHASES, s.phase) ? PHASES[s.phase](s, shown) : null;
    return said === null ? data(s.text, MOST_TEXT) : said;   // a phase not known here: the Pi's own words
  }

  return { line, seatLabel, summary, colour, name, PHASES, REASONS };
})();
