// ch10_modern_attention/trained_runs.h — the models chapter 10 trains on chapter 7's reversal task,
// each once, shared by the RMSNorm step and the length experiment.
#pragma once
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ch10_modern_attention/inputs.h"
#include "fast/threads.h"
#include "io/training_plan.h"
#include "report/chapter.h"
#include "report/progress.h"
#include "text/translate.h"
#include "train/trainer.h"

// Each model is trained once: the RMSNorm step and the length experiment share the run with
// LayerNorm and sinusoidal positions. A status line on stderr says which run is training.
class Trained {
public:
    struct Run {
        PositionScheme positions;
        NormKind norm;
        std::size_t seed;
    };
    const TrainingRun& get(Chapter& ch, const Inputs& in, PositionScheme positions, NormKind norm,
                           std::size_t seed) {
        auto it = runs_.find(key(positions, norm, seed));
        if (it != runs_.end()) return it->second;
        progress_.status(tr("training {} positions, {}, seed {} ({} steps)",
                            positions_name(positions), norm_name(norm), seed,
                            in.plan.settings.max_steps));
        return runs_.emplace(key(positions, norm, seed), trained(ch, in, {positions, norm, seed}))
            .first->second;
    }
    // Every run of the list not yet trained, trained at once, each on a thread of its own: a
    // run's products are small (it would use one core), the runs are independent, and each
    // gives the same bits on whichever thread trains it.
    void train_all(Chapter& ch, const Inputs& in, const std::vector<Run>& list) {
        std::vector<Run> todo;
        std::set<std::string> keys;
        for (const Run& r : list)
            if (!runs_.count(key(r.positions, r.norm, r.seed)) &&
                keys.insert(key(r.positions, r.norm, r.seed)).second)
                todo.push_back(r);
        progress_.status(tr("training {} models on chapter 7's task ({} steps each)", todo.size(),
                            in.plan.settings.max_steps));
        std::vector<TrainingRun> done(todo.size());
        parallel_for_uneven(todo.size(), std::size_t{1} << 30,
                            [&](std::size_t i) { done[i] = trained(ch, in, todo[i]); });
        for (std::size_t i = 0; i < todo.size(); ++i)
            runs_.emplace(key(todo[i].positions, todo[i].norm, todo[i].seed), std::move(done[i]));
    }
    void done() { progress_.done(); }

private:
    static std::string key(PositionScheme positions, NormKind norm, std::size_t seed) {
        return positions_name(positions) + "/" + norm_name(norm) + "/" + std::to_string(seed);
    }
    static TrainingRun trained(Chapter& ch, const Inputs& in, const Run& r) {
        TrainingPlan plan = in.plan;
        plan.config.positions = r.positions;
        plan.config.norm = r.norm;
        plan.config.max_positions = in.max_positions;
        plan.init_seed = r.seed, plan.settings.seed = r.seed + 1;
        TrainingRun run = train_plan(plan);
        check_finite_run(ch.data, "inputs.length_generalization.training", run);
        return run;
    }

    std::map<std::string, TrainingRun> runs_;
    ProgressBar progress_;
};
