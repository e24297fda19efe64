// ngram.cpp — counting, smoothing, sampling.
#include "ngram/ngram.h"

#include <cmath>

#include "core/elementary.h"

NgramCounts::NgramCounts(const std::vector<Tokens>& training, std::size_t vocab)
    : vocab_(vocab), unigram_(vocab, 0.0) {
    for (const Tokens& s : training)
        for (std::size_t t = 1; t < s.size(); ++t) {
            unigram_[static_cast<std::size_t>(s[t])] += 1;
            ++total_;
            pairs_[s[t - 1]][s[t]] += 1;
            followed_[s[t - 1]] += 1;
        }
}

double NgramCounts::unigram(int b) const {
    return (unigram_[static_cast<std::size_t>(b)] + 1) / (static_cast<double>(total_ + vocab_));
}

double NgramCounts::bigram(int a, int b) const {
    double ab = 0, a_any = 0;
    if (const auto it = pairs_.find(a); it != pairs_.end()) {
        if (const auto jt = it->second.find(b); jt != it->second.end()) ab = jt->second;
        a_any = followed_.at(a);
    }
    return (ab + 1) / (a_any + static_cast<double>(vocab_));
}

double NgramCounts::unigram_loss(const std::vector<Tokens>& sequences) const {
    double sum = 0;
    std::size_t n = 0;
    for (const Tokens& s : sequences)
        for (std::size_t t = 1; t < s.size(); ++t, ++n) sum -= elementary::log(unigram(s[t]));
    return sum / static_cast<double>(n);
}

double NgramCounts::bigram_loss(const std::vector<Tokens>& sequences) const {
    double sum = 0;
    std::size_t n = 0;
    for (const Tokens& s : sequences)
        for (std::size_t t = 1; t < s.size(); ++t, ++n) sum -= elementary::log(bigram(s[t - 1], s[t]));
    return sum / static_cast<double>(n);
}

Tokens NgramCounts::sample(const Tokens& start, int eos, int first_allowed, std::size_t max_length,
                           Random& rng) const {
    Tokens out = start;
    while (out.size() < max_length && out.back() != eos) {
        std::vector<double> p(vocab_);
        double total = 0;
        for (std::size_t b = 0; b < vocab_; ++b) {
            const int id = static_cast<int>(b);
            p[b] = id == eos || id >= first_allowed ? bigram(out.back(), id) : 0.0;
            total += p[b];
        }
        double u = rng.uniform() * total;  // inverse transform, as draw_token
        std::size_t b = 0;
        while (b + 1 < vocab_ && (u -= p[b]) >= 0) ++b;
        out.push_back(static_cast<int>(b));
    }
    return out;
}
