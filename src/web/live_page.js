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
.live .control { min-width: 0; max-width: 100%; } .live .control > .name { margin-right: 0.4rem; }
.live .control > code { color: #666; font-size: 0.75rem; margin-right: 0.5rem; overflow-wrap: anywhere; }
.live .scroll { overflow-x: auto; max-width: 100%; }
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
  // and how to run them in full): chapter 9's timings (of lengths and of batches), memory table and
  // the training behind its stopping rules, chapter 11's memory table.
  const shorter = {
    ch09_decoding: { "inputs.timing_lengths": [16, 32, 64], "inputs.memory_lengths": [128, 512, 2048],
                     "inputs.batch_sizes": [1, 4, 16], "inputs.stopping.training.max_steps": 10 },
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
  // A worker of its own for the module: started once the module has loaded, and again after
  // Stop, which ends the one running (a run in WebAssembly cannot be interrupted from inside).
  function startWorker() {
    const source = new Blob([self.LIVE_BOOK_SOURCE], { type: "text/javascript" });
    worker = new Worker(URL.createObjectURL(source));
    worker.onmessage = (event) => {
      const resolve = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      if (resolve) resolve(event.data);
    };
    worker.postMessage({ wasm: self.LIVE_BOOK_WASM });
  }
  function stopWorker() {
    worker.terminate();
    for (const resolve of waiting.values()) resolve({ stopped: true });
    waiting.clear();
    startWorker();
  }
  // the poet's pages load their own module (chapters 12 and 14 bring training, n-gram and
  // head-measuring code the other pages need not load)
  const poetPage = chapter === "ch12_gpt" || chapter === "ch14_inside_the_poet";
  const moduleFile = here + (poetPage ? "live_poet.js" : "live_book.js");
  const script = element("script", { src: moduleFile });
  script.onerror = () => say(fill(words.no_module, moduleFile), true);
  script.onload = async () => {
    await poetLoaded;
    if (poetPage && !self.LIVE_POET) return say(fill(words.no_poet, here + "poet.js"), true);
    startWorker();
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
  // running: a recompute is under way; latest: the last one started (a run Reset stopped must not
  // speak over, or free the buttons of, the one Reset started after it)
  let stop = null, running = false, latest = 0;

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
    addControls(controls, data.inputs, ["inputs"], data);
    recompute = element("button", { type: "button", textContent: words.recompute });
    const reset = element("button", { type: "button", textContent: words.reset });
    language = element("select", {}, element("option", { value: "en", textContent: "English" }),
                       element("option", { value: "zh", textContent: "中文" }));
    language.value = pageLanguage;
    language.setAttribute("aria-label", words.language);
    stop = element("button", { type: "button", textContent: words.stop, disabled: true });
    recompute.onclick = () => recomputeNow();
    stop.onclick = () => stopWorker();
    reset.onclick = () => {
      if (running) stopWorker();  // the run under way is not waited for
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
                 element("div", { className: "buttons" }, recompute, stop, reset,
                         element("label", {}, words.language + " ", language)),
                 status);
    panel.hidden = false;
    recompute.disabled = true;  // until the module is ready
  }

  function controlsFor(text) {
    const controls = element("div", { className: "controls" });
    addControls(controls, JSON.parse(text).inputs, ["inputs"], JSON.parse(text));
    return controls;
  }

  // The value at a dotted path of the data file (the shortened measurements' keys hold no dots),
  // and at a list of keys (a model's weights are named with dots: "encoder.layers.0.norm1.bias").
  const at = (data, path) => path.split(".").reduce((o, k) => (o == null ? o : o[k]), data);
  const atKeys = (data, keys) => keys.reduce((o, k) => (o == null ? o : o[k]), data);

  // The reader's edit of one input written into the data file in the textarea; true where the
  // input now holds what the panel started from (its mark is taken off).
  function edit(keys, row, column, value) {
    let data;
    try { data = JSON.parse(textarea.value); } catch (e) { say(fill(words.not_json, e.message), true); return false; }
    const parent = atKeys(data, keys.slice(0, -1)), key = keys[keys.length - 1];
    if (row === null) parent[key] = value;
    else if (column === null) parent[key][row] = value;
    else parent[key][row][column] = value;
    textarea.value = JSON.stringify(data, null, 1);
    let start = atKeys(JSON.parse(startText), keys);
    if (row !== null) start = start[row];
    if (column !== null) start = start[column];
    return start === value;
  }
  const marked = (input, back) => input.classList.toggle("edited", !back);

  // What the panel calls an input: each key's name in the page's language, along its path
  // ("why divide by √d_k · trials"); the data file's key is shown beside it.
  function nameOf(keys) {
    const parts = [];
    let previous = "";
    for (const key of keys.slice(1))
      for (const part of key.split(".")) {
        if (/^[0-9]+$/.test(part) && previous === "layers") parts[parts.length - 1] = fill(words["name:layers"], Number(part) + 1);
        else parts.push(words["name:" + previous + "." + part] || words["name:" + part] || part);
        previous = part;
      }
    return parts.join(" · ");
  }
  const labelOf = (keys) => [element("span", { className: "name", textContent: nameOf(keys) }),
                             element("code", { textContent: keys.join(".") })];

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
  function grid(keys, matrix, labels, asSwitches, oneRow) {
    const path = keys.join(".");
    const table = element("table");
    matrix.forEach((row, r) => {
      const tr = element("tr", {}, element("th", { textContent: labels ? labels[r] : oneRow ? "" : String(r) }));
      row.forEach((x, c) => {
        const input = asSwitches ? element("input", { type: "checkbox", checked: x })
                                 : element("input", { type: "text", value: String(x) });
        input.setAttribute("aria-label", path + "[" + r + "][" + c + "]");
        const value = () => (asSwitches ? input.checked : typed(input.value));
        input.onchange = () => marked(input, oneRow ? edit(keys, c, null, value()) : edit(keys, r, c, value()));
        tr.append(element("td", {}, input));
      });
      table.append(tr);
    });
    return element("div", { className: "scroll" }, table);
  }

  function addControls(into, node, keys, data) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const here = keys.concat(key), path = here.join(".");
      if (isBool(value)) {
        const box = element("input", { type: "checkbox", checked: value });
        box.setAttribute("aria-label", path);
        box.onchange = () => marked(box, edit(here, null, null, box.checked));
        into.append(element("div", { className: "control" }, ...labelOf(here), box));
      } else if (isNumber(value)) {
        const box = element("input", { type: "text", value: String(value), size: 8 });
        box.setAttribute("aria-label", path);
        box.onchange = () => marked(box, edit(here, null, null, typed(box.value)));
        into.append(element("div", { className: "control" }, ...labelOf(here), box));
      } else if (Array.isArray(value) && value.length > 0 && value.every(isBool) && value.length <= 16) {
        into.append(element("div", { className: "control" }, ...labelOf(here),
                            grid(here, [value], null, true, true)));
      } else if (Array.isArray(value) && value.length > 0 && value.every(isNumber) && value.length <= 16) {
        into.append(element("div", { className: "control" }, ...labelOf(here), grid(here, [value], null, false, true)));
      } else if (Array.isArray(value) && value.length > 0 && value.every((r) => Array.isArray(r) && r.length > 0 && r.every(isNumber)) &&
                 small(value.length, value[0].length)) {
        into.append(element("div", { className: "control" }, ...labelOf(here),
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
    // the shape (--form's 5 or 7, quatrain or regulated) and the temperature (empty: the one the
    // model's record chose), as --write takes them
    const shape = element("select", {}, ...[["", words.shape_any], ["5,quatrain", words.shape_5_quatrain],
                                           ["7,quatrain", words.shape_7_quatrain], ["5,regulated", words.shape_5_regulated],
                                           ["7,regulated", words.shape_7_regulated]]
      .map(([value, text]) => element("option", { value, textContent: text })));
    const temperature = element("input", { type: "text", value: "", size: 5, placeholder: words.temperature_own });
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
      const form = kept.concat(shape.value ? shape.value.split(",") : []);
      return [chapter, "--write", "--pinyin", "poet/pinyin.txt", ...tang, "--prompt", prompt.value,
              "--form", form.length ? form.join(",") : "none", "--seed", seed.value.trim(),
              ...(temperature.value.trim() ? ["--temperature", temperature.value.trim()] : []), ...common];
    };
    const poemNow = async () => {
      const clicked = performance.now();
      recompute.disabled = another.disabled = true;
      say(words.computing);
      try {
        const r = await run({ args: args(), files: self.LIVE_POET, read: ["out/" + chapter + ".html"] });
        if (r.fault) return say(fill(words.fault, r.fault), true);
        const page = r.read["out/" + chapter + ".html"];
        if (r.status !== 0 || page === null) return say(refused(r), true);
        result.replaceChildren(...Array.from(mainOf(page).childNodes));
        if (!writes) oneBlockAtATime(result);
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
    shape.setAttribute("aria-label", words.shape);
    temperature.setAttribute("aria-label", words.temperature);
    // what each control is, for the browser test (its words are the page's language)
    seed.dataset.role = "seed", shape.dataset.role = "shape", temperature.dataset.role = "temperature";
    language.dataset.role = "language";
    panel.append(element("h2", { textContent: words.poet_heading }),
                 element("p", { textContent: writes ? words.poet_ch12 : words.poet_ch14 }),
                 element("div", { className: "controls" },
                         writes ? labelled(words.prompt, prompt) : element("div", { className: "control", style: "width: 100%" }, words.poem, prompt),
                         ...(writes ? [labelled(words.rhyme, rules[0]), labelled(words.tones, rules[1]),
                                       labelled(words.runs, rules[2]), labelled(words.shape, shape),
                                       labelled(words.temperature, temperature), labelled(words.seed, seed)] : [])),
                 element("div", { className: "buttons" }, recompute, ...(writes ? [another] : []),
                         element("label", {}, words.language + " ", language)),
                 status);
    panel.hidden = false;
    recompute.disabled = another.disabled = true;  // until the module is ready
  }

  // Chapter 14's heatmaps, a figure for each block of four heads: one block at a time, at its
  // own size (scrolled sideways on a narrow screen, never shrunk until its labels cannot be
  // read), with a switch between the blocks.
  function oneBlockAtATime(into) {
    const figures = Array.from(into.querySelectorAll("figure.picture")).filter((f) => /_block\d+\.svg$/.test(f.id));
    if (figures.length < 2) return;
    const show = (n) => figures.forEach((f, i) => { f.hidden = i !== n; });
    const pick = element("select", {}, ...figures.map((f, i) =>
      element("option", { value: String(i), textContent: fill(words.block_n, i + 1) })));
    pick.onchange = () => show(Number(pick.value));
    pick.setAttribute("aria-label", words.block_shown);
    for (const f of figures) {
      f.style.overflowX = "auto";
      const svg = f.querySelector("svg");
      if (svg) svg.style.maxWidth = "none";
    }
    figures[0].before(element("p", { className: "blocks" }, element("label", {}, words.block_shown + " ", pick)));
    show(0);
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
  const baselines = {}, baselineMs = {};
  function baseline(lang) {
    if (!baselines[lang])
      baselines[lang] = runOnce(lang, startText === shippedText ? null : startText).then((r) => {
        if (r.stopped) { delete baselines[lang]; throw new Error(words.stopped_run); }
        if (r.fault || r.status !== 0) throw new Error(r.fault || r.stderr);
        baselineMs[lang] = r.ms;
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

  // A table's cell as the number it shows ("−0.5000", "1", "12.5%"), or NaN: a cell that shows
  // the same number in other digits (1 where the shipped run printed 1.0000) has not moved.
  const shown = (text) => {
    const t = text.trim().replace(/\u2212/g, "-").replace(/%$/, "");
    return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : NaN;
  };

  function markMoved(now, before) {
    const a = parts(now), b = parts(before);
    let moved = 0;
    a.forEach((part, i) => {
      const other = b[i];
      const same = other && (part.tagName === "svg" ? part.isEqualNode(other)
                             : part.textContent === other.textContent ||
                               (part.tagName === "TD" && shown(part.textContent) === shown(other.textContent)));
      if (!same) {
        ++moved;
        (part.tagName === "svg" ? part.closest("figure") || part : part).classList.add("moved");
      }
    });
    return [moved + Math.max(0, b.length - a.length), Math.max(a.length, b.length)];
  }

  // Two data files that hold the same values (however the JSON is spaced) are the same inputs.
  const sameData = (x, y) => {
    try { return JSON.stringify(JSON.parse(x)) === JSON.stringify(JSON.parse(y)); } catch (e) { return false; }
  };

  // How many times the book's run this one may take: each count the reader raised (a number of
  // trials, of steps, of keys: an integer in an object, not in a matrix) multiplies it.
  function longer(text) {
    let factor = 1;
    const raised = [];
    const walk = (now, start, keys) => {
      for (const key of Object.keys(now)) {
        const a = now[key], b = start[key];
        if (Number.isInteger(a) && Number.isInteger(b) && b >= 1 && a > b) {
          factor *= a / b;
          raised.push(nameOf(keys.concat(key)));
        } else if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
          walk(a, b, keys.concat(key));
        }
      }
    };
    try { walk(JSON.parse(text).inputs, JSON.parse(startText).inputs, ["inputs"]); } catch (e) { return [1, []]; }
    return [factor, raised];
  }

  // The program's error line, with the worker's own name for the edited file replaced by the
  // panel's, and in words a reader reads: refused (exit code 2) or stopped some other way.
  const refused = (result) =>
    (result.status === 2 ? words.refused : fill(words.stopped, result.status)) + "\n" +
    result.stderr.trim().split("edited/" + chapter + ".json").join(words.panel_file);

  async function recomputeNow() {
    const clicked = performance.now(), mine = ++latest;
    recompute.disabled = true;
    stop.disabled = false;
    running = true;
    const lang = language.value;
    const text = sameData(textarea.value, shippedText) ? null
               : sameData(textarea.value, startText) ? startText : textarea.value;
    // a run that may take long says so before it starts, and counts its seconds while it runs
    const [factor, raised] = text === null ? [1, []] : longer(text);
    const estimate = baselineMs[lang] !== undefined ? factor * baselineMs[lang] : 0;
    const before_ = estimate > 3000 ? fill(words.long_run, Math.round(estimate / 1000), raised.join(", "),
                                           Math.round(factor), baselineMs[lang]) + "\n" : "";
    say(before_ + words.computing);
    const ticking = setInterval(() => say(before_ + fill(words.computing_for,
                                                         Math.round((performance.now() - clicked) / 1000))), 1000);
    try {
      let before;
      try { before = await baseline(lang); } catch (e) {
        if (mine !== latest) return;
        return say(e.message === words.stopped_run ? words.stopped_run : fill(words.fault, e.message), true);
      }
      const waited = Math.round(performance.now() - clicked);
      const result = await runOnce(lang, text);
      if (result.stopped) return mine === latest && say(words.stopped_run, true);
      if (result.fault) return say(fill(words.fault, result.fault), true);
      const page = result.read["out/" + chapter + ".html"];
      if (result.status !== 0 || page === null) return say(refused(result), true);
      const main = mainOf(page);
      const [moved, total] = markMoved(main, before);
      walkthrough.replaceChildren(...Array.from(main.childNodes));
      // for the browser test: the program's time, and the click's to the page replaced
      body.dataset.timing = result.ms + " " + Math.round(performance.now() - clicked);
      document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
      say((moved ? fill(words.moved, result.ms, moved, total) : fill(words.same, result.ms)) +
          (waited > 500 ? fill(words.waited, waited) : ""));
      body.dataset.recomputed = String(Number(body.dataset.recomputed || 0) + 1);
    } finally {
      clearInterval(ticking);
      if (mine === latest) {
        recompute.disabled = false;
        stop.disabled = true;
        running = false;
      }
    }
  }
})();
