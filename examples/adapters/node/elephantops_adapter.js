#!/usr/bin/env node
// Lets xqdiff check a JavaScript library (docs/moves-protocol.md): copy it, edit the EDIT lines.
// An ES module: it runs beside this folder's package.json ("type": "module") or renamed .mjs.
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { Xiangqi, fen as FEN, makeUci } from "elephantops";
function legalMoves(fen) { // EDIT the body, one or two lines: fen's legal moves, such as "h2e2"
  const position = Xiangqi.fromSetup(FEN.parseFen(fen).unwrap()).unwrap();
  return [...position.allDests()].flatMap(([from, tos]) => [...tos].map((to) => makeUci({ from, to })));
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
