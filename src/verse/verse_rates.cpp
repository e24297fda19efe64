// verse_rates.cpp — verse measures as rates with standard errors over poems (verse_rates.h).
#include "verse/verse_rates.h"

#include <cmath>

#include "verse/parallelism.h"
#include "verse/regulated_verse.h"

Rate rate_over_poems(const std::vector<std::pair<std::size_t, std::size_t>>& per_poem) {
    Rate r;
    std::size_t n = 0;  // poems with something to count
    for (const auto& [y, x] : per_poem) r.count += y, r.of += x, n += x > 0;
    if (r.of == 0) return r;
    r.share = double(r.count) / double(r.of);
    if (n < 2) return r;
    double squares = 0;
    for (const auto& [y, x] : per_poem) {
        const double d = double(y) - r.share * double(x);
        squares += d * d;
    }
    r.se = std::sqrt(double(n) / double(n - 1) * squares) / double(r.of);
    return r;
}

VerseRates verse_rates(const std::vector<std::string>& texts, const Pronunciations& p) {
    std::vector<std::pair<std::size_t, std::size_t>> rhyme, tones, passed, repeated, three, lone,
        first, parallel, parallel_tones;
    for (const std::string& text : texts) {
        const VerseMeasures v = measure_verse({text}, p);
        rhyme.push_back({v.rhyming, v.rhyme_places});
        tones.push_back({v.tones_kept, v.tone_verses});
        const RegulatedMeasures m = measure_regulated({text}, p);
        passed.push_back({m.passed, m.poems});
        repeated.push_back({m.repeated_rhyme, m.poems});
        three.push_back({m.three_level, m.poems});
        lone.push_back({m.lone_level, m.poems});
        first.push_back({m.first_rhyming, m.first_level});
        const ParallelCounts c = count_parallelism(text, p);
        parallel.push_back({c.same_class, c.positions});
        parallel_tones.push_back({c.opposite, c.same_class});
    }
    return {rate_over_poems(rhyme),    rate_over_poems(tones), rate_over_poems(passed),
            rate_over_poems(repeated), rate_over_poems(three), rate_over_poems(lone),
            rate_over_poems(first),    rate_over_poems(parallel), rate_over_poems(parallel_tones)};
}
