// pack_live_book.js — writes the live book's one script (make web): the module's JavaScript
// (em++'s, LiveBook) with live_worker.js after it as one string, LIVE_BOOK_SOURCE, which the
// page turns into its Web Worker; and the module's WebAssembly in base64, LIVE_BOOK_WASM, which
// the worker compiles once. One <script> tag loads both, from file:// as from any static host.
// usage: node pack_live_book.js MODULE.js MODULE.wasm live_worker.js > live_book.js
"use strict";
const fs = require("fs");
const [js, wasm, worker] = process.argv.slice(2);
process.stdout.write(
  "// the live book (make web): " + js + " and " + worker + " as one string, " + wasm +
  " in base64\n" +
  "self.LIVE_BOOK_SOURCE = " +
  JSON.stringify(fs.readFileSync(js, "utf8") + "\n" + fs.readFileSync(worker, "utf8")) + ";\n" +
  "self.LIVE_BOOK_WASM = \"" + fs.readFileSync(wasm).toString("base64") + "\";\n");
