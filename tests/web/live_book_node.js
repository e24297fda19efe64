// live_book_node.js — runs a chapter in the live book's module under node, through the same
// runChapter() as the page's Web Worker: build/book/live/live_book.js, exactly as shipped.
// usage: node tests/web/live_book_node.js BOOK_JS [--file MODULE_PATH=REAL_PATH]... -- ARGS...
//   each --file puts a real file's text into the module's file system at MODULE_PATH before the
//   run (a data file to give with --data MODULE_PATH); ARGS are the module's (the chapter's name
//   first). Prints the program's output and errors as it printed them, exits with its status;
//   --html DIR in ARGS: the page the chapter wrote is copied to the real DIR.
"use strict";
const fs = require("fs"), path = require("path"), vm = require("vm");
const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const book = argv[0], options = argv.slice(1, dash), args = argv.slice(dash + 1);
const files = {};
for (let i = 0; i < options.length; i += 2) {
  const [inside, real] = options[i + 1].split("=");
  files[inside] = fs.readFileSync(real, "utf8");
}
const html = args.indexOf("--html");
const read = html >= 0 ? [args[html + 1] + "/" + args[0] + ".html"] : [];

const context = { console, WebAssembly, atob, Date, TextDecoder, TextEncoder, Uint8Array,
                  setTimeout, clearTimeout, performance, crypto: globalThis.crypto };
context.self = context;
context.importScripts = () => {};  // what the module's glue looks for to know it is in a worker
context.location = { href: "file://" + path.resolve(book) };
vm.createContext(context);
vm.runInContext(fs.readFileSync(book, "utf8"), context);
vm.runInContext(context.LIVE_BOOK_SOURCE, context, { filename: "live_book" });
(async () => {
  await vm.runInContext("compile(LIVE_BOOK_WASM)", context);
  context.request = { args, files, read };
  const r = await vm.runInContext("runChapter(request)", context);
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  for (const p of read)
    if (r.read[p] !== null) {
      fs.mkdirSync(args[html + 1], { recursive: true });
      fs.writeFileSync(path.join(args[html + 1], path.basename(p)), r.read[p]);
    }
  process.exitCode = r.status;
})();
