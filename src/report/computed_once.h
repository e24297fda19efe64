// computed_once.h — a long computation that depends on a few inputs, kept between runs with
// --cache DIR: chapter 2's width sweep (inputs.why_scale) takes half a second natively and
// seconds in the browser, and does not change when a reader edits X or the weights. The live
// book's page runs every recompute with a cache, so the sweep is computed once per setting.
#pragma once
#include <functional>
#include <string>

#include "core/matrix.h"

class Chapter;

// compute()'s matrix; with --cache DIR, kept in DIR/<chapter>.<name>.<digest of inputs_key>.txt
// (every double in 17 significant digits: read back to the same bits) and read back from there
// by a later run whose inputs_key holds the same values, saying so in one "note:" line on the
// error stream. A cache file that cannot be read is computed again, never an error.
Matrix computed_once(Chapter& ch, const std::string& name, const std::string& inputs_key,
                     const std::function<Matrix()>& compute);
