// pingshui.cpp — the 106 headings of 平水韵, in order (pingshui.h).
#include "verse/pingshui.h"

#include <vector>

#include "verse/poems.h"

namespace {

// each tone's headings, in the order of the rhyme books
const char* const level = "东冬江支微鱼虞齐佳灰真文元寒删先萧肴豪歌麻阳庚青蒸尤侵覃盐咸";
const char* const rising = "董肿讲纸尾语麌荠蟹贿轸吻阮旱潸铣筱巧皓哿马养梗迥有寝感琰豏";
const char* const departing = "送宋绛寘未御遇霁泰卦队震问愿翰谏霰啸效号箇祃漾敬径宥沁勘艳陷";
const char* const entering = "屋沃觉质物月曷黠屑药陌锡职缉合叶洽";

const std::vector<std::string>& headings() {
    static const std::vector<std::string> all = [] {
        std::vector<std::string> h;
        for (const char* tone : {level, rising, departing, entering})
            for (const std::string& c : characters(tone)) h.push_back(c);
        return h;
    }();
    return all;
}

// The neighbours, a line each (pingshui.h).
const char* const neighbours[] = {"东冬", "江阳", "支微齐", "鱼虞", "佳灰", "真文元", "元寒删先",
                                  "萧肴豪", "歌麻", "庚青蒸", "覃盐咸"};

TangTone tone_of_group(int group) {
    return group < 30 ? TangTone::Level
           : group < 59 ? TangTone::Rising
           : group < 89 ? TangTone::Departing
                        : TangTone::Entering;
}

}  // namespace

bool tang_reading(const std::string& text, TangReading& out) {
    const std::vector<std::string>& h = headings();
    for (std::size_t g = 0; g < h.size(); ++g)
        if (h[g] == text) {
            out = {tone_of_group(int(g)), int(g)};
            return true;
        }
    const char* const tones[] = {"平", "上", "去", "入"};
    for (int t = 0; t < 4; ++t)
        if (text == tones[t]) {
            out = {TangTone(t), -1};
            return true;
        }
    return false;
}

std::string pingshui_heading(int group) {
    return group >= 0 && group < pingshui_groups ? headings()[std::size_t(group)] : "";
}

bool neighbouring_groups(int a, int b) {
    if (a == b) return false;
    const std::string x = pingshui_heading(a), y = pingshui_heading(b);
    if (x.empty() || y.empty()) return false;
    for (const char* line : neighbours) {
        const std::string l = line;
        if (l.find(x) != std::string::npos && l.find(y) != std::string::npos) return true;
    }
    return false;
}
