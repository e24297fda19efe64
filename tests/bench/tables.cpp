// tables.cpp — the bench's tables (tables.h).
#include "tables.h"

#include <cmath>
#include <iostream>
#include <string>

#include "fast/tile_shape.h"
#include "report/terminal.h"
#include "text/numbers.h"

namespace {

std::string grouped_number(double x) { return grouped(static_cast<unsigned long long>(std::llround(x))); }

std::string num(const Json& j, int digits) {
    return j.is_null() ? std::string("—") : general(j.get<double>(), digits);
}

// A key of an object that may be null or lack it: null then.
Json value_of(const Json& object, const std::string& key) {
    return object.is_object() && object.contains(key) ? object[key] : Json();
}

// A key of an object that may be null or lack it: "—" then.
std::string field(const Json& object, const std::string& key, int digits) {
    return object.is_object() && object.contains(key) ? num(object[key], digits) : "—";
}
std::string text_of(const Json& object, const std::string& key) {
    return object.is_object() && object.contains(key) && object[key].is_string()
               ? object[key].get<std::string>()
               : "—";
}

// Ours against the fastest peer kernel on one thread (suffix "") or on every core ("_nt").
void print_against_peer(Json& r, const std::string& suffix) {
    const bool all = suffix == "_nt";
    const Json t = r[all ? "torch_nt" : "torch"];  // a copy: reading r may add keys to it
    const std::string n = all ? std::to_string(r["threads"].get<int>()) + " threads" : "1 thread";
    Table table({"figure, " + n, "ours", "PyTorch", "kernel", "ratio",
                 "÷ FMA peak"});
    auto row = [&](const std::string& name, const std::string& key, const std::string& ratio,
                   const std::string& kernel_key) {
        table.add({name, num(r[key + suffix], 3), field(t, key, 3), text_of(t, kernel_key),
                   num(r[ratio + (all ? "_nt" : "")], 3),
                   r.contains(key + "_of_peak" + suffix) ? num(r[key + "_of_peak" + suffix], 3)
                                                          : ""});
    };
    row("matmul 512³, GFLOP/s", "matmul_gflops", "matmul_fraction_of_torch",
        "peer_kernel_matmul_gflops");
    row("matmul 1024³, GFLOP/s", "matmul_gflops_1024", "matmul_1024_fraction_of_torch",
        "peer_kernel_matmul_gflops_1024");
    row("base model forward, 64+64 tokens, s", "forward_base_seconds", "forward_base_ratio",
        "peer_kernel");
    row("one ch07 training step, s", "train_step_seconds", "train_step_ratio", "peer_kernel");
    row("one ch12 training step, 16 × 64 tokens, s", "gpt_train_step_seconds",
        "gpt_train_step_ratio", "peer_kernel");
    row("decoding at stories15M's shape, tokens/s", "decode_tokens_per_second",
        "decode_speed_of_torch", "peer_kernel");
    table.print(std::cout);
    if (!all)
        std::cout << "naive i-j-p matmul 512³: " << num(r["matmul_naive_gflops"], 3)
                  << " GFLOP/s; ch07's training run: " << num(r["ch07_training_seconds"], 3)
                  << " s; peak memory of the base forward: "
                  << fixed(r["peak_memory_base_forward_bytes"].get<double>() / (1 << 20), 0)
                  << " MiB (" << fixed(r["peak_memory_to_weights"].get<double>(), 2)
                  << " × the weights)\n";
    // chapter 12's step in tokens a second, and against PyTorch in float32 too
    const double tokens = 16.0 * 64.0;
    const auto per_second = [&](const Json& seconds) {
        return seconds.is_number() ? grouped_number(tokens / seconds.get<double>()) : "—";
    };
    std::cout << "ch12's training step, tokens/s: ours (float64) "
              << per_second(r["gpt_train_step_seconds" + suffix]) << ", PyTorch float64 "
              << per_second(value_of(t, "gpt_train_step_seconds")) << ", PyTorch float32 "
              << per_second(value_of(t, "gpt_train_step_seconds_float32"))
              << " (ours ÷ theirs in seconds: " << num(r["gpt_train_step_ratio" + (all ? std::string("_nt") : "")], 3)
              << " and " << num(r["gpt_train_step_ratio_float32" + (all ? std::string("_nt") : "")], 3) << ")\n";
    if (all) {
        Json e = r["parallel_efficiency"];
        std::cout << "our speed-up ÷ threads: matmul 512³ " << num(e["matmul"], 2) << ", forward "
                  << num(e["forward_base"], 2) << ", training step " << num(e["train_step"], 2)
                  << ", decoding " << num(e["decode"], 2) << "\n";
    }
}

// Every candidate kernel's products, on one thread and on every core, and the machine's peak.
void print_peers(Json& r) {
    const std::string n = std::to_string(r["threads"].get<int>());
    Table table({"peer kernel tried (PyTorch's products)", "unit", "512³, 1 thread",
                 "1024³, 1 thread", "512³, " + n + " threads", "1024³, " + n + " threads"});
    const Json one = r["peer_sweep_1t"], all = r["peer_sweep_nt"];
    for (const Json& k : one) {
        Json twin;
        for (const Json& a : all)
            if (a["candidate"] == k["candidate"]) twin = a;
        const std::string asked = k["candidate"].get<std::string>(),
                          got = k["kernel"].get<std::string>();
        table.add({got + (asked.find("own choice") != std::string::npos ? " (its own choice)" : ""),
                   k["unit"].get<std::string>(), num(k["matmul_gflops"], 3),
                   num(k["matmul_gflops_1024"], 3), field(twin, "matmul_gflops", 3),
                   field(twin, "matmul_gflops_1024", 3)});
    }
    for (const auto& [unit, peak] : r["fma_peak_gflops"].items())
        table.add({"FMA peak: a loop of independent multiply-adds", unit, num(peak, 3), "",
                   field(r["fma_peak_gflops_nt"], unit, 3), ""});
    table.add({"ours (" + text_of(r, "register_tile") + ")", kernel::vector_unit,
               num(r["matmul_gflops"], 3), num(r["matmul_gflops_1024"], 3),
               num(r["matmul_gflops_nt"], 3), num(r["matmul_gflops_1024_nt"], 3)});
    table.print(std::cout);
}

// Our products and the fastest kernel's dgemm timed in turns in one process, on one thread
// (in_turns.h): each its best GFLOP/s over the rounds, their ratio, and the median of the rounds'
// own ratios.
void print_in_turns(Json& r) {
    Table table({"in turns, one process", "kernel", "ours", "theirs", "ratio", "median of rounds"});
    int rows = 0;
    for (const auto& [key, size] : {std::pair<std::string, std::string>{"matmul_gflops", "512³"},
                                    {"matmul_gflops_1024", "1024³"}}) {
        const Json t = value_of(value_of(r, "in_turns_1t"), key);
        if (t.is_null()) continue;
        table.add({"matmul " + size + ", GFLOP/s, 1 thread", text_of(t, "kernel"),
                   num(t["ours"], 3), num(t["theirs"], 3),
                   num(Json(t["ours"].get<double>() / t["theirs"].get<double>()), 3),
                   num(t["median_ratio"], 3)});
        ++rows;
    }
    if (rows == 0) return;
    table.print(std::cout);
    std::cout << "(each product timed right after the other, round after round: the same moments "
                 "of the machine for both; ratio: ours ÷ theirs, best against best)\n";
}

// Decoding in fewer bits: ours in each format on 1 and every thread, PyTorch's float32 and
// bfloat16 beside, and the bytes a token reads.
void print_formats_table(Json& r) {
    const std::string n = std::to_string(r["threads"].get<int>());
    Table table({"decoding at stories15M's shape", "MB a token reads", "tokens/s, 1 thread",
                 "tokens/s, " + n + " threads", "× float64, 1 thread"});
    const double f64 = r["decode_tokens_per_second_1t"].get<double>();
    const auto ratio = [&](const Json& tps) { return num(tps.get<double>() / f64, 3); };
    const auto ours = [&](const char* name, const std::string& format, const char* bytes) {
        const Json one = r["decode_tokens_per_second" + format + "_1t"];
        table.add({name, num(r[bytes].get<double>() / 1e6, 3), num(one, 4),
                   num(r["decode_tokens_per_second" + format + "_nt"], 4), ratio(one)});
    };
    ours("float64, ours", "", "decode_bytes_per_token_f64");
    ours("float32 weights, ours", "_f32", "decode_bytes_per_token_f32");
    ours("int8 weights, ours", "_int8", "decode_bytes_per_token_int8");
    ours("int8 weights and activations, ours", "_int8_activations", "decode_bytes_per_token_int8");
    const auto theirs = [&](const char* name, const std::string& key) {
        const Json one = r["torch"], all = r["torch_nt"];
        const auto has = [&](const Json& t) { return !t.is_null() && t.contains(key); };
        table.add({name, "", has(one) ? num(one[key], 3) : "—", has(all) ? num(all[key], 3) : "—",
                   has(one) ? ratio(one[key]) : "—"});
    };
    theirs("float64, PyTorch", "decode_tokens_per_second");
    theirs("float32, PyTorch", "decode_tokens_per_second_float32");
    theirs("bfloat16, PyTorch", "decode_tokens_per_second_bfloat16");
    table.print(std::cout);
    // the memory's speed beside: float32 decoding reads more than the caches hold each token
    if (!r["memory_read_gbs_1t"].is_number()) return;
    const double bytes = r["decode_bytes_per_token_f32"].get<double>();
    const auto reads = [&](const std::string& t) {
        const double gbs = r["decode_tokens_per_second_f32" + t].get<double>() * bytes / 1e9;
        return num(gbs, 3) + " GB/s (" +
               fixed(100 * gbs / r["memory_read_gbs" + t].get<double>(), 0) + "%)";
    };
    std::cout << "memory read by a plain loop: " << num(r["memory_read_gbs_1t"], 3)
              << " GB/s on one thread, " << num(r["memory_read_gbs_nt"], 3) << " on " << n
              << "; float32 decoding reads " << num(bytes / 1e6, 3) << " MB a token, at "
              << reads("_1t") << " and " << reads("_nt") << " of it\n";
}

}  // namespace

void print_tables(const Json& measured) {
    Json r = measured;  // a key an older build/bench.json lacks reads as null: "—"
    print_against_peer(r, "");
    print_against_peer(r, "_nt");
    std::cout << "(ratios: ours ÷ theirs; for GFLOP/s and tokens/s above 1 is faster, for "
                 "seconds below 1 is; ÷ FMA peak: ours as a fraction of this machine's peak on "
                 "our vector unit, measured in this run)\n";
    if (r.contains("peer_sweep_1t")) print_peers(r);
    print_in_turns(r);
    std::cout << "page faults per base forward after the first: "
              << num(r["page_faults_per_forward"], 3) << " on one thread, "
              << num(r["page_faults_per_forward_nt"], 3) << " on " << r["threads"].get<int>()
              << "\n"
              << "ch07_training --task numerals: " << num(r["ch07_numerals_wall_seconds_1t"], 3)
              << " s on one thread, " << num(r["ch07_numerals_wall_seconds_nt"], 3) << " s on "
              << r["threads"].get<int>() << " ("
              << fixed(100 * r["ch07_numerals_nt_to_1t"].get<double>(), 0) << "%), held-out "
              << num(r["ch07_numerals_heldout"], 3) << ", "
              << (r["ch07_numerals_same_model_bits"].get<bool>() ? "the same model, bit for bit"
                                                                 : "THE MODELS DIFFER")
              << "\n";
    print_formats_table(r);
}
