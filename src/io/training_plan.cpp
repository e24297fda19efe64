// training_plan.cpp — reading a training plan.
#include "io/training_plan.h"

#include "io/model_file.h"
#include "model/transformer/transformer.h"
#include "text/translate.h"
#include "train/trainer.h"

namespace {

Task read_task(const DataFile& data, const std::string& name, const std::string& k) {
    if (name == "numerals") return numerals_task(data.size(k + "max_digits", 3, 8));
    const std::size_t min_length = data.size(k + "min_length", 1, 100);
    return reverse_task(min_length, data.size(k + "max_length", min_length, 100));
}

}  // namespace

TrainingPlan read_training_plan(const DataFile& data, const std::string& k,
                                const std::string& task) {
    TrainingPlan p;
    p.task = read_task(data, task, k);
    TransformerConfig& c = p.config;
    read_model_shape(data, k, c);
    c.src_vocab = p.task.source_vocabulary.size();
    c.tgt_vocab = p.task.target_vocabulary.size();
    c.vocabulary = p.task.target_vocabulary;
    if (p.task.source_vocabulary != p.task.target_vocabulary)
        c.source_vocabulary = p.task.source_vocabulary;
    p.init_seed = data.seed(k + "seed");
    p.batch_size = data.size(k + "batch_size", 1, 100000);
    TrainingSettings& s = p.settings;
    s.smoothing = data.number(k + "smoothing", 0.0, 0.999);
    s.adam.factor = data.number(k + "factor", 1e-6, 1e3);
    s.adam.warmup = data.size(k + "warmup", 1, 1000000);
    s.adam.d_model = c.d_model;
    s.max_steps = data.size(k + "max_steps", 1, 100000000);
    s.seed = p.init_seed + 1;  // the batches: another stream than the weights'
    p.check_steps = data.size(k + "check_steps", 1, 1000000);
    p.heldout = data.size(k + "heldout", 1, 1000000);
    p.heldout_seed = data.seed(k + "heldout_seed");
    return p;
}

void check_finite_run(const DataFile& data, const std::string& key, const TrainingRun& run) {
    if (run.diverged_at > 0)
        throw data.error(key, tr("training diverged at step {} (a loss or weight that is not "
                                 "finite); expected settings that train",
                                 run.diverged_at));
}

std::vector<Example> read_examples(const DataFile& data, const std::string& key,
                                   std::size_t src_vocab, std::size_t tgt_vocab) {
    std::vector<Example> out;
    const std::size_t n = data.length(key);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string where = key + "[" + std::to_string(i) + "]";
        if (data.length(where) != 2)
            throw data.error(where, tr("expected [source ids, target ids]"));
        out.push_back(
            {data.tokens(where + "[0]", src_vocab), data.tokens(where + "[1]", tgt_vocab)});
    }
    if (out.empty()) throw data.error(key, tr("expected at least one example"));
    return out;
}
