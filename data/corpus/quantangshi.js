// quantangshi.js — the complete Tang poems of the npm package chinese-poetry (its
// dist/quantangshi/poet.tang.*.json, each a list of {title, author, paragraphs}) written as one
// fortune(6) file, the format of Debian's tang300 that chapter 12 reads:
//
//   《title》
//   作者：author
//   a couplet of the poem per line
//   %
//
// Files are read in the order of their numbers (poet.tang.0, .1000, .2000, …), poems in their
// order within each, so the result is the same on every machine. The package has them in
// traditional characters; with a converter (the npm package opencc-js: OpenCC's dictionaries in
// JavaScript, its file dist/umd/full.js) they are written in simplified ones, as a reader types
// them and as the Three Hundred Tang Poems (Debian's tang300) are.
//
// OpenCC leaves the old variant forms alone (疎 beside 疏, 鴈 beside 雁, 劒 beside 剑): one
// character, two tokens to the model, which learns each apart. With Unihan's tables (Debian's
// unicode-data) each is written in its standard form: a character outside the Table of General
// Standard Chinese Characters (通用规范汉字表, Unihan's kTGH) whose semantic and Z variants
// (kSemanticVariant, kZVariant — each variant, or OpenCC's simplification of it: 劒's variant is
// 劍, simplified 剑) hold exactly one character of the table becomes that character. A character
// with two such variants (袴: 绔 and 裤) or none (逈) stays as it is. What changed goes to
// VARIANTS_OUT, one line per character: the old form, the new, how many times (most first).
// usage: node quantangshi.js DIR [OPENCC_JS [UNIHAN_VARIANTS UNIHAN_OTHER_MAPPINGS VARIANTS_OUT]] > out.txt
// (the Unihan files uncompressed)
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
const [openccJs, unihanVariants, unihanMappings, variantsOut] = process.argv.slice(3);
if (!dir || (unihanVariants && !variantsOut)) {
  console.error('usage: node quantangshi.js DIR [OPENCC_JS [UNIHAN_VARIANTS UNIHAN_OTHER_MAPPINGS VARIANTS_OUT]]');
  process.exit(2);
}
// traditional to simplified (OpenCC's t2s), or the text as it is
const simplified = openccJs
  ? require(path.resolve(openccJs)).Converter({ from: 't', to: 'cn' })
  : (text) => text;

// Unihan's "U+758E<TAB>kSemanticVariant<TAB>U+758F<kFenn …" lines: the character of a code point
const character = (field) => String.fromCodePoint(parseInt(field.split('<')[0].slice(2), 16));
const unihan = (file, keys) =>
  fs.readFileSync(file, 'utf8').split('\n')
    .map((line) => line.split('\t'))
    .filter((f) => f.length === 3 && f[0].startsWith('U+') && keys.includes(f[1]));

// each character outside the table with exactly one variant in it -> that variant
function standardForms() {
  const table = new Set(unihan(unihanMappings, ['kTGH']).map((f) => character(f[0])));
  const candidates = new Map();  // a character outside the table -> its variants in it
  for (const [from, , list] of unihan(unihanVariants, ['kSemanticVariant', 'kZVariant'])) {
    const c = character(from);
    if (table.has(c)) continue;
    if (!candidates.has(c)) candidates.set(c, new Set());
    for (const v of list.split(' ').map(character)) {
      const s = simplified(v);
      if (table.has(v)) candidates.get(c).add(v);
      else if ([...s].length === 1 && table.has(s)) candidates.get(c).add(s);
    }
  }
  const forms = new Map();
  for (const [c, found] of candidates) if (found.size === 1) forms.set(c, [...found][0]);
  return forms;
}
const files = fs.readdirSync(dir)
  .filter((f) => /^poet\.tang\.\d+\.json$/.test(f))
  .sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]));
if (files.length === 0) {
  console.error(`error: ${dir}: no poet.tang.*.json files`);
  process.exit(2);
}
const oneLine = (s) => String(s).replace(/[\r\n%]+/g, ' ').trim();
const out = [];
for (const f of files) {
  for (const poem of JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))) {
    const lines = (poem.paragraphs || []).map(oneLine).filter((l) => l.length > 0);
    const title = oneLine(poem.title || '');
    if (title === '' || lines.length === 0) continue;
    out.push(`《${title}》\n作者：${oneLine(poem.author || '')}\n${lines.join('\n')}\n%\n`);
  }
}
let text = simplified(out.join(''));
if (unihanVariants) {
  const forms = standardForms();
  const changed = new Map();  // the old form -> how many times
  text = Array.from(text, (c) => {
    const to = forms.get(c);
    if (to === undefined) return c;
    changed.set(c, (changed.get(c) || 0) + 1);
    return to;
  }).join('');
  const lines = [...changed]
    .sort((a, b) => b[1] - a[1] || a[0].codePointAt(0) - b[0].codePointAt(0))
    .map(([c, n]) => `${c}\t${forms.get(c)}\t${n}\n`);
  fs.writeFileSync(variantsOut, lines.join(''));
}
process.stdout.write(text);
