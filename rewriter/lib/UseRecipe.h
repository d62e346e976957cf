#pragma once
/// \file
/// The recipe for a host read from what its value becomes. The checks report the uses (a size,
/// a position, a trip count, a branch) where they happen; the read itself is advised by the most
/// constraining of them, since that use decides the graph-mode form of the value.
///
/// \code
///   int n = mask.sum().item<int>();          // the read: "the value read here becomes a size (line 2) ..."
///   auto out = torch::zeros({n});            // its use: graphify-data-dependent-size
/// \endcode

#include "ManualRecipe.h"

#include <string>
#include <utility>
#include <vector>

namespace graphify::rewriter {

/// The recipe for a host read whose value the findings `Uses` (check id, line) report, or empty.
/// `StoredOnHost`: the read goes into a host container or object first, which is then the nearer
/// obstacle than a branch reached only through host code over it.
std::string recipeForUse(const std::vector<std::pair<std::string, unsigned>> &Uses, const BlockedBranches &Blocked,
                         bool StoredOnHost);

} // namespace graphify::rewriter
