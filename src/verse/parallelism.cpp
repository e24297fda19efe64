// parallelism.cpp — 对仗 measured on word classes and place names (parallelism.h).
#include "verse/parallelism.h"

#include <vector>

#include "verse/poem_measures.h"
#include "verse/poems.h"

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

// Two characters and more: the old regions, rivers, mountains, cities, passes and palaces;
// then single characters, the old states and rivers (吴 and 楚, 泾 and 渭).
const char* const places =
    "长安 洛阳 咸阳 江南 江东 潇湘 三湘 巫峡 巫山 三峡 瞿塘 黄河 长江 渭水 泾渭 汉水 湘江 湘水 "
    "洞庭 衡阳 岳阳 巴陵 江陵 金陵 扬州 广陵 襄阳 荆州 荆门 姑苏 会稽 若耶 剡溪 镜湖 太湖 "
    "五湖 武陵 西陵 浔阳 九江 彭泽 苍梧 云梦 蓬莱 瀛洲 瑶池 昆仑 华山 嵩山 终南 骊山 北邙 "
    "邙山 天山 阴山 燕山 巴山 秦岭 庐山 天台 峨眉 剑阁 白帝 关中 塞北 岭南 辽海 辽东 中原 "
    "蜀国 楚国 巴蜀 吴越 燕然 交河 轮台 居延 酒泉 玉门 玉关 阳关 函谷 潼关 蓟门 陇头 陇西 "
    "河阳 邯郸 渔阳 夜郎 楼兰 邺城 淮南 京口 建业 新丰 灞陵 霸陵 上林 昭阳 曲江 锦江 清江 "
    "西江 伊水 洛水 洛浦 湘浦 沅湘 汉阳 鄂渚 豫章 吴门 吴宫 楚宫 汉宫 秦川 长沙 赤壁 石城 "
    "洛城 秦关 楚山 吴山 蜀道 湘南 "
    "吴 楚 秦 蜀 巴 湘 洛 渭 陇 淮 郢 灞 汴 闽 邺 泾 沅";

// The place names, each as its characters.
const std::vector<std::vector<std::string>>& place_names() {
    static const std::vector<std::vector<std::string>> names = [] {
        std::vector<std::vector<std::string>> out(1);
        for (const std::string& c : characters(places)) {
            if (c != " ")
                out.back().push_back(c);
            else if (!out.back().empty())
                out.emplace_back();
        }
        return out;
    }();
    return names;
}

// The lengths of the place names that start at position `at` of the verse.
std::vector<std::size_t> names_at(const std::vector<std::string>& verse, std::size_t at) {
    std::vector<std::size_t> lengths;
    for (const std::vector<std::string>& name : place_names()) {
        if (at + name.size() > verse.size()) continue;
        bool same = true;
        for (std::size_t k = 0; k < name.size() && same; ++k) same = verse[at + k] == name[k];
        if (same) lengths.push_back(name.size());
    }
    return lengths;
}

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

std::vector<bool> places_answered(const std::vector<std::string>& a,
                                  const std::vector<std::string>& b) {
    std::vector<bool> answered(a.size(), false);
    if (a.size() != b.size()) return answered;
    for (std::size_t at = 0; at < a.size(); ++at)
        for (std::size_t length : names_at(a, at))
            for (std::size_t other : names_at(b, at))
                if (other == length)
                    for (std::size_t k = 0; k < length; ++k) answered[at + k] = true;
    return answered;
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
        const std::vector<bool> placed = places_answered(couplets[k][0], couplets[k][1]);
        for (std::size_t i = 0; i < n; ++i) {
            const std::string& a = couplets[k][0][i];
            const std::string& b = couplets[k][1][i];
            ++c.positions;
            if (!placed[i] && !same_word_class(a, b)) continue;
            ++c.same_class;
            const Tone ta = p.tone(p.at(couplets[k][0], i)), tb = p.tone(p.at(couplets[k][1], i));
            c.opposite += ta != Tone::Unknown && tb == opposite(ta);
        }
    }
    return c;
}
