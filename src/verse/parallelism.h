// parallelism.h — 对仗: in a regulated poem of four couplets the middle two (颔联 and 颈联) are
// parallel — each character of the second verse answers the one above it, a number a number, a
// colour a colour, a direction a direction, in the opposite tone. Measured on the word classes
// below, a short list, not a dictionary: a pair of aligned characters counts when some class
// holds both (日 and 月 are times and heavens); of those, the pairs whose tones are opposite by
// the table (one can only be level, the other only oblique).
//   numbers      一二三四五六七八九十百千万两双半几孤独数
//   colours      红白青黄绿紫碧翠黑赤丹朱苍素金银玄
//   directions   东西南北上下左右前后中内外里边
//   times        春夏秋冬朝暮晨夕昼夜今古年月日时岁晓晚
//   heavens      天日月星云风雨雪霜露雷烟霞虹
//   landscape    山水江河湖海溪泉峰岭林石沙洲岸城楼台关桥
//   plants       花草木树柳松竹梅兰菊桃李莲荷叶枝苔
//   animals      鸟雁鸿莺燕鹤猿马牛羊鱼龙虎蝉鹭鸥凤
// Places are words, not characters: a place name answers a place name of as many characters
// starting at the same position of the other verse (巫峡 and 衡阳, 吴 and 楚), and each of their
// characters then counts as a pair in one class. The names (parallelism.cpp) are the old states,
// rivers, mountains, cities and palaces the middle couplets of the complete Tang poems use most,
// found among CC-CEDICT's place entries and read one by one; a name that is also a common word
// (越 "to cross", 汝 "you", 燕 "swallow", 未央 "not ended") is left out.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "verse/verse.h"

struct ParallelCounts {
    std::size_t couplets = 0;    // middle couplets of four-couplet poems (both verses 5 or 7)
    std::size_t positions = 0;   // their aligned pairs of characters
    std::size_t same_class = 0;  // … in one word class
    std::size_t opposite = 0;    // … of those, with opposite tones
};

// One poem's middle couplets (none unless it has four couplets of one length).
ParallelCounts count_parallelism(const std::string& text, const Pronunciations& p);
// Whether some word class holds both characters.
bool same_word_class(const std::string& a, const std::string& b);
// For two verses of one length, each position where a place name of one answers a place name
// of the other (same start, same length).
std::vector<bool> places_answered(const std::vector<std::string>& a,
                                  const std::vector<std::string>& b);
