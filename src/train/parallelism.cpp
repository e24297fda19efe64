// parallelism.cpp — 对仗 measured on word classes (parallelism.h).
#include "train/parallelism.h"

#include <vector>

#include "train/poem_measures.h"
#include "train/poems.h"

namespace {

const char* const classes[] = {
    "一二三四五六七八九十百千万两双半几孤独数",
    "红白青黄绿紫碧翠黑赤丹朱苍素金银玄",
    "东西南北上下左右前后中内外里边",
    "春夏秋冬朝暮晨夕昼夜今古年月日时岁晓晚",
    "天日月星云风雨雪霜露雷烟霞虹",
    "山水江河湖海溪泉峰岭林石沙洲岸城楼台关桥",
    "花草木树柳松竹梅兰菊桃李莲荷叶枝苔",
    "鸟雁鸿莺燕鹤猿马牛羊鱼龙虎蝉鹭鸥凤",
};

bool in_class(const std::string& c, const char* members) {
    for (const std::string& m : characters(members))
        if (m == c) return true;
    return false;
}

}  // namespace

bool same_word_class(const std::string& a, const std::string& b) {
    for (const char* members : classes)
        if (in_class(a, members) && in_class(b, members)) return true;
    return false;
}

ParallelCounts count_parallelism(const std::string& text, const Pronunciations& p) {
    ParallelCounts c;
    const std::vector<std::string> lines = body_lines(text);
    if (lines.size() != 4) return c;
    std::vector<std::vector<std::vector<std::string>>> couplets;
    for (const std::string& line : lines) couplets.push_back(verses_of(line));
    const std::size_t n = couplets[0].empty() ? 0 : couplets[0][0].size();
    if (n != 5 && n != 7) return c;
    for (const auto& v : couplets)
        if (v.size() != 2 || v[0].size() != n || v[1].size() != n) return c;
    for (std::size_t k = 1; k <= 2; ++k) {
        ++c.couplets;
        for (std::size_t i = 0; i < n; ++i) {
            const std::string& a = couplets[k][0][i];
            const std::string& b = couplets[k][1][i];
            ++c.positions;
            if (!same_word_class(a, b)) continue;
            ++c.same_class;
            const Tone ta = p.tone(a), tb = p.tone(b);
            c.opposite += ta != Tone::Unknown && tb == opposite(ta);
        }
    }
    return c;
}
