// kneser_ney.cpp — counting, the three discounts, interpolation, sampling.
#include "ngram/kneser_ney.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/elementary.h"

namespace {

// D1, D2, D3+ from the number of n-grams seen once, twice, three and four times. With so little
// text that one of those is missing, or that an estimate falls outside what it discounts from
// (D1 in (0, 1), D2 in (0, 2), D3+ in (0, 3): beyond, a probability could reach 0), plain
// Kneser-Ney's single 0.75 for all three.
std::array<double, 3> estimate_discounts(const std::unordered_map<std::uint64_t, double>& counts) {
    double n[5] = {0, 0, 0, 0, 0};
    for (const auto& kv : counts)
        if (kv.second <= 4) n[static_cast<std::size_t>(kv.second)] += 1;
    if (n[1] == 0 || n[2] == 0 || n[3] == 0) return {0.75, 0.75, 0.75};
    const double y = n[1] / (n[1] + 2 * n[2]);
    const std::array<double, 3> d = {1 - 2 * y * n[2] / n[1], 2 - 3 * y * n[3] / n[2],
                                     3 - 4 * y * n[4] / n[3]};
    for (std::size_t k = 0; k < 3; ++k)
        if (!(d[k] > 0 && d[k] < double(k + 1))) return {0.75, 0.75, 0.75};
    return d;
}

// The sequence with order − 2 more <bos> in front (at least one): every predicted token has
// order − 1 tokens before it. Predicted: p[first_predicted(order)] on, the tokens after s's <bos>.
Tokens padded(const Tokens& s, std::size_t order) {
    Tokens p(std::max<std::size_t>(order, 3) - 2, s.front());
    p.insert(p.end(), s.begin(), s.end());
    return p;
}
std::size_t first_predicted(std::size_t order) { return std::max<std::size_t>(order, 3) - 1; }

}  // namespace

std::uint64_t KneserNey::key(const int* tokens, std::size_t n) const {
    std::uint64_t k = n;  // the length too: () and (0) differ
    for (std::size_t i = 0; i < n; ++i) k = k * vocab_ + static_cast<std::uint64_t>(tokens[i]);
    return k;
}

KneserNey::KneserNey(const std::vector<Tokens>& training, std::size_t vocab, std::size_t order)
    : vocab_(vocab), order_(order), levels_(order) {
    if (order < 1 || order > max_order)
        throw std::invalid_argument("KneserNey: order 1 to " + std::to_string(max_order));
    struct Gram {
        std::array<int, max_order> tokens;  // the first `level` of them
        double count = 0;
    };
    // every table sized once for what it will hold: growing one rehashes its entries again and
    // again (on a corpus of chapter 12's size, half the counting's time)
    std::size_t predicted = 0;
    for (const Tokens& s : training) predicted += s.size();
    // the highest order: how often each n-gram ends at a predicted position
    std::unordered_map<std::uint64_t, Gram> grams;
    grams.reserve(predicted);
    for (const Tokens& s : training) {
        const Tokens p = padded(s, order);
        for (std::size_t i = first_predicted(order); i < p.size(); ++i) {
            const int* g = &p[i + 1 - order];
            Gram& gram = grams[key(g, order)];
            std::copy(g, g + order, gram.tokens.begin());
            gram.count += 1;
        }
    }
    for (std::size_t level = order; level >= 1; --level) {
        Level& L = levels_[level - 1];
        L.counts.reserve(grams.size());
        L.seen_after.reserve(grams.size());
        L.histories.reserve(grams.size());
        for (const auto& [k, gram] : grams) {
            L.counts[k] = gram.count;
            L.seen_after[key(gram.tokens.data(), level - 1)].push_back(
                {gram.tokens[level - 1], gram.count});
            Followers& f = L.histories[key(gram.tokens.data(), level - 1)];
            f.total += gram.count;
            (gram.count == 1 ? f.n1 : gram.count == 2 ? f.n2 : f.n3) += 1;
        }
        L.discount = estimate_discounts(L.counts);
        if (level == 1) break;
        // the level below counts, for each shorter n-gram, the distinct tokens it came after
        std::unordered_map<std::uint64_t, Gram> shorter;
        shorter.reserve(grams.size());
        for (const auto& [k, gram] : grams) {
            Gram& s = shorter[key(gram.tokens.data() + 1, level - 1)];
            std::copy(gram.tokens.begin() + 1, gram.tokens.begin() + level, s.tokens.begin());
            s.count += 1;
        }
        grams.swap(shorter);
    }
}

double KneserNey::probability(const int* history_end, int w) const {
    double p = 1.0 / static_cast<double>(vocab_);  // below the unigram: every token alike
    int gram[max_order];
    for (std::size_t level = 1; level <= order_; ++level) {
        const Level& L = levels_[level - 1];
        const int* h = history_end - (level - 1);  // the last level − 1 tokens
        const auto f = L.histories.find(key(h, level - 1));
        if (f == L.histories.end()) continue;  // a history never seen: the lower order stands
        std::copy(h, history_end, gram);
        gram[level - 1] = w;
        const auto c = L.counts.find(key(gram, level));
        const double count = c == L.counts.end() ? 0.0 : c->second;
        const double d = count == 0   ? 0.0
                         : count == 1 ? L.discount[0]
                         : count == 2 ? L.discount[1]
                                      : L.discount[2];
        const Followers& n = f->second;
        const double gamma =
            (L.discount[0] * n.n1 + L.discount[1] * n.n2 + L.discount[2] * n.n3) / n.total;
        p = std::max(count - d, 0.0) / n.total + gamma * p;
    }
    return p;
}

void KneserNey::distribution(const int* history_end, std::vector<double>& p) const {
    p.assign(vocab_, 1.0 / static_cast<double>(vocab_));  // below the unigram: every token alike
    for (std::size_t level = 1; level <= order_; ++level) {
        const Level& L = levels_[level - 1];
        const std::uint64_t h = key(history_end - (level - 1), level - 1);
        const auto f = L.histories.find(h);
        if (f == L.histories.end()) continue;  // a history never seen: the lower order stands
        const Followers& n = f->second;
        const double gamma =
            (L.discount[0] * n.n1 + L.discount[1] * n.n2 + L.discount[2] * n.n3) / n.total;
        // a token never seen after h: 0 of its own, γ·P of the lower order (probability's
        // max(0 − 0, 0) / c + γ·p is that same γ·p)
        const std::vector<double> lower = p;
        for (double& x : p) x *= gamma;
        for (const auto& [w, count] : L.seen_after.at(h)) {
            const double d = count == 1 ? L.discount[0] : count == 2 ? L.discount[1] : L.discount[2];
            p[static_cast<std::size_t>(w)] =
                std::max(count - d, 0.0) / n.total + gamma * lower[static_cast<std::size_t>(w)];
        }
    }
}

double KneserNey::loss(const std::vector<Tokens>& sequences) const {
    double sum = 0;
    std::size_t n = 0;
    for (const Tokens& s : sequences) {
        const Tokens p = padded(s, order_);
        for (std::size_t i = first_predicted(order_); i < p.size(); ++i, ++n)
            sum -= elementary::log(probability(&p[i], p[i]));
    }
    return sum / static_cast<double>(n);
}

Tokens KneserNey::sample(const Tokens& start, int eos, int first_allowed, std::size_t max_length,
                         Random& rng) const {
    const std::size_t extra = first_predicted(order_) - 1;  // the <bos> added in front
    Tokens p = padded(start, order_);
    std::vector<double> weights(vocab_);
    while (p.size() - extra < max_length && p.back() != eos) {
        distribution(&p.back() + 1, weights);
        double total = 0;
        for (std::size_t b = 0; b < vocab_; ++b) {
            const int id = static_cast<int>(b);
            if (!(id == eos || id >= first_allowed)) weights[b] = 0.0;
            total += weights[b];
        }
        double u = rng.uniform() * total;  // inverse transform, as draw_token
        std::size_t b = 0;
        while (b + 1 < vocab_ && (u -= weights[b]) >= 0) ++b;
        p.push_back(static_cast<int>(b));
    }
    return Tokens(p.begin() + static_cast<std::ptrdiff_t>(extra), p.end());
}
