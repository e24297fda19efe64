// live_book_node.js — runs chapters in the live book's module under node, through the same
// runChapter() as the page's Web Worker: build/book/live/live_book.js, exactly as shipped,
// compiled once for all the runs it is given.
// usage: node tests/web/live_book_node.js BOOK_JS [--file INSIDE=REAL]... -- ARGS...
//          one run: each --file puts a real file's text into the module's file system at INSIDE
//          (a data file to give with --data INSIDE); ARGS are the module's (the chapter's name
//          first). Prints what the program printed, exits with its status; with --html DIR in
//          ARGS the page the chapter wrote is copied to the real DIR.
//        node tests/web/live_book_node.js BOOK_JS --runs LIST.json
//          many runs: LIST is [{args, files: {INSIDE: REAL}, out, err}], each run's standard
//          output and error written to the real files out and err, and its status appended to
//          err's name + ".status". Exits 0 when every run could be made.
"use strict";
const fs = require("fs"), path = require("path"), vm = require("vm");
const argv = process.argv.slice(2);
const book = argv[0];

const context = { console, WebAssembly, atob, Date, TextDecoder, TextEncoder, Uint8Array,
                  setTimeout, clearTimeout, performance, crypto: globalThis.crypto };
context.self = context;
context.importScripts = () => {};  // what the module's glue looks for to know it is in a worker
context.location = { href: "file://" + path.resolve(book) };
vm.createContext(context);
vm.runInContext(fs.readFileSync(book, "utf8"), context);
vm.runInContext(context.LIVE_BOOK_SOURCE, context, { filename: "live_book" });

async function run(args, realFiles, read) {
  const files = {};
  for (const [inside, real] of Object.entries(realFiles)) files[inside] = fs.readFileSync(real, "utf8");
  context.request = { args, files, read };
  return vm.runInContext("runChapter(request)", context);
}

(async () => {
  await vm.runInContext("compile(LIVE_BOOK_WASM)", context);
  if (argv[1] === "--runs") {
    for (const r of JSON.parse(fs.readFileSync(argv[2], "utf8"))) {
      const result = await run(r.args, r.files || {}, []);
      fs.writeFileSync(r.out, result.stdout);
      fs.writeFileSync(r.err, result.stderr);
      fs.writeFileSync(r.err + ".status", String(result.status) + "\n");
    }
    return;
  }
  const dash = argv.indexOf("--"), options = argv.slice(1, dash), args = argv.slice(dash + 1);
  const realFiles = {};
  for (let i = 0; i < options.length; i += 2) {
    const [inside, real] = options[i + 1].split("=");
    realFiles[inside] = real;
  }
  const html = args.indexOf("--html");
  const read = html >= 0 ? [args[html + 1] + "/" + args[0] + ".html"] : [];
  const r = await run(args, realFiles, read);
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  for (const p of read)
    if (r.read[p] !== null) {
      fs.mkdirSync(args[html + 1], { recursive: true });
      fs.writeFileSync(path.join(args[html + 1], path.basename(p)), r.read[p]);
    }
  process.exitCode = r.status;
})();
