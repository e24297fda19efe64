// pronunciation.js — each character of chapter 12's corpus with its Mandarin readings, from the
// npm package pinyin-pro (MIT): one line per character, in code point order,
//
//   字<TAB>zi4
//   行<TAB>xing2 hang2 hang4 heng2
//
// its readings as pinyin with the tone as a digit (1–4; 5 or 0 for the neutral tone), the most
// common first. Chapter 12 takes the first reading's tone (1, 2: level 平; 3, 4: oblique 仄) and
// its final (the rhyme). Modern Mandarin, not Tang pronunciation: the characters of the old
// entering tone (入声) read level in many cases today — the chapter says so and measures real
// poems with the same table.
// usage: node pronunciation.js CORPUS_FILE PINYIN_PRO_DIR > out.txt
'use strict';
const fs = require('fs');
const path = require('path');

const [corpus, library] = process.argv.slice(2);
if (!corpus || !library) {
  console.error('usage: node pronunciation.js CORPUS_FILE PINYIN_PRO_DIR');
  process.exit(2);
}
const { pinyin } = require(path.resolve(library, 'dist', 'index.js'));
const han = /[\u3400-\u9fff]/u;
const seen = new Set();
for (const character of fs.readFileSync(corpus, 'utf8')) {
  if (han.test(character)) seen.add(character);
}
const lines = [];
for (const character of [...seen].sort((a, b) => a.codePointAt(0) - b.codePointAt(0))) {
  const readings = pinyin(character, { toneType: 'num', multiple: true, type: 'array' });
  const known = readings.filter((r) => /^[a-zü]+[0-5]$/u.test(r));
  if (known.length > 0) lines.push(`${character}\t${known.join(' ')}`);
}
process.stdout.write(lines.join('\n') + '\n');
