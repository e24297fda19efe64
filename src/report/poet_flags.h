// poet_flags.h — how chapters 13 and 14 find chapter 12's poet from their flags: --weights FILE
// (by default the model build/ch12_gpt saved beside the program, when it is there), or
// --corpus NAME|FILE to train one here instead; read as io/saved_poet.h reads a poet.
#pragma once
#include <optional>
#include <string>

#include "io/saved_poet.h"
#include "report/options.h"

// chapter: a name for the chapter's own files (where a poet trained here keeps its corpus).
Poet poet_from_flags(const Options& options, const PoetSettings& settings,
                     const std::string& chapter);

// The poet of a --weights file the reader named, read before any narration so that a bad file is
// the one line printed (chapters 13 and 14); nothing without --weights, or under --check, which
// does not read the poet. The saved model, or one trained here, is read by poet_from_flags when
// the chapter comes to it, so that a default run prints its first lines at once.
std::optional<Poet> named_poet(const Options& options, const PoetSettings& settings,
                               const std::string& chapter);
