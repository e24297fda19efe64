// mistakes.cpp — every exercise's mistakes, from the three parts of the list.
#include "exercises/mistakes.h"

#include "text/translate.h"

const std::vector<Mistake>& mistakes_of(const std::string& exercise) {
    static const MistakeTable all = [] {
        MistakeTable table = attention_mistakes();
        for (const MistakeTable& part : {layer_mistakes(), later_mistakes()}) table.insert(part.begin(), part.end());
        return table;
    }();
    static const std::vector<Mistake> none;
    const auto it = all.find(exercise);
    return it == all.end() ? none : it->second;
}

std::string told(const Mistake& m) { return tr("a usual mistake, {} — {}", tr(m.mistake), tr(m.hint)); }
