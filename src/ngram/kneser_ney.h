// kneser_ney.h — the n-gram baseline a language modeller would pick: interpolated modified
// Kneser-Ney (Chen & Goodman 1998), of order 2 (bigram) to 5. Chapter 12 measures its model
// against the best of them.
//
// A sequence <bos> c1 … <eos> is read with order − 2 more <bos> in front, so every predicted
// token (each one after the first <bos>) has order − 1 tokens of history. Three ideas:
//
// - Discounting: a few of every count are taken away and given to what was never seen. How many
//   depends on the count — modified Kneser-Ney keeps three discounts per order, for n-grams
//   seen once (D1), twice (D2) and three or more times (D3+), estimated from how many n-grams
//   have each count (n1 … n4): Y = n1/(n1 + 2·n2), D1 = 1 − 2Y·n2/n1, D2 = 2 − 3Y·n3/n2,
//   D3+ = 3 − 4Y·n4/n3. (Plain Kneser-Ney has one discount, about 0.75.)
// - Interpolation: what was taken from a history h is spread by the next lower order, always:
//     P(w | h) = max(c(h w) − D(c(h w)), 0) / c(h ·) + γ(h)·P(w | h minus its first token)
//     γ(h)     = (D1·N1(h ·) + D2·N2(h ·) + D3+·N3+(h ·)) / c(h ·)
//   with N_k(h ·) the number of distinct tokens seen after h k times (N3+: three or more). A
//   history never seen leaves the lower order's P. Below the unigram: 1/V for every token.
// - Continuation counts: below the highest order, c(h w) is not how often h w came but after how
//   many distinct tokens it came — a character that only ever follows one other (the 鹉 of 鹦鹉)
//   is a poor guess after anything else, however often it was seen.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/random.h"
#include "model/transformer/tokens.h"  // exports: token ids

class KneserNey {
public:
    static constexpr std::size_t max_order = 5;
    // Counts the training sequences; order 1 to max_order; vocab: the number of token ids.
    KneserNey(const std::vector<Tokens>& training, std::size_t vocab, std::size_t order);
    std::size_t order() const { return order_; }
    // P(w | the last order − 1 tokens of history); history holds at least order − 1 tokens
    double probability(const int* history_end, int w) const;
    // P(· | history) for every token at once into p (vocab entries): the same arithmetic as
    // probability(history_end, w) for each w, level by level over the tokens seen after each
    // history instead of looking every token up.
    void distribution(const int* history_end, std::vector<double>& p) const;
    // Mean −log P (nats) of every token after each sequence's first <bos>.
    double loss(const std::vector<Tokens>& sequences) const;
    // D1, D2, D3+ of level k (1: unigrams … order)
    std::array<double, 3> discounts(std::size_t k) const { return levels_[k - 1].discount; }
    // From start, each next token drawn from P(· | history) — never one with an id below
    // first_allowed other than eos — until eos or max_length tokens.
    Tokens sample(const Tokens& start, int eos, int first_allowed, std::size_t max_length,
                  Random& rng) const;

private:
    struct Followers {
        double total = 0;         // c(h ·)
        double n1 = 0, n2 = 0, n3 = 0;  // distinct tokens after h seen 1, 2, 3+ times
    };
    struct Level {
        std::unordered_map<std::uint64_t, double> counts;        // key of (h, w) -> c(h w)
        std::unordered_map<std::uint64_t, Followers> histories;  // key of h -> what follows
        // key of h -> each token seen after it, with c(h w)
        std::unordered_map<std::uint64_t, std::vector<std::pair<int, double>>> seen_after;
        std::array<double, 3> discount{};
    };
    std::uint64_t key(const int* tokens, std::size_t n) const;  // n tokens as one number
    std::size_t vocab_, order_;
    std::vector<Level> levels_;  // [k − 1]: level k
};
