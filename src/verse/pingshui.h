// pingshui.h — the rhyme groups of 平水韵, the table regulated verse was judged by: the 广韵's
// 206 rhymes merged into 106 groups, each named by its heading character and holding one tone —
// 30 level (上平 东 冬 江 … 删, 下平 先 萧 … 咸), 29 rising (董 肿 讲 …), 30 departing (送 宋 绛 …)
// and 17 entering (屋 沃 觉 …; the old entering tone, 入声, ended in -p, -t or -k and is
// oblique). No heading repeats, so a heading names its tone as well as its group; the pronunciation
// table chapter 12 reads (build/corpus/tang.txt, data/corpus/tang_rhymes.js) gives each
// character's readings as headings, or as a tone alone (平 上 去 入) where its rhyme is not known.
#pragma once
#include <string>

enum class TangTone { Level, Rising, Departing, Entering };

struct TangReading {
    TangTone tone = TangTone::Level;
    int group = -1;  // 0 … 105, the headings in the order above; −1: the tone alone
};

constexpr int pingshui_groups = 106;

// A reading as the table writes it: a heading ("东", "屋") or a tone alone ("平", "入"). False
// for anything else.
bool tang_reading(const std::string& text, TangReading& out);
// The heading of group 0 … 105 ("东" … "洽").
std::string pingshui_heading(int group);
// Whether two level groups are neighbours (邻韵), the groups a poem's first verse may borrow its
// rhyme from (首句借韵): 东 冬 · 江 阳 · 支 微 齐 · 鱼 虞 · 佳 灰 · 真 文 元 · 元 寒 删 先 ·
// 萧 肴 豪 · 歌 麻 · 庚 青 蒸 · 覃 盐 咸 — the neighbours the handbooks list (王力《汉语诗律学》,
// 近体诗 · 首句用邻韵). A group is not its own neighbour.
bool neighbouring_groups(int a, int b);
