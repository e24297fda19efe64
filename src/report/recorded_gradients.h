// recorded_gradients.h — a model's gradients compared with PyTorch autograd's: what chapters 7
// and 10 show after every hand-written backward pass.
#pragma once
#include <string>

#include <vector>

#include "report/chapter.h"

struct Parameter;  // model/transformer/parameters.h
struct TorchTensor;

struct Transformer;  // model/transformer/transformer.h

// Our gradients (grad, a model of gradients) in PyTorch's names and layouts, recorded as
// "grad_<prefix>/<name with / for .>"; returns the largest |ours − PyTorch's| over them, from
// the data file's expected values.
double record_gradients(Chapter& ch, const std::string& prefix, const Transformer& grad);
// The same for any model's gradients, given as its state_dict (chapter 12's decoder-only model).
double record_gradients(Chapter& ch, const std::string& prefix,
                        const std::vector<TorchTensor>& grad);
