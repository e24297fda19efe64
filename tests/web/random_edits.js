// random_edits.js — a chapter's data file edited at random, as a reader would in the live
// book's panel: in each copy one to three numbers of its matrices and vectors under "inputs"
// (not ids, sizes or seeds: the numbers a reader changes to see what moves) replaced by another
// number near them. Drawn from a seeded generator, so every run edits alike.
// usage: node tests/web/random_edits.js DATA.json COUNT SEED OUT_DIR
//   writes OUT_DIR/NAME.edit1.json … OUT_DIR/NAME.editCOUNT.json and prints their paths
"use strict";
const fs = require("fs"), path = require("path");
const [file, count, seed, outDir] = process.argv.slice(2);
let state = Number(seed) >>> 0;
const random = () => {  // mulberry32
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
// the places a reader edits: numbers inside arrays of numbers (rows of a matrix, a vector) of
// at most 4096 entries, under a key that is not a count, id, seed, position or length
const skip = /(^|_)(ids?|seed|tokens?|positions?|lengths?|permutation|offsets|tiles|d_k|sizes|steps|numbers)$/;
function places(node, at, out) {
  if (Array.isArray(node)) {
    if (node.length <= 4096 && node.every((x) => typeof x === "number"))
      node.forEach((_, i) => out.push([...at, i]));
    else if (node.length <= 4096) node.forEach((x, i) => Array.isArray(x) && places(x, [...at, i], out));
  } else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) if (!skip.test(k)) places(v, [...at, k], out);
  }
  return out;
}
const original = JSON.parse(fs.readFileSync(file, "utf8"));
const all = places(original.inputs, ["inputs"], []);
if (all.length === 0) throw new Error(file + ": no numbers to edit under inputs");
fs.mkdirSync(outDir, { recursive: true });
for (let n = 1; n <= Number(count); ++n) {
  const data = JSON.parse(JSON.stringify(original));
  const edits = 1 + Math.floor(random() * 3);
  for (let e = 0; e < edits; ++e) {
    const place = all[Math.floor(random() * all.length)];
    const parent = place.slice(0, -1).reduce((o, k) => o[k], data), key = place[place.length - 1];
    const old = parent[key];
    // an integer stays an integer (a token count, a padding flag as 0/1 would break its meaning
    // only where it is one); any other number moves by up to its own size, and 0 by up to 1
    parent[key] = Number.isInteger(old) && Math.abs(old) >= 1
      ? old + (random() < 0.5 ? -1 : 1)
      : Number((old + (random() * 2 - 1) * Math.max(Math.abs(old), 1)).toFixed(6));
  }
  const out = path.join(outDir, path.basename(file, ".json") + ".edit" + n + ".json");
  fs.writeFileSync(out, JSON.stringify(data, null, 1) + "\n");
  console.log(out);
}
