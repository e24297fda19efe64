// ch10_modern_attention/trained_runs.h — the models chapter 10 trains on chapter 7's reversal task,
// each once, shared by the RMSNorm step and the length experiment.
#pragma once
#include <map>
#include <string>
#include <utility>

#include "ch10_modern_attention/inputs.h"
#include "io/training_plan.h"
#include "report/chapter.h"
#include "report/progress.h"
#include "text/translate.h"
#include "train/trainer.h"

// Each model is trained once: the RMSNorm step and the length experiment share the run with
// LayerNorm and sinusoidal positions. A status line on stderr says which run is training.
class Trained {
public:
    const TrainingRun& get(Chapter& ch, const Inputs& in, PositionScheme positions, NormKind norm,
                           std::size_t seed) {
        const std::string key =
            positions_name(positions) + "/" + norm_name(norm) + "/" + std::to_string(seed);
        auto it = runs_.find(key);
        if (it != runs_.end()) return it->second;
        TrainingPlan plan = in.plan;
        plan.config.positions = positions;
        plan.config.norm = norm;
        plan.config.max_positions = in.max_positions;
        plan.init_seed = seed, plan.settings.seed = seed + 1;
        progress_.status(tr("training {} positions, {}, seed {} ({} steps)",
                            positions_name(positions), norm_name(norm), seed,
                            plan.settings.max_steps));
        TrainingRun run = train_plan(plan);
        check_finite_run(ch.data, "inputs.length_generalization.training", run);
        return runs_.emplace(key, std::move(run)).first->second;
    }
    void done() { progress_.done(); }

private:
    std::map<std::string, TrainingRun> runs_;
    ProgressBar progress_;
};
