// live_worker.js — the live book's runner. It runs after the module's own JavaScript (LiveBook,
// made by em++ from src/web/live_book.cpp and the chapters), in the page's Web Worker, so a long
// computation never freezes the page; tests/web/live_book_node.js runs the same code under node.
//
// runChapter() starts a fresh copy of the module for every run — every static and every byte
// of memory as a new program's — writes the files it is given into its file system (the
// reader's data file), runs the chapter with the arguments it is given and hands back what the
// program printed and the files it asked for (the page written). The module is compiled once
// (compile()), from the WebAssembly bytes the page hands over in base64.
"use strict";

let compiledModule = null;

async function compile(wasmBase64) {
  const text = atob(wasmBase64), bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
  compiledModule = await WebAssembly.compile(bytes);
}

// request: {args, files, read}: the program's arguments (the chapter's name first, as
// src/web/live_book.cpp takes them), files to write before it starts ({path: text}), files to
// read after it ends ([path]), and keep, a folder whose files to hand back whole (--cache's).
// Answers {status, stdout, stderr, read: {path: text or null}, kept: {path: text}, ms}.
async function runChapter(request) {
  const started = Date.now();
  const stdout = [], stderr = [];
  const module = await LiveBook({
    noInitialRun: true,
    print: (line) => stdout.push(line),
    printErr: (line) => stderr.push(line),
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(compiledModule, imports).then((instance) => done(instance, compiledModule));
      return {};
    },
  });
  for (const [path, text] of Object.entries(request.files || {})) {
    const folders = path.split("/").slice(0, -1);
    for (let i = 1; i <= folders.length; ++i) {
      const folder = folders.slice(0, i).join("/");
      if (!module.FS.analyzePath(folder).exists) module.FS.mkdir(folder);
    }
    module.FS.writeFile(path, text);
  }
  let status;
  try {
    status = module.callMain(request.args);
  } catch (e) {  // the program ended by exit(): its status; anything else is a fault of ours
    if (e && e.name === "ExitStatus") status = e.status;
    else throw e;
  }
  const read = {};
  for (const path of request.read || []) {
    try { read[path] = module.FS.readFile(path, { encoding: "utf8" }); } catch (e) { read[path] = null; }
  }
  let kept = null;  // request.keep, a folder: every file in it, to give to the next run
  if (request.keep && module.FS.analyzePath(request.keep).exists) {
    kept = {};
    for (const name of module.FS.readdir(request.keep))
      if (name !== "." && name !== "..")
        kept[request.keep + "/" + name] = module.FS.readFile(request.keep + "/" + name, { encoding: "utf8" });
  }
  return {
    status,
    stdout: stdout.map((line) => line + "\n").join(""),
    stderr: stderr.map((line) => line + "\n").join(""),
    read,
    kept,
    ms: Date.now() - started,
  };
}

// In a Web Worker: {wasm: bytes} compiles, then each {id, ...request} is answered with
// {id, ...result}, or {id, fault} where the module itself failed.
if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  let ready = null;
  self.onmessage = async (event) => {
    const message = event.data;
    if (message.wasm) {
      ready = compile(message.wasm);
      return;
    }
    try {
      await ready;
      self.postMessage(Object.assign({ id: message.id }, await runChapter(message)));
    } catch (e) {
      self.postMessage({ id: message.id, fault: String(e && e.stack ? e.stack : e) });
    }
  };
}
