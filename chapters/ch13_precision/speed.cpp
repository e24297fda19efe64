// ch13_precision/speed.cpp — faster because smaller: each weight format's decoding timed, and
// whether the bytes or the arithmetic set the pace.
#include "ch13_precision/speed.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ch13_precision/wording.h"
#include "model/gpt/gpt.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/measure.h"
#include "text/translate.h"

namespace {

struct Speed {
    std::string name;
    double bytes_per_token, tokens_per_second;
};

constexpr int speed_rounds = 5;

// Each format's decoding timed in rounds, every format once a round, the best of each kept: a
// machine busy for a moment slows one round of every format, not all the runs of one.
std::vector<Speed> decoding_speeds(const Gpt& model, std::size_t steps) {
    std::vector<Speed> out;
    std::vector<std::function<void()>> decodes;
    out.push_back({"float64", 8.0 * static_cast<double>(parameter_count(model)), 0.0});
    decodes.push_back([&model, steps] {
        GptKV kv = start_gpt(model);
        for (std::size_t t = 0; t < steps; ++t) gpt_step(model, kv, 1 + int(t % 5));
    });
    std::vector<LoweredGpt> lowered;
    lowered.reserve(std::size(readings));  // the decoders below keep pointers into it
    for (const Reading& r : readings) {
        if (r.float64 || r.half_activations || r.format == WeightFormat::BFloat16 ||
            r.format == WeightFormat::Float16)
            continue;  // held as float32 here: their speed is float32's
        lowered.push_back(lower(model, r.format, false, r.quantized_activations));
        const LoweredGpt& low = lowered.back();
        out.push_back({r.name, static_cast<double>(low.bytes()), 0.0});
        decodes.push_back([&low, steps] {
            LoweredKV kv = start_lowered(low);
            for (std::size_t t = 0; t < steps; ++t) lowered_step(low, kv, 1 + int(t % 5));
        });
    }
    std::vector<double> best(out.size(), std::numeric_limits<double>::infinity());
    for (int round = 0; round < speed_rounds; ++round)
        for (std::size_t i = 0; i < out.size(); ++i)
            best[i] = std::min(best[i], best_seconds(decodes[i], 1));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].tokens_per_second = static_cast<double>(steps) / best[i];
    return out;
}

// What the speeds say, worded from them: the bytes set the pace only where int8's speed-up comes
// near its saving in bytes (float32's bytes over int8's); otherwise the arithmetic does, and the
// three 32- and 8-bit loops, doing about the same work a weight, stay close — or int8 is faster
// by less than its bytes, or slower than float32 (each said as it is).
void say_speed_verdict(Chapter& ch, const std::vector<Speed>& speeds) {
    const Speed &f32 = speeds[1], &int8 = speeds[2], &both = speeds[3];
    const double saving = f32.bytes_per_token / int8.bytes_per_token;
    const double speedup = int8.tokens_per_second / f32.tokens_per_second;
    const std::string bytes = fixed(int8.bytes_per_token / f32.bytes_per_token, 2);
    if (speedup >= 0.75 * saving) {
        ch.say(tr("Reading {}× float32's bytes, int8 decodes {}× as fast as float32 here, most of "
                  "the {}× its bytes would give: the bytes set the pace.",
                  bytes, fixed(speedup, 2), fixed(saving, 2)));
        return;
    }
    double fastest = 0, slowest = std::numeric_limits<double>::infinity();
    for (const Speed* s : {&f32, &int8, &both})
        fastest = std::max(fastest, s->tokens_per_second),
        slowest = std::min(slowest, s->tokens_per_second);
    const std::string cached = grouped(static_cast<unsigned long long>(f32.bytes_per_token));
    if (fastest / slowest < 1.25) {
        ch.say(tr("int8 reads {}× float32's bytes, yet decodes at {}× float32's speed, where the "
                  "bytes setting the pace would give {}×: this model's {} bytes of float32 weights "
                  "fit in the processor's caches, so memory does not set the pace here, the "
                  "arithmetic does. A weight costs each loop about the same — float32's one "
                  "multiply-add, int8's a byte turned into a float first, int8 × int8's an integer "
                  "product — so float32, int8 and int8 × int8 stay close, the fastest {}× as fast "
                  "as the slowest, and which is ahead can change from run to run.",
                  bytes, fixed(speedup, 2), fixed(saving, 2), cached, fixed(fastest / slowest, 2)));
    } else if (speedup <= 1) {
        ch.say(tr("int8 reads {}× float32's bytes, yet decodes at {}× float32's speed: slower, "
                  "where the bytes alone would make it {}× as fast. This model's {} bytes of "
                  "float32 weights fit in the processor's caches, so memory does not set the pace "
                  "here: what a weight costs each loop does — float32's one multiply-add, int8's "
                  "a byte turned into a float first, int8 × int8's an integer product. Of "
                  "float32, int8 and int8 × int8 the fastest is {}× as fast as the slowest.",
                  bytes, fixed(speedup, 2), fixed(saving, 2), cached, fixed(fastest / slowest, 2)));
    } else {
        ch.say(tr("int8 reads {}× float32's bytes and decodes at {}× float32's speed: faster, but "
                  "short of the {}× the bytes alone would give. This model's {} bytes of float32 "
                  "weights fit in the processor's caches, so memory does not set the whole pace: "
                  "what a weight costs each loop does too — float32's one multiply-add, int8's a "
                  "byte turned into a float first, int8 × int8's an integer product. Of float32, "
                  "int8 and int8 × int8 the fastest is {}× as fast as the slowest.",
                  bytes, fixed(speedup, 2), fixed(saving, 2), cached, fixed(fastest / slowest, 2)));
    }
    ch.say(tr("make bench times the formats at llama2.c's stories15M shape, where a token reads "
              "111 MB in float64."));
}

}  // namespace

void speed_step(Chapter& ch, const Gpt& model) {
    ch.step(tr("Faster because smaller: decoding reads every weight once a token"));
    const std::vector<Speed> speeds = decoding_speeds(model, 64);
    ch.say(
        tr("A step of decoding multiplies one row by every weight matrix: each weight is read "
           "from memory once a token and used once, so the bytes read, more than the "
           "arithmetic, set the pace — where the weights do not fit in the processor's caches. "
           "This model, 64 tokens through the KV cache, each format timed once in each of {} "
           "rounds and the best kept, on {}:",
           speed_rounds, threads_used()));
    Table t({tr("weight format"), tr("bytes read a token"), tr("tokens per second"), tr("× float64")});
    LineChart chart{tr("decoding speed against the bytes a token reads"), tr("bytes per token"),
                    tr("tokens per second"), true, true, {}, {}};
    for (const Speed& s : speeds) {
        t.add({tr(s.name.c_str()), grouped(static_cast<unsigned long long>(s.bytes_per_token)),
               grouped(static_cast<unsigned long long>(s.tokens_per_second)),
               fixed(s.tokens_per_second / speeds[0].tokens_per_second, 2)});
        chart.series.push_back({tr(s.name.c_str()), {s.bytes_per_token}, {s.tokens_per_second}});
        ch.measured("tokens_per_second_" + s.name, s.tokens_per_second);
    }
    ch.table(t);
    say_speed_verdict(ch, speeds);
    ch.say(tr("(timings on this machine: they vary from run to run)"));
    ch.picture("ch13_speed.svg", line_chart_svg(chart));
}
