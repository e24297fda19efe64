// pack_poet.js — writes the live book's poet (make book, where make run saved one): the model
// chapter 12 saved, its weights rounded to bfloat16 (ch12_gpt --write --bfloat16 --save), and the
// pronunciation tables its rhyme and tone masks read — Mandarin, and the Tang table where make
// wrote one — as one script that sets LIVE_POET to {path: text}: the files the page hands to the
// module (live_page.js), chapter 12's --write and chapter 14's --poem reading them at poet/.
// usage: node pack_poet.js MODEL.json PINYIN.txt [TANG.txt] > poet.js
"use strict";
const fs = require("fs");
const [model, pinyin, tang] = process.argv.slice(2);
const files = {
  "poet/model.json": fs.readFileSync(model, "utf8"),
  "poet/pinyin.txt": fs.readFileSync(pinyin, "utf8"),
};
if (tang) files["poet/tang.txt"] = fs.readFileSync(tang, "utf8");
process.stdout.write(
  "// the live book's poet (make book): " + [model, pinyin, tang].filter(Boolean).join(", ") +
  "\n" + "self.LIVE_POET = " + JSON.stringify(files) + ";\n");
