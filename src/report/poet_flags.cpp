#include "report/poet_flags.h"

Poet poet_from_flags(const Options& options, const PoetSettings& settings,
                     const std::string& chapter) {
    PoetSource source;
    source.prepared = data_folder_path("build/corpus/quantangshi.txt",
                                       (options.program_dir + "/" + chapter).c_str());
    source.weights_named = options.has("--weights");
    source.weights = source.weights_named ? options.value("--weights")
                                          : options.program_dir + "/ch12_gpt_model.json";
    if (options.has("--corpus")) source.corpus = options.value("--corpus");
    return read_poet(settings, source);
}

std::optional<Poet> named_poet(const Options& options, const PoetSettings& settings,
                               const std::string& chapter) {
    if (options.check || !options.has("--weights")) return std::nullopt;
    return poet_from_flags(options, settings, chapter);
}
