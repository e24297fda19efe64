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
// usage: node quantangshi.js DIR_OF_JSON_FILES [OPENCC_JS] > out.txt
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node quantangshi.js DIR [OPENCC_JS]');
  process.exit(2);
}
// traditional to simplified (OpenCC's t2s), or the text as it is
const simplified = process.argv[3]
  ? require(path.resolve(process.argv[3])).Converter({ from: 't', to: 'cn' })
  : (text) => text;
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
process.stdout.write(simplified(out.join('')));
