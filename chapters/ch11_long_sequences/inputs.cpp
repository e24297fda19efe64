// ch11_long_sequences/inputs.cpp — chapter 11's data file, read and checked.
#include "ch11_long_sequences/inputs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "report/heatmap.h"
#include "text/translate.h"

namespace ch11_long_sequences {

namespace {

Case read_case(const DataFile& data, const std::string& name) {
    const std::string k = "inputs.cases." + name + ".";
    Case c{name,
           data.matrix(k + "Q"),
           data.matrix(k + "K"),
           data.matrix(k + "V"),
           data.matrix(k + "dO"),
           {data.flag(k + "causal"), data.flags(k + "key_padding"), {}},
           {}};
    if (c.K.cols != c.Q.cols)
        throw data.error(k + "K", tr("expected {} columns, as Q (d_k)", c.Q.cols));
    if (c.V.rows != c.K.rows)
        throw data.error(k + "V", tr("expected {} rows, one value per key", c.K.rows));
    if (c.dO.rows != c.Q.rows || c.dO.cols != c.V.cols)
        throw data.error(k + "dO",
                         tr("expected ({} x {}), the shape of the output", c.Q.rows, c.V.cols));
    if (c.rule.padding.size() != c.K.rows)
        throw data.error(k + "key_padding", tr("expected {} entries, one per key", c.K.rows));
    const std::vector<std::size_t> t = data.sizes(k + "tiles", 1, 1 << 20);
    if (t.size() != 2) throw data.error(k + "tiles", tr("expected [queries, keys] per block"));
    c.tiles = {t[0], t[1]};
    return c;
}

}  // namespace

Inputs read_inputs(const DataFile& data) {
    Inputs in;
    in.online_tokens = data.texts("inputs.online.tokens");
    in.online_query = data.text("inputs.online.query");
    const Matrix scores = data.vector("inputs.online.scores");
    in.online_scores.assign(scores.data.begin(), scores.data.end());
    if (in.online_scores.empty() || in.online_tokens.size() != in.online_scores.size())
        throw data.error("inputs.online.scores", tr("expected one score per token, at least one"));
    for (const std::string& name : data.keys("inputs.cases"))
        in.cases.push_back(read_case(data, name));
    if (in.cases.empty()) throw data.error("inputs.cases", tr("expected at least one case"));
    const std::string traced = data.text("inputs.trace.case");
    auto found = std::find_if(in.cases.begin(), in.cases.end(),
                              [&](const Case& c) { return c.name == traced; });
    if (found == in.cases.end())
        throw data.error("inputs.trace.case", tr("expected the name of one of inputs.cases"));
    in.trace_case = static_cast<std::size_t>(found - in.cases.begin());
    in.trace_row = data.size("inputs.trace.row", 0, found->Q.rows - 1);
    in.lengths = data.sizes("inputs.memory.lengths", 1, 1 << 16);
    in.d_k = data.size("inputs.memory.d_k", 1, 4096);
    // a tile as long as the longest sequence is already the whole pass: no longer one
    in.tile = data.size("inputs.memory.tile", 1,
                        *std::max_element(in.lengths.begin(), in.lengths.end()));
    in.seed = data.seed("inputs.memory.seed");
    return in;
}

}  // namespace ch11_long_sequences
