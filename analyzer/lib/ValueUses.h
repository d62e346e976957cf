#pragma once
// Linking a host read to the findings its value causes (Finding::ValueUses).

#include "graphify/analyzer/Analysis.h"

namespace graphify {

/// For every finding at a place where another finding's value was read from a tensor (its
/// ReadAt), records that finding's check and line in ValueUses: `int n = x.sum().item<int>()`
/// then learns that `n` sizes `torch::zeros({n})`, so its recipe can say so.
void linkValueUses(AnalysisResult &R);

} // namespace graphify
