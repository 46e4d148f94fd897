// What the games played and a round's pages both say, from the API's values (GET /api/history's and
// /api/round's players, status, winner, score and each round's result) in the page's words
// (/records-words.js: _, ngettext, format, and word() for a stored value: a level's name, "match-me").  No
// library, no build step.
"use strict";

// "Ann", "player 2", "Bob (remote)", "computer hard (1 s)": a player as `sensehat-c4 history` names it
function playerLabel(player, seat) {
  if (player.level !== null && player.level !== undefined) {
    return player.seconds === null || player.seconds === undefined
      ? format(_("computer {level}"), { level: word(player.level) })
      : format(_("computer {level} ({seconds} s)"), { level: word(player.level), seconds: player.seconds });
  }
  const name = player.name || format(_("player {seat}"), { seat });
  return player.remote ? format(_("{name} (remote)"), { name }) : name;
}

// "Ann wins 2-1" (the winner's score first), "abandoned at 1-0" or "playing, 1-0"
function matchResult(match) {
  const [one, two] = match.score;
  if (match.status === "finished" && match.winner) {
    const [won, lost] = match.winner === 1 ? [one, two] : [two, one];
    return format(_("{name} wins {won}-{lost}"), { name: playerLabel(match.players[String(match.winner)], match.winner),
      won, lost });
  }
  return format(match.status === "abandoned" ? _("abandoned at {one}-{two}") : _("playing, {one}-{two}"), { one, two });
}

// "Ann won", "draw", "in play" or "abandoned"
function roundResult(match, round) {
  if (round.result === "win" && round.winner) {
    return format(_("{name} won"), { name: playerLabel(match.players[String(round.winner)], round.winner) });
  }
  return { draw: _("draw"), playing: _("in play") }[round.result] || _("abandoned");
}

// what a page says when the API refuses (its "error" code: docs/API.md)
function refused(status, data) {
  const words = {
    not_found: _("This round is not recorded."),
    bad_request: _("Not a round of the history (a number from the games played, or last)."),
    records: _("The games database cannot be read (the game's log says why)."),
    busy: _("Busy: trying again\u2026"),
  };
  return words[data && data.error] || format(_("Refused ({status})."), { status });
}

// "2 hints, 1 take-back" for a round played with helps (its hints and takebacks), else ""
function helpsText(round) {
  const hints = round.hints || 0;
  const takebacks = round.takebacks || 0;
  if (!hints && !takebacks) return "";
  return format(_("{hints}, {takebacks}"), {
    hints: format(ngettext("{n} hint", "{n} hints", hints), { n: hints }),
    takebacks: format(ngettext("{n} take-back", "{n} take-backs", takebacks), { n: takebacks }),
  });
}
