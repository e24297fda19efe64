// translate.h — every sentence a program prints, in the reader's language.
//
// The English text stays in the code, where it is printed: tr("the weights of a row sum to 1").
// Its translation comes from a catalog keyed by that English text (gettext's convention), loaded
// once by the chapter runner (io/catalog.h, data/translations/zh.json). Numbers and names go in
// through placeholders, so that a translation can put them where its grammar wants them:
//
//     tr("Of the {} rows, {} look at the digit", rows, aligned)
//     catalog: "在 {1} 行中，{2} 行看向这个数字"      ({} in order, or {1}, {2}, … by position)
//
// Arguments are strings or whole numbers; a double must be formatted first (fixed, general),
// so that a translation never changes how a number is printed. A literal that is translated
// later (a table of names, a default title) is marked N_("…") so that the catalog test finds it.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

enum class Language { English, Chinese };

// The language and the catalog in use from now on (English needs none).
void set_translations(Language language, std::unordered_map<std::string, std::string> catalog);
Language current_language();

// The catalog's text for english, or english itself (in English, or when the catalog lacks it).
const std::string& translate(const std::string& english);

// pattern with its placeholders {} (in order) and {1}, {2}, … (by position) filled from args.
std::string fill_placeholders(const std::string& pattern, const std::vector<std::string>& args);

// The arguments a pattern uses, in the order it uses them (1 for the first): {} takes the next
// in order, {n} the n-th. "{} of {}" → 1 2; "{2} 的 {1}" → 2 1. Braces that are no placeholder
// ("y_{t−1}") are text. The catalog is checked with it: a translation uses the same arguments
// as its English key.
std::vector<std::size_t> placeholder_uses(const std::string& pattern);

namespace translate_detail {
inline std::string text(const std::string& s) { return s; }
inline std::string text(const char* s) { return s; }
template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
std::string text(T x) {
    return std::to_string(x);
}
}  // namespace translate_detail

template <typename... Args>
std::string tr(const std::string& english, const Args&... args) {
    if constexpr (sizeof...(Args) == 0)
        return translate(english);
    else
        return fill_placeholders(translate(english), {translate_detail::text(args)...});
}

// Items joined as the reader's language lists them: "a, b and c" (Chinese: "a、b 和 c").
std::string listed(const std::vector<std::string>& items);

// Clauses joined into one sentence: "a, b, and c" (Chinese: "a，b，c"): whole statements, which
// Chinese does not join with 和 as it joins nouns.
std::string clauses(const std::vector<std::string>& items);

// Marks a literal translated where it is used (tr(names[i])), for the catalog test to find.
constexpr const char* N_(const char* english) { return english; }

// A count with its noun, in the reader's language: one for 1, many otherwise —
// count_of(n, N_("{} row"), N_("{} rows")) gives "1 row", "3 rows", "3,559 rows" (Chinese: "3 行"
// for both).
std::string count_of(std::size_t n, const char* one, const char* many);
