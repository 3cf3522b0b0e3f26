#!/usr/bin/env node
// Lets xqdiff check a JavaScript library (docs/moves-protocol.md): copy it, edit the EDIT lines.
// An ES module: it runs beside this folder's package.json ("type": "module") or renamed .mjs.
import { basename } from "node:path";
import { createInterface } from "node:readline";
import GameState from "./jxiangqi/src/game_state.js"; // its src/, fetched beside this one (docs/real-bugs.md)
function legalMoves(fen, moves) { // EDIT the body, one or two lines: fen's legal moves, such as "h2e2"
  const [placement, side] = fen.split(" "), kinds = { r: "ju", n: "ma", b: "xiang", a: "shi", k: "jiang", c: "pao", p: "zu" };
  const squares = placement.split("/").flatMap((row, y) => [...row.replace(/\d/g, (n) => "1".repeat(n))].map((c, x) => ({ id: "abcdefghi"[x] + (10 - y), x, y,
    piece: c === "1" ? null : { id: 100 * y + x, player_number: c === c.toUpperCase() ? 1 : 2, type: kinds[c.toLowerCase()] } })));
  const state = new GameState({ current_player_number: side === "w" ? 1 : 2, squares }), me = state.currentPlayerNumber, uci = (id) => id[0] + (Number(id.slice(1)) - 1);
  // No move list in its API: each piece's destinations, less those its own check test refuses (Move._putsJiangInCheck).
  return state.squares.occupiedByPlayer(me).squares.flatMap((from) => from.piece.destinations(from, state).squares
    .filter((to) => { const next = state.dup; next.move(from.id, to.id); return !next.inCheck(me); }).map((to) => uci(from.id) + uci(to.id)));
}
// OPTIONAL lines: uncomment the ones your library can serve, edit them, add their words.
const OFFERS = ""; // OPTIONAL: the words served, such as " play pseudo check"
// play: legalMoves has the library play `moves` ("h2e2" ...) from fen first, so its
// make is checked too (without it, `moves` is always empty). With the two below,
// `--compare pseudo-legal` checks the pseudo-legal moves and the check test apart:
// const pseudoMoves = (fen, moves) => library.pseudoLegalMoves(fen, moves); // pseudo
// const inCheck = (fen) => library.inCheck(fen); // check: side to move's king attacked?
for await (const line of createInterface({ input: process.stdin })) {
  const [request, ...words] = line.trim().split(/\s+/);
  const at = words.indexOf("moves");
  const fen = (at < 0 ? words : words.slice(0, at)).join(" ");
  const moves = at < 0 ? [] : words.slice(at + 1);
  if (request === "quit") break;
  let reply = "ok name=" + basename(process.argv[1], ".js") + OFFERS;
  try { // a crash in the library is one "error" line that xqdiff reports, not a hang
    if (request === "legal") reply = legalMoves(fen, moves).join(" ");
    else if (request === "pseudo") reply = pseudoMoves(fen, moves).join(" ");
    else if (request === "check") reply = inCheck(fen) ? "yes" : "no";
  } catch (e) {
    reply = "error " + String(e).split(/\s+/).join(" ");
  }
  process.stdout.write(reply + "\n");
}
