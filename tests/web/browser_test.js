// browser_test.js — the live book in a real browser: Debian's chromium, headless, driven through
// the DevTools protocol over a pipe (tests/web/chromium.js: nothing downloaded, no port).
// For each case: open a live page from file://, wait for its panel, edit one input as a reader
// would, click Recompute, and compare the walkthrough the page then shows with the page the
// native program writes from the same edited file (its text, every number and picture label);
// any console error or uncaught exception fails. Screenshots before and after go to OUT.
// usage: node tests/web/browser_test.js BOOK_DIR NATIVE_BUILD OUT [ONLY]
//   ONLY: run just the cases whose chapter's name holds it (e.g. ch12)
//   BOOK_DIR holds en/, live/ (live_book.js, live_poet.js, live_page.js, poet.js) and poet/ (the
//   poet's files, for the native program): the pages written with --live
// Prints one line per case and "browser: N passed, N failed"; exit 1 if any failed.
"use strict";
const { execFileSync } = require("child_process");
const { openTab, sleep } = require("./chromium.js");
const fs = require("fs"), path = require("path"), os = require("os");
const [bookDir, nativeBuild, outDir] = process.argv.slice(2, 5).map((p) => path.resolve(p));
const only = process.argv[5] || "";

// What a reader does on each page: set one input (a box or a switch, by its label) and recompute.
const cases = [
  { chapter: "ch01_dictionary_lookup", label: "inputs.fruit_weights[0][1]", value: "0.9" },
  { chapter: "ch02_self_attention", label: "inputs.X[0][0]", value: "3", shots: true },
  { chapter: "ch03_masked_attention", label: "inputs.key_padding[0][1]", check: true },
  { chapter: "ch04_multi_head_attention", label: "inputs.n_heads", value: "4", lang: "zh" },
  { chapter: "ch05_positional_encoding", label: "inputs.embedding[1][2]", value: "-0.75" },
  { chapter: "ch06_encoder_decoder", label: "inputs.source[0][1]", value: "7", lang: "zh" },
  // chapter 11's memory table counts WebAssembly's 32-bit bytes and its times are this browser's:
  // the walkthrough is compared up to that step
  { chapter: "ch11_long_sequences", label: "inputs.cases.causal.causal", until: "Memory, counted" },
  { chapter: "ch02_self_attention", label: "inputs.W_Q[1][2]", value: "oops", fails: true },
  // the poet's pages (BOOK_DIR/poet/ holds the poet live/poet.js carries): a prompt written with
  // one rule switched off and another seed, a typed poem read
  { chapter: "ch12_gpt", poet: true, prompt: "床前明月光", off: "tones", seed: "5", lang: "zh", shots: true },
  { chapter: "ch14_inside_the_poet", poet: true, prompt: "《春晓》\n春眠不觉晓，处处闻啼鸟。", shots: true },
];

async function main() {
  const { on, evaluate, waitFor, screenshot, errors, close } = await openTab(outDir);

  // A poet's page: the prompt (or poem) typed, a rule switched off, the seed set, the first
  // button clicked; what the page then shows against the native program with the same arguments.
  async function poetCase(c) {
    const lang = c.lang || "en", problems = [];
    const opened = Date.now();
    await on("Page.navigate", { url: "file://" + path.join(bookDir, "en", c.chapter + ".html") });
    const ready = await waitFor("document.body && document.body.dataset.live === 'ready'", 20);
    const readyMs = Date.now() - opened;
    if (!ready) return ["the panel never became ready"];
    const args = await evaluate(`(() => {
      const box = document.querySelector('#live input[type=text], #live textarea');
      box.value = ${JSON.stringify(c.prompt)};
      for (const rule of document.querySelectorAll('#live input[type=checkbox]'))
        rule.checked = rule.dataset.rule !== ${JSON.stringify(c.off || "")};
      if (${JSON.stringify(c.seed || "")}) document.querySelectorAll('#live input[type=text]')[1].value = ${JSON.stringify(c.seed || "")};
      document.querySelector('#live select').value = "${lang}";
      document.querySelector('#live .buttons button').click();
      return true; })()`);
    if (!args) problems.push("no prompt box");
    const done = await waitFor("document.body.dataset.recomputed !== undefined", 60);
    if (!done) return problems.concat(["the poem never came: " + await evaluate("document.querySelector('#live .status').textContent")]);
    const writes = c.chapter === "ch12_gpt";
    // the Tang table where the book's poet carries one, as the page passes it (live_page.js)
    const tang = fs.existsSync(path.join(bookDir, "poet", "tang.txt")) ? ["--tang", "poet/tang.txt"] : [];
    const nativeArgs = (seed) => writes
      ? ["--write", "--pinyin", "poet/pinyin.txt", ...tang, "--prompt", c.prompt,
         "--form", ["rhyme", "tones", "runs"].filter((r) => r !== c.off).join(","), "--seed", seed]
      : ["--poem", c.prompt];
    const compared = async (seed) => {
      // run where the page's module has its files: data/ (the chapter's data file) and poet/
      const work = fs.mkdtempSync(path.join(os.tmpdir(), "native-"));
      fs.symlinkSync(path.resolve("data"), path.join(work, "data"));
      fs.symlinkSync(path.join(bookDir, "poet"), path.join(work, "poet"));
      execFileSync(path.join(nativeBuild, c.chapter), [...nativeArgs(seed), "--weights", "poet/model.json",
        "--lang", lang, "--html", "out", "--live"],
        { cwd: work, env: Object.assign({}, process.env, { OMP_NUM_THREADS: "1" }), stdio: "ignore" });
      const nativeHtml = fs.readFileSync(path.join(work, "out", c.chapter + ".html"), "utf8");
      fs.rmSync(work, { recursive: true, force: true });
      const same = await evaluate(`(() => {
        const native = new DOMParser().parseFromString(${JSON.stringify(nativeHtml)}, "text/html");
        const a = document.querySelector(".live-result").textContent, b = native.getElementById("walkthrough").textContent;
        if (a === b) return "";
        let i = 0; while (a[i] === b[i]) ++i;
        return "page: …" + a.slice(Math.max(0, i - 60), i + 60) + "…\\nnative: …" + b.slice(Math.max(0, i - 60), i + 60) + "…";
      })()`);
      if (same) problems.push("the page's poem differs from the native program's (seed " + seed + "):\n" + same);
    };
    await compared(c.seed);
    if (writes) {  // Another poem: the next seed
      await evaluate("document.querySelectorAll('#live .buttons button')[1].click(), true");
      if (!(await waitFor("document.body.dataset.recomputed === '2'", 60))) problems.push("Another poem never came");
      else await compared(String(Number(c.seed) + 1));
    }
    if (c.shots) {
      await evaluate("document.querySelector('#live').scrollIntoView(), true");
      await screenshot("live_" + c.chapter + "_poet.png");
    }
    const [programMs, clickMs] = (await evaluate("document.body.dataset.timing")).split(" ");
    c.said = `Write ready at ${readyMs} ms; click to ${writes ? "poem" : "heatmaps"} ${clickMs} ms (the program ${programMs} ms)`;
    return problems;
  }

  let passed = 0, failed = 0;
  for (const c of cases.filter((c) => c.chapter.includes(only))) {
    if (c.poet) {
      errors.length = 0;
      const problems = await poetCase(c);
      await sleep(100);
      if (errors.length) problems.push("console errors: " + errors.join(" | "));
      if (problems.length) ++failed, console.log(`FAIL ${c.chapter} (poet, ${c.lang || "en"}): ` + problems.join("; "));
      else ++passed, console.log(`ok   ${c.chapter} (poet, ${c.lang || "en"}, ${JSON.stringify(c.prompt)}): ` + c.said);
      continue;
    }
    const lang = c.lang || "en";
    const problems = [];
    errors.length = 0;
    const url = "file://" + path.join(bookDir, "en", c.chapter + ".html");
    const opened = Date.now();
    await on("Page.navigate", { url });
    const ready = await waitFor("document.body && document.body.dataset.live === 'ready'", 20);
    const readyMs = Date.now() - opened;
    const panelMs = ready ? await evaluate("Number(document.body.dataset.panel)") : 0;
    if (!ready) problems.push("the panel never became ready");
    // as a reader reads before editing: the background run on the shipped inputs ends first
    const warm = ready && (await waitFor("document.body.dataset.warm !== undefined", 30));
    if (ready && !warm) problems.push("the background run on the shipped inputs never ended");
    const warmMs = warm ? await evaluate("Number(document.body.dataset.warm)") : 0;
    if (ready && c.shots) await screenshot("live_" + c.chapter + "_before.png");
    if (ready) {
      const set = await evaluate(`(() => {
        const box = document.querySelector('#live input[aria-label="${c.label}"]');
        if (!box) return false;
        if (box.type === "checkbox") box.checked = !box.checked; else box.value = ${JSON.stringify(c.value || "")};
        box.dispatchEvent(new Event("change"));
        const language = document.querySelector('#live select');
        language.value = "${lang}";
        document.querySelector('#live .buttons button').click();
        return true; })()`);
      if (!set) problems.push("no input labelled " + c.label);
    }
    const done = ready && (await waitFor("!document.querySelector('#live .buttons button').disabled && " +
                                         "document.querySelector('#live .status').textContent !== ''", 60));
    if (ready && !done) problems.push("Recompute never finished");
    // the same edited file through the native program
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "native-"));
    const edited = ready ? await evaluate("document.querySelector('#live textarea').value") : "";
    fs.mkdirSync(path.join(work, "edited"));
    fs.writeFileSync(path.join(work, "edited", c.chapter + ".json"), edited);
    let native = { status: 0, stderr: "" };
    try {
      execFileSync(path.join(nativeBuild, c.chapter), ["--lang", lang, "--html", "out", "--live",
        "--cache", "cache", "--data", "edited/" + c.chapter + ".json"],
        { cwd: work, env: Object.assign({}, process.env, { OMP_NUM_THREADS: "1" }), stdio: ["ignore", "ignore", "pipe"] });
    } catch (e) {
      native = { status: e.status, stderr: e.stderr.toString() };
    }
    if (done && c.fails) {
      const shown = await evaluate("document.querySelector('#live .status').textContent");
      const line = native.stderr.trim();
      if (native.status !== 2) problems.push("the native program did not refuse the input");
      else if (!shown.includes(line)) problems.push("the page shows\n  " + shown + "\nthe native program\n  " + line);
    } else if (done) {
      const nativeHtml = fs.readFileSync(path.join(work, "out", c.chapter + ".html"), "utf8");
      const same = await evaluate(`(() => {
        const native = new DOMParser().parseFromString(${JSON.stringify(nativeHtml)}, "text/html");
        const until = (t) => ${JSON.stringify(c.until || "")} ? t.slice(0, t.indexOf(${JSON.stringify(c.until || "")})) : t;
        const a = until(document.getElementById("walkthrough").textContent);
        const b = until(native.getElementById("walkthrough").textContent);
        if (a === b) return "";
        let i = 0; while (a[i] === b[i]) ++i;
        return "page: …" + a.slice(Math.max(0, i - 60), i + 60) + "…\\nnative: …" + b.slice(Math.max(0, i - 60), i + 60) + "…";
      })()`);
      if (same) problems.push("the page's walkthrough differs from the native program's:\n" + same);
      const marked = await evaluate("document.querySelectorAll('#walkthrough .moved').length");
      if (marked === 0) problems.push("nothing marked as moved after an edit");
    }
    if (done && c.shots) {  // the panel's result, then the first part marked as moved
      await screenshot("live_" + c.chapter + "_after.png");
      await evaluate("document.querySelector('#walkthrough .moved').scrollIntoView(), true");
      await screenshot("live_" + c.chapter + "_moved.png");
    }
    fs.rmSync(work, { recursive: true, force: true });
    await sleep(100);
    if (errors.length) problems.push("console errors: " + errors.join(" | "));
    const status = done ? await evaluate("document.querySelector('#live .status').textContent") : "";
    const [programMs, clickMs] = done && !c.fails ? (await evaluate("document.body.dataset.timing")).split(" ") : ["", ""];
    if (problems.length) {
      ++failed;
      console.log(`FAIL ${c.chapter} (${lang}, ${c.label}): ` + problems.join("; "));
    } else {
      ++passed;
      console.log(`ok   ${c.chapter} (${lang}, ${c.label}${c.value ? " = " + c.value : " switched"}): ` +
                  `panel shown at ${panelMs} ms, Recompute ready at ${readyMs} ms (the starting run, in the background, ${warmMs} ms); ` +
                  (c.fails ? "" : `click to page ${clickMs} ms (the program ${programMs} ms${lang !== "en" ? ", after its run on the starting inputs in this language" : ""}) — `) +
                  status.split("\n")[0]);
    }
  }
  close();
  console.log(`browser: ${passed} passed, ${failed} failed (screenshots in ${outDir})`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log("FAIL browser test: " + (e.stack || e)); process.exit(1); });
