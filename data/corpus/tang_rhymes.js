// tang_rhymes.js — each character of chapter 12's corpus with its reading as a Tang poet heard
// it: the rhyme group of 平水韵 (the 106 groups regulated verse was judged by from the Song on,
// the Tang's permitted rhyme sets of the 广韵 merged), which names its tone too. One line per
// character, in code point order, then one per word that reads a character otherwise:
//
//   东<TAB>东
//   行<TAB>庚
//   看<TAB>寒 翰
//   国<TAB>职
//   魂<TAB>平
//   三更<TAB>覃<TAB>庚
//
// A reading is a group's heading: 30 level (平: 东 冬 江 …), 29 rising (上: 董 肿 讲 …),
// 30 departing (去: 送 宋 绛 …) and 17 entering (入: 屋 沃 觉 …) — no heading repeats, so it
// names the tone. Where the dictionary has no entry for a character, a reading may be its tone
// alone (平, 上, 去 or 入): its rhyme is not known.
//
// One reading per character where it stands, not every reading the dictionary has (行 rhymes in
// 庚 as "walk", in 阳 only as "a row"): of a character's 广韵 entries, those
// - of the character the corpus's character most likely stands for: itself where the dictionary
//   has it, else OpenCC's first traditional form (烟: 煙, not 菸; 听: 聽), and only where neither
//   has an entry every character simplification merged into it;
// - not a surname alone (the gloss opens with 姓: 余 in 麻 is a surname);
// - that became the character's Mandarin reading: its tone (a level entry reads 1 or 2 today, a
//   rising one 3, or 4 after a fully voiced initial, a departing one 4; an entering one any tone,
//   for Mandarin lost it), its final as the group's finals read today (东 ong, 阳 ang, 先 an …;
//   an entering one never ends in -n or -ng today: 圣 is 聖 shèng, not 苦骨切 kū)
//   and a light labial (f) only from a labial of division three C (繁 附袁切 fán, not 薄官切 pán)
//   — the sound changes from the 广韵 to Mandarin, read off pinyin-pro's first reading (its most
//   common). Mandarin decides which entry, never the tone itself: 不 bù is 物 (entering).
//   Where no entry fits, they all stay.
// The characters that are truly level or oblique in the same sense in Tang verse keep an entry of
// each tone whose final fits (TWO_WAY below: 看 望 忘 听 过 叹 论 教 应 为 思 — the list of 平仄两读
// the 格律 handbooks give, 王力《汉语诗律学》 among them).
// A word whose reading of a character is another comes after the characters, each character's
// reading in it a field of its own: the words pinyin-pro reads otherwise (its lines in the
// Mandarin table, pronunciation.js: 三更 geng1, 重阳 chong2, 亲家 qing4 — the entry chosen the
// same way), then the words where Mandarin misleads, written with their sources in
// data/corpus/tang_readings.txt (不胜: 勝 識蒸切 "任也", level; pinyin-pro reads shèng).
//
// Sources, all fetched by make (never copied into the project):
// - the 广韵's entries as the npm package tshet-uinh (nk2028, MIT) has them: each entry's rhyme
//   (of the 切韵 system's 61), tone, initial and gloss, the rhyme turned into a 平水韵 heading by
//   ROWS below — the standard merging (东; 冬 with 钟; 支 脂 之; …; 蒸 登 rising and departing in
//   迥 and 径);
// - the corpus is in simplified characters and the dictionary in traditional ones: OpenCC's
//   simplified-to-traditional conversion and each traditional character it simplifies (后: 后
//   and 後) — the dictionaries of the npm package opencc-js (MIT, the dictionaries Apache-2.0);
// - then, for a character still not found: the dictionary's own notes that a character is also
//   written another way (𩏑 … 亦作韓: 韩 reads as 𩏑), and Unicode's variants (Unihan_Variants:
//   semantic and Z variants — 峯 for 峰), one step and then two;
// - then its tone alone: from Unihan's kTang (Tang readings, Stimson's notation: a caron rising,
//   a grave departing, a final -p -t -k entering) or, failing that, kCantonese (Cantonese keeps
//   the entering tone as a final -p -t -k: tones 1 and 4 level, 2 and 5 rising, 3 and 6
//   departing) — Debian's unicode-data;
// - the Mandarin readings: build/corpus/pinyin.txt (pronunciation.js, pinyin-pro).
//
// usage: node tang_rhymes.js CORPUS_FILE TSHET_UINH_DIR OPENCC_FULL_JS UNIHAN_VARIANTS UNIHAN_READINGS PINYIN_FILE TANG_READINGS > out.txt
// (the two Unihan files uncompressed). A count of what each source gave goes to stderr.
'use strict';
const fs = require('fs');
const path = require('path');

const [corpus, tshetUinh, openccJs, unihanVariants, unihanReadings, pinyinFile, tangReadings] =
  process.argv.slice(2);
if (!tangReadings) {
  console.error('usage: node tang_rhymes.js CORPUS_FILE TSHET_UINH_DIR OPENCC_FULL_JS UNIHAN_VARIANTS UNIHAN_READINGS PINYIN_FILE TANG_READINGS');
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

// The Mandarin readings: each character's (its first the most common), and the words that read
// one of their characters otherwise (pronunciation.js)
const mandarin = new Map(), mandarinWords = [];
for (const line of fs.readFileSync(pinyinFile, 'utf8').split('\n')) {
  const f = line.split('\t');
  if (f.length === 2) mandarin.set(f[0], f[1].split(' '));
  else if (f.length === 3) mandarinWords.push(f);
}
// A pinyin reading ("xing2") as initial, final and tone.
const syllable = (r) => {
  const m = /^(zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw]?)([a-zü]+)([0-5])$/u.exec(r || '');
  if (!m) return null;
  let [, initial, fin, tone] = m;
  if (initial === 'y') fin = fin === 'u' || fin.startsWith('ue') || fin.startsWith('un') || fin.startsWith('uan') ? 'ü' + fin.slice(1) : fin.startsWith('i') ? fin : 'i' + fin;
  if (initial === 'w') fin = fin.startsWith('u') ? fin : 'u' + fin;
  if ('jqx'.includes(initial) && initial && fin.startsWith('u')) fin = 'ü' + fin.slice(1);
  return { initial, fin, tone: Number(tone) };
};
// The finals each row of 平水韵 reads as today (its level, rising and departing groups; an
// entering group fits any final), by ROWS' order: the regular outcomes, generously.
const FINALS = [
  'ong iong eng', 'ong iong', 'ang iang uang ong', 'i ei ui er', 'i ei ui', 'u ü', 'u ü', 'i ei ui',
  'ai ei ui a ua', 'ai ia a ua ie uai', 'ui ei ai uai', 'en in un ün', 'en in un ün',
  'an ian uan üan en un ün', 'an uan', 'an ian uan', 'an ian uan üan', 'ao iao', 'ao iao', 'ao',
  'e o uo', 'a ia ua e ie üe', 'ang iang uang', 'eng ing ong iong', 'ing iong', 'eng ing ong',
  'ou iu u', 'en in', 'an', 'an ian', 'an ian',
].map((f) => f.split(' '));
const rowOf = new Map();
ROWS.forEach((row, i) => { for (let t = 0; t < 3; ++t) if (row[t] !== '·') rowOf.set(row[t], i); });
// Whether a 广韵 entry (its heading and place) became this Mandarin reading: tone, final, and
// the light labial f.
const fitsTone = (e, m) => e.tone === '入' || (e.tone === '平' ? m.tone === 1 || m.tone === 2
  : e.tone === '上' ? m.tone === 3 || (m.tone === 4 && e.place.清濁 === '全濁') : m.tone === 4);
// (an entering syllable ended in -p, -t or -k, and Mandarin reads it open: never with -n or -ng)
const fitsFinal = (e, m) => e.tone === '入' ? !/n$|ng$/.test(m.fin)
  : (FINALS[rowOf.get(e.heading)] || []).includes(m.fin);
const fitsInitial = (e, m) =>
  m.initial !== 'f' || ('幫滂並'.includes(e.place.母) && e.place.類 === 'C');
// 平仄两读: the characters read level or oblique in one sense (the handbooks' list: 看 望 忘 听
// 过 叹 论 教 应 为 思), and those of two senses, each with its tone, both common in Tang verse,
// which only the sense tells apart where no word does — a gloss of the 广韵 for each tone:
//   重 直容切 複也 (again) · 直隴切 厚也 (heavy)      更 古行切 改也 (to change; a watch) · 古孟切 易也
//   将 即良切 送也 行也 (to take; about to) · 子亮切 將帥   相 息良切 共供也 (each other) · 息亮切 助也 (a minister)
//   分 府文切 賦也 別也 (to divide) · 扶問切 分劑 (a share) 空 苦紅切 空虛 · 苦貢切 空缺 (to empty)
//   令 呂貞切 使也 (to make) · 力政切 善也 命也 (an order) 难 那干切 艱也 · 奴案切 患也 (calamity)
//   和 戶戈切 順也 (in harmony) · 胡臥切 聲相應 (to answer a poem)  调 徒聊切 和也 · 徒弔切 (a tune)
//   骑 渠羈切 跨馬 (to ride) · 奇寄切 騎乘 (a horseman) 降 下江切 降伏 (to submit) · 古巷切 下也
//   长 直良切 久也 (long) · 知丈切 大也 (to grow; elder) 施 式支切 施設 (to lay out) · 施智切 雲行雨施 (to bestow)
//   浪 魯當切 滄浪 · 來宕切 波浪                          障 諸良切 (to screen) · 之亮切 (a screen)
//   暝 莫經切 晦暝 (dark) · 莫定切 夕也 (dusk)            燕 烏前切 國名 (the state; 燕然) · 於甸切 玄鳥 (a swallow)
//   传 直攣切 轉也 (to pass on) · 知戀切 郵馬 (relay horses: 传车)  缝 符容切 紩 (to sew) · 扶用切 衣縫 (a seam)
// And one read in two rhymes in one sense: 车 九魚切 車輅 (鱼, 终见降王走传车 with 书 如) · 尺遮切
// (麻, 香车宝马 with 花 家).
const TWO_WAY = new Set([...'看望忘听聽过過叹嘆歎论論教应應为爲為思车車']);
const TWO_SENSES = new Set([...'重更将將相分空令难難和调調骑騎降长長施浪障暝燕传傳缝縫']);
// Each 广韵 entry of these forms: its heading, tone, place and gloss (one per heading).
const listOf = (found) => {
  const out = [];
  for (const [place, gloss] of found) {
    const h = heading.get(place.韻 + place.聲);
    if (!h || out.some((o) => o.heading === h)) continue;
    out.push({ heading: h, tone: place.聲, place, gloss });
  }
  return out;
};
const entryList = (forms) => listOf([...forms].flatMap((f) =>
  dictionary.query字頭(f).map((e) => [e.音韻地位, String(e.釋義 || '')])));
// the entries the dictionary's notes give a form ("also written"), without a gloss
const noteList = (forms) => listOf([...forms].flatMap((f) => (alsoWritten.get(f) || []).map((p) => [p, ''])));
// The entries a character is read by where it has this Mandarin reading (above): by itself, or
// in a word, where a character of two senses takes the one the word reads.
const chosen = (c, list, reading, inWord = false) => {
  const m = syllable(reading);
  let kept = list.filter((e) => !/^姓/u.test(e.gloss));
  if (!kept.length) kept = list;
  if (!m || kept.length < 2) return kept;
  const two = TWO_WAY.has(c) || (TWO_SENSES.has(c) && !inWord);
  const readings = two ? (mandarin.get(c) || [reading]).map(syllable).filter(Boolean) : [m];
  const fit = (test) => kept.filter((e) => readings.some((r) => test(e, r)));
  for (const test of [
    (e, r) => (two || fitsTone(e, r)) && fitsFinal(e, r) && fitsInitial(e, r),
    (e, r) => (two || fitsTone(e, r)) && fitsFinal(e, r),
    (e, r) => two || fitsTone(e, r)]) {
    const f = fit(test);
    if (f.length) return f;
  }
  return kept;
};

const han = /[\u3400-\u9fff]/u;
const count = new Map();
for (const c of fs.readFileSync(corpus, 'utf8')) if (han.test(c)) count.set(c, (count.get(c) || 0) + 1);
const source = { dictionary: 0, notes: 0, variants: 0, tone: 0, none: 0 };
let narrowed = 0, several = 0;
const lines = [], entriesOf = new Map(), own = new Map();
for (const c of [...count.keys()].sort((a, b) => a.codePointAt(0) - b.codePointAt(0))) {
  // the character itself and its first traditional form, else every form merged into it, else
  // its variants, one step and then two
  const first = new Set([c, ...(toTraditional.has(c) ? [toTraditional.get(c)] : [])]);
  let forms = new Set([...first, ...(traditionalOf.get(c) || [])]);
  let list = entryList([...first]), from = 'dictionary', readings = [];
  if (!list.length) list = entryList([...forms]);
  if (!list.length) (list = noteList(forms)), (from = 'notes');
  for (let step = 0; step < 2 && !list.length; ++step) {
    forms = new Set([...forms, ...[...forms].flatMap((f) => [...(variants.get(f) || [])])]);
    list = entryList([...forms]), from = 'variants';
    if (!list.length) list = noteList(forms);
  }
  if (list.length) {
    entriesOf.set(c, list);
    const one = chosen(c, list, (mandarin.get(c) || [])[0]);
    if (one.length < list.length) ++narrowed;
    readings = one.map((e) => e.heading);
    if (new Set(one.map((e) => e.tone === '平')).size > 1) ++several;
  }
  if (!readings.length) (readings = toneOnly(forms)), (from = 'tone');
  if (!readings.length) from = 'none';
  source[from] += 1;
  if (readings.length) {
    own.set(c, readings.join(' '));
    lines.push(`${c}\t${readings.join(' ')}`);
  }
}
// The words: Mandarin's (pronunciation.js), each character's entry chosen by its reading in the
// word, where that differs from the character's own; then the words of tang_readings.txt, which
// name their readings and replace a Mandarin word's.
const words = new Map();
for (const [word, ...read] of mandarinWords) {
  const c = [...word];
  if (!own.has(c[0]) || !own.has(c[1])) continue;
  const r = c.map((ch, i) => entriesOf.has(ch) ? chosen(ch, entriesOf.get(ch), read[i], true).map((e) => e.heading).join(' ') : own.get(ch));
  if (r[0] !== own.get(c[0]) || r[1] !== own.get(c[1])) words.set(word, r);
}
let listed = 0;
const isHeading = (h) => rowOf.has(h) || /^[屋沃觉质物月曷黠屑药陌锡职缉合叶洽]$/u.test(h);
for (const line of fs.readFileSync(tangReadings, 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [key, ...rest] = line.split('\t');
  const c = [...key];
  const r = rest.slice(0, c.length);
  if (c.length > 2 || r.length !== c.length || !r.every((x) => x.split(' ').every(isHeading))) {
    console.error(`tang_rhymes.js: ${tangReadings}: "${line}": expected a character or a word of two, ` +
      'and a reading (平水韵 headings) for each, tab-separated');
    process.exit(2);
  }
  if (c.length === 1) {
    const at = lines.findIndex((l) => l.startsWith(key + '\t'));
    if (at >= 0) lines[at] = `${key}\t${r[0]}`;
    own.set(key, r[0]);
  } else words.set(key, r);
  ++listed;
}
for (const w of [...words.keys()].sort()) lines.push(`${w}\t${words.get(w).join('\t')}`);
process.stdout.write(lines.join('\n') + '\n');
console.error(`tang_rhymes.js: ${count.size} characters — ${source.dictionary} from the dictionary ` +
  `(${narrowed} of them narrowed to the entries read where they stand, ${several} still level or oblique), ` +
  `${source.notes} from its notes, ${source.variants} through variants, ${source.tone} with a tone ` +
  `alone (kTang, kCantonese), ${source.none} unknown; ${words.size} words (and ${listed} characters and words from ${path.basename(tangReadings)})`);
