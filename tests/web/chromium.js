// chromium.js — one tab of Debian's chromium, headless, driven through the DevTools protocol over
// a pipe (--remote-debugging-pipe: nothing downloaded, no port): the tests of the live book
// (browser_test.js) and of the site (site_test.js) open their pages with it.
// openTab(outDir) → { on, evaluate, waitFor, screenshot, errors, sleep, close }: errors collects
// every console error and uncaught exception of the tab; screenshot(file) writes outDir/file.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs"), path = require("path"), os = require("os");

function browser() {
  const chrome = spawn("chromium", ["--headless=new", "--no-sandbox", "--disable-gpu",
    "--remote-debugging-pipe", "--user-data-dir=" + fs.mkdtempSync(path.join(os.tmpdir(), "live-")),
    "--window-size=1100,1400", "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  const toBrowser = chrome.stdio[3], fromBrowser = chrome.stdio[4];
  let buffer = "", nextId = 1;
  const waiting = new Map(), listeners = [];
  fromBrowser.on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    let end;
    while ((end = buffer.indexOf("\0")) >= 0) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (message.id && waiting.has(message.id)) {
        const { resolve, reject } = waiting.get(message.id);
        waiting.delete(message.id);
        message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result);
      } else for (const l of listeners) l(message);
    }
  });
  const send = (method, params, sessionId) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    toBrowser.write(JSON.stringify({ id, method, params: params || {}, sessionId }) + "\0");
  });
  return { chrome, send, listeners };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function openTab(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const { chrome, send, listeners } = browser();
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const on = (method, params) => send(method, params, sessionId);
  const errors = [];
  listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    if (m.method === "Runtime.exceptionThrown") errors.push(m.params.exceptionDetails.text + " " +
      JSON.stringify(m.params.exceptionDetails.exception && m.params.exceptionDetails.exception.description));
    if (m.method === "Runtime.consoleAPICalled" && m.params.type === "error")
      errors.push(m.params.args.map((a) => a.value || a.description).join(" "));
    if (m.method === "Log.entryAdded" && m.params.entry.level === "error") errors.push(m.params.entry.text);
  });
  await on("Runtime.enable");
  await on("Log.enable");
  await on("Page.enable");
  const evaluate = async (expression) => {
    const r = await on("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.text + ": " + expression.slice(0, 80));
    return r.result.value;
  };
  const waitFor = async (expression, seconds) => {
    for (let t = 0; t < seconds * 20; ++t) {
      if (await evaluate(expression)) return true;
      await sleep(50);
    }
    return false;
  };
  const screenshot = async (file) => {
    const { data } = await on("Page.captureScreenshot", { format: "png", captureBeyondViewport: false });
    fs.writeFileSync(path.join(outDir, file), Buffer.from(data, "base64"));
  };
  return { on, evaluate, waitFor, screenshot, errors, sleep, close: () => chrome.kill() };
}

module.exports = { openTab, sleep };
