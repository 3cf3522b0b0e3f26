#!/usr/bin/env node
// Lets xqdiff check a JavaScript library (docs/moves-protocol.md): copy it, edit the EDIT lines.
// An ES module: it runs beside this folder's package.json ("type": "module") or renamed .mjs.
import { basename } from "node:path";
import { createInterface } from "node:readline";
// EDIT: import the library to check
function legalMoves(fen, moves) { // EDIT the body, one or two lines: fen's legal moves, such as "h2e2"
  throw new Error(`${process.argv[1]}: legalMoves() calls no library yet`);
}
const NAME = ""; // EDIT: what it checks, as reports name it, such as "elephantops-0.1.1"
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
  // Unnamed, it is named by its file, .js or .mjs (a copy renamed to run without the
  // package.json beside it) left off.
  const name = NAME || basename(process.argv[1]).replace(/\.[cm]?js$/, "");
  let reply = "ok name=" + name.split(/\s+/).join("-") + OFFERS;
  try { // a crash in the library is one "error" line that xqdiff reports, not a hang
    if (request === "legal") reply = legalMoves(fen, moves).join(" ");
    else if (request === "pseudo") reply = pseudoMoves(fen, moves).join(" ");
    else if (request === "check") reply = inCheck(fen) ? "yes" : "no";
  } catch (e) {
    reply = "error " + String(e).split(/\s+/).join(" ");
  }
  process.stdout.write(reply + "\n");
}
