// live_page.js — makes a page of the live book live (a chapter's page written with --html DIR
// --live). Above the walkthrough it adds a panel to change the chapter's inputs: a grid for each
// small matrix, a switch for each true/false and each row of them (masks), a box for each number
// (heads, sizes), and the whole data file as JSON for the rest. Recompute runs the chapter's own
// program, compiled to WebAssembly (live_book.js beside this file; live_poet.js for the poet's
// pages, chapters 12 and 14), in a Web Worker — the page
// never freezes — with the edited file; the page it writes replaces the walkthrough in place, and
// every part that differs from the run on the shipped inputs is marked. The panel's words come
// from the page (the catalog translated them); the check line and any error line are the
// program's own.
(function () {
  "use strict";
  const body = document.body, chapter = body.dataset.chapter;
  const pageLanguage = body.dataset.lang.startsWith("zh") ? "zh" : "en";
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  const words = JSON.parse(document.getElementById("live-words").textContent);
  // "{}" in order, or "{1}", "{2}" by position (the catalog numbers them where Chinese reorders)
  const fill = (pattern, ...args) => {
    let next = 0;
    return pattern.replace(/\{([1-9]?)\}/g, (_, n) => String(n ? args[Number(n) - 1] : args[next++]));
  };
  const element = (tag, attributes, ...children) => {
    const e = document.createElement(tag);
    Object.assign(e, attributes || {});
    for (const c of children) e.append(c);
    return e;
  };

  const style = element("style", {}, `
.live { border: 1px solid #9bb; background: #f4fafa; padding: 0.5rem 0.8rem; margin: 1rem 0; }
.live h2 { margin-top: 0.3rem; } .live .controls { display: flex; flex-wrap: wrap; gap: 0 1.5rem; } .live textarea { width: 100%; height: 14rem; font-size: 0.8rem;
  font-family: "DejaVu Sans Mono", monospace; } .live .control { margin: 0.4rem 0; }
.live .control > span { font-family: monospace; margin-right: 0.5rem; }
.live table input[type=text] { width: 4.2rem; text-align: right; font-variant-numeric: tabular-nums; }
.live td, .live th { padding: 0.05rem 0.2rem; border: none; } .live .buttons { margin: 0.5rem 0; }
.live button { font-size: 1rem; margin-right: 0.5rem; } .live .status { white-space: pre-wrap; }
.live .status.error { color: #a00; font-family: monospace; }
.moved, .live input.edited { background: #fff1a8 !important; } .live input.edited { outline: 2px solid #f0c000; } figure.moved { outline: 3px solid #f0c000; }`);
  document.head.append(style);

  const walkthrough = document.getElementById("walkthrough");
  // In the browser a chapter runs on one thread, its multiply-adds done in software: many times
  // slower than the native build (chapter 9 in full, a second and a half natively, did not end
  // in five minutes under node). Its long measurements start shorter here (the panel says which,
  // and how to run them in full): chapter 9's timings, memory table and the training behind its
  // stopping rules, chapter 11's memory table.
  const shorter = {
    ch09_decoding: { "inputs.timing_lengths": [16, 32, 64], "inputs.memory_lengths": [128, 512, 2048],
                     "inputs.stopping.training.max_steps": 10 },
    ch11_long_sequences: { "inputs.memory.lengths": [64, 128, 256, 512, 1024], "inputs.memory.d_k": 16 },
  }[chapter] || {};
  const panel = element("section", { className: "live", id: "live" });
  panel.hidden = true;
  walkthrough.before(panel);
  const status = element("p", { className: "status" });
  const say = (text, isError) => {
    status.textContent = text;
    status.className = "status" + (isError ? " error" : "");
    panel.hidden = false;
  };

  // --- the worker: the module's code and live_worker.js from LIVE_BOOK_SOURCE, as a Blob (a
  // page opened from file:// may not start a worker from a file) --------------------------------
  let worker = null, nextId = 1;
  const waiting = new Map();
  const run = (request) => new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    worker.postMessage(Object.assign({ id }, request));
  });
  // the poet's pages load their own module (chapters 12 and 14 bring training, n-gram and
  // head-measuring code the other pages need not load)
  const poetPage = chapter === "ch12_gpt" || chapter === "ch14_inside_the_poet";
  const moduleFile = here + (poetPage ? "live_poet.js" : "live_book.js");
  const script = element("script", { src: moduleFile });
  script.onerror = () => say(fill(words.no_module, moduleFile), true);
  script.onload = async () => {
    await poetLoaded;
    if (poetPage && !self.LIVE_POET) return say(fill(words.no_poet, here + "poet.js"), true);
    const source = new Blob([self.LIVE_BOOK_SOURCE], { type: "text/javascript" });
    worker = new Worker(URL.createObjectURL(source));
    worker.onmessage = (event) => {
      const resolve = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      resolve(event.data);
    };
    worker.postMessage({ wasm: self.LIVE_BOOK_WASM });
    const listed = await run({ args: ["--list"] });
    if (listed.fault) return say(fill(words.fault, listed.fault), true);
    if (!listed.stdout.split("\n").includes(chapter)) return say(fill(words.not_live, chapter), true);
    for (const button of panel.querySelectorAll(".buttons button")) button.disabled = false;
    body.dataset.live = "ready";  // the browser test waits for this
    if (poetPage) return;  // nothing to compare a poem with
    // While the reader reads, the starting inputs run once in the background: what a recompute is
    // compared with, and a long computation that depends on few inputs (chapter 2's width sweep)
    // kept (--cache) for every recompute that leaves those inputs alone.
    const warming = Date.now();
    baseline(pageLanguage).then(() => { body.dataset.warm = String(Date.now() - warming); });
  };

  // --- the panel -------------------------------------------------------------------------------
  // shippedText: the chapter's data file; startText: what the panel starts from and goes back
  // to (the shipped file, with the measurements of `shorter` shortened)
  let shippedText = "", startText = "", textarea = null, language = null, recompute = null;

  function build(text) {
    shippedText = text;
    startText = text;
    if (Object.keys(shorter).length) {
      const data = JSON.parse(text);
      for (const [key, value] of Object.entries(shorter)) {
        const parent = at(data, key.split(".").slice(0, -1).join("."));
        if (parent && key.split(".").pop() in parent) parent[key.split(".").pop()] = value;
      }
      startText = JSON.stringify(data, null, 1);
    }
    text = startText;
    textarea = element("textarea", { spellcheck: false, value: text });
    textarea.setAttribute("aria-label", words.data_file);
    const controls = element("div", { className: "controls" });
    const data = JSON.parse(text);
    addControls(controls, data.inputs, "inputs", data);
    recompute = element("button", { type: "button", textContent: words.recompute });
    const reset = element("button", { type: "button", textContent: words.reset });
    language = element("select", {}, element("option", { value: "en", textContent: "English" }),
                       element("option", { value: "zh", textContent: "中文" }));
    language.value = pageLanguage;
    language.setAttribute("aria-label", words.language);
    recompute.onclick = () => recomputeNow();
    reset.onclick = () => {
      textarea.value = startText;
      panel.querySelector(".controls").replaceWith(controlsFor(startText));
      recomputeNow();
    };
    const shortened = Object.keys(shorter).join(", ");
    panel.append(element("h2", { textContent: words.heading }),
                 element("p", { textContent: words.intro }),
                 ...(shortened ? [element("p", { textContent: fill(words.shorter, shortened, chapter) })] : []),
                 controls,
                 element("details", {}, element("summary", { textContent: words.data_file }), textarea),
                 element("div", { className: "buttons" }, recompute, reset,
                         element("label", {}, words.language + " ", language)),
                 status);
    panel.hidden = false;
    recompute.disabled = true;  // until the module is ready
  }

  function controlsFor(text) {
    const controls = element("div", { className: "controls" });
    addControls(controls, JSON.parse(text).inputs, "inputs", JSON.parse(text));
    return controls;
  }

  // The value at a dotted path of the data file (keys never hold dots in these files).
  const at = (data, path) => path.split(".").reduce((o, k) => (o == null ? o : o[k]), data);

  // The reader's edit of one input written into the data file in the textarea.
  function edit(path, row, column, value) {
    let data;
    try { data = JSON.parse(textarea.value); } catch (e) { return say(fill(words.not_json, e.message), true); }
    const parent = at(data, path.split(".").slice(0, -1).join(".")), key = path.split(".").pop();
    if (row === null) parent[key] = value;
    else if (column === null) parent[key][row] = value;
    else parent[key][row][column] = value;
    textarea.value = JSON.stringify(data, null, 1);
  }

  // What a box holds: a number where it reads as one, else the text as typed (the program then
  // says in its own error line what it expected).
  const typed = (text) => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text);

  const isNumber = (x) => typeof x === "number";
  const isBool = (x) => typeof x === "boolean";
  const small = (rows, columns) => rows <= 16 && columns <= 16 && rows * columns <= 144;

  // Labels for the rows of a matrix: its tokens where a sibling list of that length names them.
  function rowLabels(parent, key, rows) {
    for (const name of [key + "_tokens", key.replace(/^x$/i, "") + "tokens", "tokens", "source_tokens"]) {
      const labels = parent[name];
      if (Array.isArray(labels) && labels.length === rows && labels.every((t) => typeof t === "string"))
        return labels;
    }
    return null;
  }

  // A table of boxes (or switches) for a matrix, or for a list as one row (oneRow).
  function grid(path, matrix, labels, asSwitches, oneRow) {
    const table = element("table");
    matrix.forEach((row, r) => {
      const tr = element("tr", {}, element("th", { textContent: labels ? labels[r] : oneRow ? "" : String(r) }));
      row.forEach((x, c) => {
        const input = asSwitches ? element("input", { type: "checkbox", checked: x })
                                 : element("input", { type: "text", value: String(x) });
        input.setAttribute("aria-label", path + "[" + r + "][" + c + "]");
        const value = () => (asSwitches ? input.checked : typed(input.value));
        input.onchange = () => {
          input.classList.add("edited");
          oneRow ? edit(path, c, null, value()) : edit(path, r, c, value());
        };
        tr.append(element("td", {}, input));
      });
      table.append(tr);
    });
    return element("div", { className: "scroll" }, table);
  }

  function addControls(into, node, path, data) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const here = path + "." + key;
      const label = element("span", { textContent: here });
      if (isBool(value)) {
        const box = element("input", { type: "checkbox", checked: value });
        box.setAttribute("aria-label", here);
        box.onchange = () => { box.classList.add("edited"); edit(here, null, null, box.checked); };
        into.append(element("div", { className: "control" }, label, box));
      } else if (isNumber(value)) {
        const box = element("input", { type: "text", value: String(value), size: 8 });
        box.setAttribute("aria-label", here);
        box.onchange = () => { box.classList.add("edited"); edit(here, null, null, typed(box.value)); };
        into.append(element("div", { className: "control" }, label, box));
      } else if (Array.isArray(value) && value.length > 0 && value.every(isBool) && value.length <= 16) {
        into.append(element("div", { className: "control" }, label,
                            grid(here, [value], null, true, true)));
      } else if (Array.isArray(value) && value.length > 0 && value.every(isNumber) && value.length <= 16) {
        into.append(element("div", { className: "control" }, label, grid(here, [value], null, false, true)));
      } else if (Array.isArray(value) && value.length > 0 && value.every((r) => Array.isArray(r) && r.length > 0 && r.every(isNumber)) &&
                 small(value.length, value[0].length)) {
        into.append(element("div", { className: "control" }, label,
                            grid(here, value, rowLabels(node, key, value.length), false, false)));
      } else if (!Array.isArray(value)) {
        addControls(into, value, here, data);
      }
    }
  }

  // --- the poet's pages: chapter 12 writes from the reader's prompt, chapter 14 reads the
  // reader's poem, with the poet make book ships (poet.js: the model in bfloat16 and the
  // pronunciation table, handed to the program as files at poet/) ------------------------------
  function buildPoet(text) {
    const inputs = JSON.parse(text).inputs;
    const writes = chapter === "ch12_gpt";
    const result = element("section", { className: "live-result" });
    panel.after(result);
    const labelled = (words_, input) => element("label", { className: "control" }, words_ + " ", input);
    const prompt = writes ? element("input", { type: "text", value: inputs.sampling.prompts[0], size: 24 })
                          : element("textarea", { value: inputs.poet.famous, spellcheck: false });
    if (!writes) prompt.style.height = "6rem";
    const rules = ["rhyme", "tones", "runs"].map((rule) => {
      const box = element("input", { type: "checkbox", checked: true });
      box.dataset.rule = rule;
      return box;
    });
    const seed = element("input", { type: "text", value: String(inputs.sampling ? inputs.sampling.seed : 0), size: 8 });
    recompute = element("button", { type: "button", textContent: writes ? words.write : words.read_heads });
    const another = element("button", { type: "button", textContent: words.another });
    language = element("select", {}, element("option", { value: "en", textContent: "English" }),
                       element("option", { value: "zh", textContent: "中文" }));
    language.value = pageLanguage;
    language.setAttribute("aria-label", words.language);
    const args = () => {
      const common = ["--weights", "poet/model.json", "--lang", language.value, "--html", "out", "--live"];
      if (!writes) return [chapter, "--poem", prompt.value, ...common];
      const kept = rules.filter((b) => b.checked).map((b) => b.dataset.rule);
      // the Tang table judges and keeps the verse where the poet's script has it
      const tang = self.LIVE_POET["poet/tang.txt"] ? ["--tang", "poet/tang.txt"] : [];
      return [chapter, "--write", "--pinyin", "poet/pinyin.txt", ...tang, "--prompt", prompt.value,
              "--form", kept.length ? kept.join(",") : "none", "--seed", seed.value.trim(), ...common];
    };
    const poemNow = async () => {
      const clicked = performance.now();
      recompute.disabled = another.disabled = true;
      say(words.computing);
      try {
        const r = await run({ args: args(), files: self.LIVE_POET, read: ["out/" + chapter + ".html"] });
        if (r.fault) return say(fill(words.fault, r.fault), true);
        const page = r.read["out/" + chapter + ".html"];
        if (r.status !== 0 || page === null)
          return say(fill(words.stopped, r.status) + "\n" + r.stderr.trim(), true);
        result.replaceChildren(...Array.from(mainOf(page).childNodes));
        body.dataset.timing = r.ms + " " + Math.round(performance.now() - clicked);
        say(fill(writes ? words.written : words.read, r.ms));
        body.dataset.recomputed = String(Number(body.dataset.recomputed || 0) + 1);
      } finally {
        recompute.disabled = another.disabled = false;
      }
    };
    recompute.onclick = () => poemNow();
    another.onclick = () => {
      seed.value = String((Number(seed.value) || 0) + 1);
      poemNow();
    };
    prompt.setAttribute("aria-label", writes ? words.prompt : words.poem);
    seed.setAttribute("aria-label", words.seed);
    panel.append(element("h2", { textContent: words.poet_heading }),
                 element("p", { textContent: writes ? words.poet_ch12 : words.poet_ch14 }),
                 element("div", { className: "controls" },
                         writes ? labelled(words.prompt, prompt) : element("div", { className: "control", style: "width: 100%" }, words.poem, prompt),
                         ...(writes ? [labelled(words.rhyme, rules[0]), labelled(words.tones, rules[1]),
                                       labelled(words.runs, rules[2]), labelled(words.seed, seed)] : [])),
                 element("div", { className: "buttons" }, recompute, ...(writes ? [another] : []),
                         element("label", {}, words.language + " ", language)),
                 status);
    panel.hidden = false;
    recompute.disabled = another.disabled = true;  // until the module is ready
  }

  // The panel at once, from the data file the page carries; the module (live_book.js about 2.6
  // MB, 0.9 MB gzipped) loads after it, and Recompute waits for it (a poet's page loads its poet with it).
  (poetPage ? buildPoet : build)(document.getElementById("live-data").textContent);
  body.dataset.panel = String(Math.round(performance.now()));
  // a poet's page loads its poet at the same time; the module waits for it
  let poetLoaded = Promise.resolve();
  if (poetPage) {
    const poet = element("script", { src: here + "poet.js" });
    poetLoaded = new Promise((resolve) => { poet.onload = poet.onerror = resolve; });
    document.head.append(poet);
  }
  document.head.append(script);

  // --- recomputing -----------------------------------------------------------------------------
  let cacheFiles = {};  // --cache's files, kept between runs: a long sweep computed once

  // The run on the starting inputs in a language, what a recompute is compared with: computed in
  // the worker, once per language (the page's own walkthrough is the native run on the shipped
  // inputs, the same bits where nothing was shortened: make cross compares them).
  const baselines = {};
  function baseline(lang) {
    if (!baselines[lang])
      baselines[lang] = runOnce(lang, startText === shippedText ? null : startText).then((r) => {
        if (r.fault || r.status !== 0) throw new Error(r.fault || r.stderr);
        return mainOf(r.read["out/" + chapter + ".html"]);
      });
    return baselines[lang];
  }

  async function runOnce(lang, text) {
    const args = [chapter, "--lang", lang, "--html", "out", "--live", "--cache", "cache"];
    const files = Object.assign({}, cacheFiles);
    if (text !== null) {
      files["edited/" + chapter + ".json"] = text;
      args.push("--data", "edited/" + chapter + ".json");
    }
    const result = await run({ args, files, read: ["out/" + chapter + ".html"], keep: "cache" });
    if (result.kept) cacheFiles = result.kept;
    return result;
  }

  const mainOf = (html) => new DOMParser().parseFromString(html, "text/html").getElementById("walkthrough");

  // The parts a reader reads one by one, in page order; a picture counts as one part.
  const parts = (main) => Array.from(main.querySelectorAll("h2, p, pre, th, td, figcaption, li, svg"));

  function markMoved(now, before) {
    const a = parts(now), b = parts(before);
    let moved = 0;
    a.forEach((part, i) => {
      const other = b[i];
      const same = other && (part.tagName === "svg" ? part.isEqualNode(other)
                                                     : part.textContent === other.textContent);
      if (!same) {
        ++moved;
        (part.tagName === "svg" ? part.closest("figure") || part : part).classList.add("moved");
      }
    });
    return [moved + Math.max(0, b.length - a.length), Math.max(a.length, b.length)];
  }

  async function recomputeNow() {
    const clicked = performance.now();
    recompute.disabled = true;
    say(words.computing);
    try {
      const lang = language.value;
      const text = textarea.value === shippedText ? null : textarea.value;
      let before;
      try { before = await baseline(lang); } catch (e) { return say(fill(words.fault, e.message), true); }
      const result = await runOnce(lang, text);
      if (result.fault) return say(fill(words.fault, result.fault), true);
      const page = result.read["out/" + chapter + ".html"];
      if (result.status !== 0 || page === null)
        return say(fill(words.stopped, result.status) + "\n" + result.stderr.trim(), true);
      const main = mainOf(page);
      const [moved, total] = markMoved(main, before);
      walkthrough.replaceChildren(...Array.from(main.childNodes));
      // for the browser test: the program's time, and the click's to the page replaced
      body.dataset.timing = result.ms + " " + Math.round(performance.now() - clicked);
      document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
      say(moved ? fill(words.moved, result.ms, moved, total) : fill(words.same, result.ms));
      body.dataset.recomputed = String(Number(body.dataset.recomputed || 0) + 1);
    } finally {
      recompute.disabled = false;
    }
  }
})();
