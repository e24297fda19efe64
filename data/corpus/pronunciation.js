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
//
// Then the words whose reading of a character is not its first, one line each after the
// characters, in code point order of the word:
//
//   三更<TAB>san1<TAB>geng1
//   重阳<TAB>chong2<TAB>yang2
//
// each character's reading in that word (pinyin-pro reads a text by words: 更 alone is geng4,
// in 三更 geng1). A word here is two characters side by side in a verse of the corpus that
// pinyin-pro reads as a word of its dictionary; the changes it makes by tone sandhi alone (一 and
// 不 before another tone) and the neutral tone are not readings and are left out.
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
const first = new Map();
const lines = [];
for (const character of [...seen].sort((a, b) => a.codePointAt(0) - b.codePointAt(0))) {
  const readings = pinyin(character, { toneType: 'num', multiple: true, type: 'array' });
  const known = readings.filter((r) => /^[a-zü]+[0-5]$/u.test(r));
  if (known.length > 0) lines.push(`${character}\t${known.join(' ')}`);
  if (known.length > 0) first.set(character, known);
}
// every two characters side by side in a verse (the text between two marks)
const pairs = new Set();
for (const line of fs.readFileSync(corpus, 'utf8').split('\n')) {
  if (line.startsWith('《') || line.startsWith('作者')) continue;
  for (const verse of line.split(/[^\u3400-\u9fff]/u)) {
    const c = [...verse];
    for (let i = 0; i + 1 < c.length; ++i) pairs.add(c[i] + c[i + 1]);
  }
}
const sandhi = new Set(['一', '不']);
const words = [];
for (const word of pairs) {
  const c = [...word];
  if (!first.has(c[0]) || !first.has(c[1])) continue;
  const read = pinyin(word, { toneType: 'num', type: 'array' });
  if (read.length !== 2) continue;
  // a reading other than the first, among the character's own (not sandhi, not neutral)
  const other = (i) => read[i] !== first.get(c[i])[0] && !sandhi.has(c[i]) &&
    first.get(c[i]).includes(read[i]) && /[1-4]$/.test(read[i]);
  if (other(0) || other(1))
    words.push([word, (other(0) ? read[0] : first.get(c[0])[0]), (other(1) ? read[1] : first.get(c[1])[0])]);
}
words.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
for (const w of words) lines.push(w.join('\t'));
process.stdout.write(lines.join('\n') + '\n');
