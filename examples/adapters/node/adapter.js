#!/usr/bin/env node
// Lets xqdiff check a JavaScript library (docs/moves-protocol.md): copy it, edit the EDIT lines.
// An ES module: it runs beside this folder's package.json ("type": "module") or renamed .mjs.
import { basename } from "node:path";
import { createInterface } from "node:readline";
// EDIT: import the library to check
function legalMoves(fen) { // EDIT the body, one or two lines: fen's legal moves, such as "h2e2"
  throw new Error(`${process.argv[1]}: legalMoves() calls no library yet`);
}
for await (const line of createInterface({ input: process.stdin })) {
  const [request, ...fen] = line.trim().split(/\s+/);
  if (request === "quit") break;
  let reply = "ok name=" + basename(process.argv[1], ".js");
  try { // a crash in the library is one "error" line that xqdiff reports, not a hang
    if (request === "legal") reply = legalMoves(fen.join(" ")).join(" ");
  } catch (e) {
    reply = "error " + String(e).split(/\s+/).join(" ");
  }
  process.stdout.write(reply + "\n");
}
