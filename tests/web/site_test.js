// site_test.js — the site make site writes (build/book/), served as GitHub Pages serves it: from a
// web server, under the repository's name (/transformer-by-hand/), never from file://.
//  - every page's own links and scripts (href=, src=), from the front page through both indexes
//    to each chapter's page, answer 200 from the server;
//  - in headless chromium (chromium.js): the front page (in Chinese, naming its commit, with its
//    switch to English); each index; chapter 2's live page recomputed and chapter 12's writing a
//    poem from a prompt, in both languages, with no console error (a
//    request that failed is one: chromium logs it as an error).
// Screenshots go to OUT. Prints one line per case and "site: N passed, N failed"; exit 1 if any
// failed.
// usage: node tests/web/site_test.js SITE_DIR OUT
"use strict";
const http = require("http"), fs = require("fs"), path = require("path");
const { openTab, sleep } = require("./chromium.js");
const [siteDir, outDir] = process.argv.slice(2, 4).map((p) => path.resolve(p));
const base = "/transformer-by-hand/";
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".json": "application/json",
                ".svg": "image/svg+xml", ".png": "image/png", ".css": "text/css" };

// A static server of siteDir at base, as Pages: a folder's index.html, 404 for anything else.
function serve() {
  const server = http.createServer((request, response) => {
    const url = decodeURIComponent(request.url.split("?")[0]);
    let file = url.startsWith(base) ? path.join(siteDir, url.slice(base.length)) : "";
    if (file && !file.startsWith(siteDir)) file = "";
    if (file && fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!file || !fs.existsSync(file)) { response.writeHead(404); response.end("not found"); return; }
    response.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const get = (url) => new Promise((resolve) => {
  http.get(url, (r) => { let body = ""; r.setEncoding("utf8"); r.on("data", (c) => (body += c));
                          r.on("end", () => resolve({ status: r.statusCode, body })); })
      .on("error", (e) => resolve({ status: 0, body: String(e) }));
});

// Every page reachable from the front page by the site's own links, each link fetched once.
async function links(root) {
  const seen = new Map(), queue = [root], problems = [];
  while (queue.length) {
    const url = queue.shift();
    if (seen.has(url)) continue;
    const r = await get(url);
    seen.set(url, r.status);
    if (r.status !== 200) { problems.push(url.slice(root.length - base.length) + ": " + r.status); continue; }
    if (!url.endsWith(".html") && !url.endsWith("/")) continue;
    for (const m of r.body.matchAll(/(?:href|src)="([^"#]+)"/g)) {
      if (/^[a-z]+:/.test(m[1])) {
        if (m[1].startsWith("file:")) problems.push(url + " links to " + m[1]);
        continue;  // another site's address: not the site's to answer
      }
      queue.push(new URL(m[1], url).href);
    }
  }
  return { pages: [...seen.keys()].filter((u) => u.endsWith(".html") || u.endsWith("/")).length,
           files: seen.size, problems };
}

async function main() {
  const server = await serve();
  const root = `http://127.0.0.1:${server.address().port}${base}`;
  let passed = 0, failed = 0;
  const report = (name, problems, said) => {
    if (problems.length) ++failed, console.log(`FAIL ${name}: ` + problems.join("; "));
    else ++passed, console.log(`ok   ${name}: ${said}`);
  };

  const found = await links(root);
  const others = found.files - found.pages;
  report("links", found.problems, `${found.pages} pages and ${others} other file${others === 1 ? "" : "s"} ` +
         `(scripts, pictures) reached from ${base} by the site's links, every one answered 200`);

  const tab = await openTab(outDir);
  const open = async (page, ready) => {
    tab.errors.length = 0;
    await tab.on("Page.navigate", { url: root + page });
    const ok = await tab.waitFor(ready || "document.readyState === 'complete'", 30);
    return ok ? [] : ["the page never became ready"];
  };
  const finish = async (problems, shot) => {
    await sleep(200);
    if (tab.errors.length) problems.push("console errors: " + tab.errors.join(" | "));
    if (shot) await tab.screenshot(shot);
    return problems;
  };

  // the front page: Chinese, its commit, the switch to English that works
  let problems = await open("");
  const front = await tab.evaluate(`({ lang: document.documentElement.lang, text: document.body.innerText,
    english: [...document.querySelectorAll('a')].some((a) => a.getAttribute('href') === 'en/index.html') })`);
  if (front.lang !== "zh") problems.push("the front page's language is " + front.lang + ", not zh");
  const commit = /由提交 (\S+) 于/.exec(front.text);
  if (!commit || commit[1].startsWith("@")) problems.push("the front page names no commit");
  if (!front.english) problems.push("no switch to English");
  await finish(problems, "site_front.png");
  if (!problems.length) {
    await tab.evaluate("document.querySelector('.switch a').click(), true");
    await tab.waitFor("location.pathname.endsWith('/en/index.html') && document.readyState === 'complete'", 20);
    const lang = await tab.evaluate("document.documentElement.lang + ' ' + document.querySelectorAll('dt').length");
    if (!lang.startsWith("en ")) problems.push("the switch to English opened " + lang);
  }
  report("front page", problems, `in Chinese, built from commit ${commit && commit[1]}; its switch opens the English index`);

  for (const lang of ["zh", "en"]) {
    problems = await open(lang + "/index.html");
    const entries = await tab.evaluate("document.querySelectorAll('dt a').length");
    if (entries < 14) problems.push(`${entries} chapters listed, not 14`);
    report(`${lang}/index.html`, await finish(problems, `site_${lang}_index.png`), `${entries} chapters listed`);

    // chapter 2: the live panel recomputes the shipped inputs
    problems = await open(lang + "/ch02_self_attention.html", "document.body && document.body.dataset.live === 'ready'");
    if (!problems.length) {
      await tab.evaluate("document.querySelector('#live .buttons button').click(), true");
      if (!(await tab.waitFor("document.body.dataset.recomputed !== undefined && " +
                              "document.querySelector('#live .status').textContent !== ''", 60)))
        problems.push("Recompute never finished");
    }
    const status = await tab.evaluate("(document.querySelector('#live .status') || {}).textContent || ''");
    await tab.evaluate("document.querySelector('#live') && document.querySelector('#live').scrollIntoView(), true");
    report(`${lang}/ch02_self_attention.html`, await finish(problems, `site_${lang}_ch02.png`),
           "Recompute: " + status.split("\n")[0]);

    // chapter 12: the poet writes from a prompt, a first verse (without its comma it would be read
    // as a title's start, 《床前明月光…》)
    problems = await open(lang + "/ch12_gpt.html", "document.body && document.body.dataset.live === 'ready'");
    if (!problems.length) {
      await tab.evaluate(`(() => { document.querySelector('#live input[type=text], #live textarea').value = "床前明月光，";
        document.querySelector('#live .buttons button').click(); return true; })()`);
      if (!(await tab.waitFor("document.body.dataset.recomputed !== undefined", 120)))
        problems.push("the poem never came: " + await tab.evaluate("document.querySelector('#live .status').textContent"));
    }
    const poem = await tab.evaluate("((document.querySelector('.live-result') || {}).textContent || '')");
    if (!problems.length && !/^ +床前明月光/m.test(poem)) problems.push("no poem beginning with the prompt");
    await tab.evaluate("document.querySelector('#live') && document.querySelector('#live').scrollIntoView(), true");
    const first = (poem.match(/^ +(床前明月光[^\n]*)/m) || ["", ""])[1];  // the poem's first line
    report(`${lang}/ch12_gpt.html`, await finish(problems, `site_${lang}_ch12.png`), "wrote " + first.slice(0, 60));
  }
  tab.close();
  server.close();
  console.log(`site: ${passed} passed, ${failed} failed (served at ${base}; screenshots in ${outDir})`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log("FAIL site test: " + (e.stack || e)); process.exit(1); });
