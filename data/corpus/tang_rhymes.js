// tang_rhymes.js — each character of chapter 12's corpus with its readings as a Tang poet heard
// them: the rhyme groups of 平水韵 (the 106 groups regulated verse was judged by from the Song
// on, the Tang's permitted rhyme sets of the 广韵 merged), each with its tone. One line per
// character, in code point order:
//
//   东<TAB>东
//   行<TAB>阳 庚 漾 敬
//   国<TAB>职
//   魂<TAB>平
//
// A reading is a group's heading: 30 level (平: 东 冬 江 …), 29 rising (上: 董 肿 讲 …),
// 30 departing (去: 送 宋 绛 …) and 17 entering (入: 屋 沃 觉 …) — the heading names the tone
// too, for no heading repeats. Every reading the dictionary has, in its order: a verse fits when
// some reading of each character fits (行 rhymes in 阳 and in 庚). Where the dictionary has no
// entry for a character, a reading may be its tone alone (平, 上, 去 or 入): its rhyme is not known.
//
// Sources, all fetched by make (never copied into the project):
// - the 广韵's entries as the npm package tshet-uinh (nk2028, MIT) has them: each entry's rhyme
//   (of the 切韵 system's 61) and tone, turned into a 平水韵 heading by ROWS below — the standard
//   merging (东; 冬 with 钟; 支 脂 之; …; 蒸 登 rising and departing in 迥 and 径);
// - the corpus is in simplified characters and the dictionary in traditional ones: a character
//   is looked up as itself, as OpenCC's simplified-to-traditional conversion writes it and as
//   each traditional character OpenCC simplifies to it (后: 后 and 後; 干: 干, 幹 and 乾) — the
//   dictionaries of the npm package opencc-js (MIT, the dictionaries Apache-2.0);
// - then, for a character still not found: the dictionary's own notes that a character is also
//   written another way (𩏑 … 亦作韓: 韩 reads as 𩏑), and Unicode's variants (Unihan_Variants:
//   semantic and Z variants — 峯 for 峰), one step and then two;
// - then its tone alone: from Unihan's kTang (Tang readings, Stimson's notation: a caron rising,
//   a grave departing, a final -p -t -k entering) or, failing that, kCantonese (Cantonese keeps
//   the entering tone as a final -p -t -k: tones 1 and 4 level, 2 and 5 rising, 3 and 6
//   departing) — Debian's unicode-data.
//
// usage: node tang_rhymes.js CORPUS_FILE TSHET_UINH_DIR OPENCC_FULL_JS UNIHAN_VARIANTS UNIHAN_READINGS > out.txt
// (the two Unihan files uncompressed). A count of what each source gave goes to stderr.
'use strict';
const fs = require('fs');
const path = require('path');

const [corpus, tshetUinh, openccJs, unihanVariants, unihanReadings] = process.argv.slice(2);
if (!unihanReadings) {
  console.error('usage: node tang_rhymes.js CORPUS_FILE TSHET_UINH_DIR OPENCC_FULL_JS UNIHAN_VARIANTS UNIHAN_READINGS');
  process.exit(2);
}
const dictionary = require(path.resolve(tshetUinh, 'index.js')).資料;
const opencc = require(path.resolve(openccJs));

// 平水韵's groups: level, rising, departing, entering heading (· none), and the 切韵 rhymes
// each gathers
const ROWS = [
  ['东', '董', '送', '屋', '東'], ['冬', '肿', '宋', '沃', '冬鍾'], ['江', '讲', '绛', '觉', '江'],
  ['支', '纸', '寘', '·', '支脂之'], ['微', '尾', '未', '·', '微'], ['鱼', '语', '御', '·', '魚'],
  ['虞', '麌', '遇', '·', '虞模'], ['齐', '荠', '霁', '·', '齊祭'], ['·', '·', '泰', '·', '泰'],
  ['佳', '蟹', '卦', '·', '佳皆夬'], ['灰', '贿', '队', '·', '灰咍廢'],
  ['真', '轸', '震', '质', '真臻'], ['文', '吻', '问', '物', '文殷'],
  ['元', '阮', '愿', '月', '元魂痕'], ['寒', '旱', '翰', '曷', '寒'], ['删', '潸', '谏', '黠', '刪山'],
  ['先', '铣', '霰', '屑', '先仙'], ['萧', '筱', '啸', '·', '蕭宵'], ['肴', '巧', '效', '·', '肴'],
  ['豪', '皓', '号', '·', '豪'], ['歌', '哿', '箇', '·', '歌'], ['麻', '马', '祃', '·', '麻'],
  ['阳', '养', '漾', '药', '陽唐'], ['庚', '梗', '敬', '陌', '庚耕清'], ['青', '迥', '径', '锡', '青'],
  ['蒸', '迥', '径', '职', '蒸登'], ['尤', '有', '宥', '·', '尤侯幽'], ['侵', '寝', '沁', '缉', '侵'],
  ['覃', '感', '勘', '合', '覃談'], ['盐', '琰', '艳', '叶', '鹽添嚴'], ['咸', '豏', '陷', '洽', '咸銜凡'],
];
const TONES = '平上去入';
const heading = new Map();  // 切韵 rhyme and tone ("東平") -> 平水韵 heading
for (const row of ROWS)
  for (const rhyme of row[4])
    for (let t = 0; t < 4; ++t)
      if (row[t] !== '·') heading.set(rhyme + TONES[t], row[t]);
// a few entries of the dictionary sit outside the regular table (a level 祭, a rising 廢): the
// nearest heading of their row's tone
heading.set('祭平', '齐');
heading.set('廢上', '贿');

// OpenCC: simplified -> traditional (one), and each traditional character's simplified form
const pairs = (text) => text.split('|').map((entry) => entry.split(' '));
const toTraditional = new Map(pairs(opencc.Locale.from.cn[0][1]));
const fromCn = opencc.Locale.to.cn[0];
const traditionalOf = new Map();
for (const [t, s] of pairs(fromCn[fromCn.length - 1])) {
  if (!traditionalOf.has(s)) traditionalOf.set(s, []);
  traditionalOf.get(s).push(t);
}

// Unihan: variants both ways, and the tone-only readings
const codePoint = (u) => String.fromCodePoint(parseInt(u, 16));
const variants = new Map();
const link = (a, b) => {
  if (!variants.has(a)) variants.set(a, new Set());
  variants.get(a).add(b);
};
for (const line of fs.readFileSync(unihanVariants, 'utf8').split('\n')) {
  const m = /^U\+([0-9A-F]+)\t(kSemanticVariant|kZVariant|kSpecializedSemanticVariant)\t(.*)$/.exec(line);
  if (!m) continue;
  for (const v of m[3].matchAll(/U\+([0-9A-F]+)/g)) {
    link(codePoint(m[1]), codePoint(v[1]));
    link(codePoint(v[1]), codePoint(m[1]));
  }
}
const tang = new Map(), cantonese = new Map();
for (const line of fs.readFileSync(unihanReadings, 'utf8').split('\n')) {
  const m = /^U\+([0-9A-F]+)\t(kTang|kCantonese)\t(.*)$/.exec(line);
  if (m) (m[2] === 'kTang' ? tang : cantonese).set(codePoint(m[1]), m[3].split(' '));
}
const tangTone = (r) => {
  const s = r.replace(/^\*/, '').normalize('NFD');
  return /[ptk]$/.test(s) ? '入' : s.includes('\u030C') ? '上' : s.includes('\u0300') ? '去' : '平';
};
const cantoneseTone = (r) =>
  /[ptk][1-6]$/.test(r) ? '入' : { 1: '平', 4: '平', 2: '上', 5: '上', 3: '去', 6: '去' }[r.slice(-1)];

// the dictionary's notes "also written X", for a character it has no entry of
const alsoWritten = new Map();
for (const entry of dictionary.廣韻.iter條目())
  for (const m of String(entry.釋義 || '').matchAll(/(?:亦作|或作|俗作|通作|今作|本作)(.)/gu)) {
    if (!alsoWritten.has(m[1])) alsoWritten.set(m[1], []);
    alsoWritten.get(m[1]).push(entry.音韻地位);
  }

const headingsOf = (places) => {
  const out = [];
  for (const p of places) {
    const h = heading.get(p.韻 + p.聲);
    if (h && !out.includes(h)) out.push(h);
  }
  return out;
};
const entries = (forms) => headingsOf([...forms].flatMap((f) => dictionary.query字頭(f).map((e) => e.音韻地位)));
const notes = (forms) => headingsOf([...forms].flatMap((f) => alsoWritten.get(f) || []));
const toneOnly = (forms) => {
  const out = [];
  for (const [table, toneOf] of [[tang, tangTone], [cantonese, cantoneseTone]]) {
    for (const f of forms) for (const r of table.get(f) || []) {
      const t = toneOf(r);
      if (t && !out.includes(t)) out.push(t);
    }
    if (out.length) return out;
  }
  return out;
};

const han = /[\u3400-\u9fff]/u;
const count = new Map();
for (const c of fs.readFileSync(corpus, 'utf8')) if (han.test(c)) count.set(c, (count.get(c) || 0) + 1);
const source = { dictionary: 0, notes: 0, variants: 0, tone: 0, none: 0 };
const lines = [];
for (const c of [...count.keys()].sort((a, b) => a.codePointAt(0) - b.codePointAt(0))) {
  let forms = new Set([c, ...(toTraditional.has(c) ? [toTraditional.get(c)] : []), ...(traditionalOf.get(c) || [])]);
  let readings = entries(forms), from = 'dictionary';
  if (!readings.length) (readings = notes(forms)), (from = 'notes');
  for (let step = 0; step < 2 && !readings.length; ++step) {
    forms = new Set([...forms, ...[...forms].flatMap((f) => [...(variants.get(f) || [])])]);
    readings = entries(forms), from = 'variants';
    if (!readings.length) readings = notes(forms);
  }
  if (!readings.length) (readings = toneOnly(forms)), (from = 'tone');
  if (!readings.length) from = 'none';
  source[from] += 1;
  if (readings.length) lines.push(`${c}\t${readings.join(' ')}`);
}
process.stdout.write(lines.join('\n') + '\n');
console.error(`tang_rhymes.js: ${count.size} characters — ${source.dictionary} from the dictionary, ` +
  `${source.notes} from its notes, ${source.variants} through variants, ${source.tone} with a tone ` +
  `alone (kTang, kCantonese), ${source.none} unknown`);
