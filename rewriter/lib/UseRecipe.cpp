// A read is advised by what its value becomes: the most constraining use first — a branch no
// select can express, a size, a position, a trip count, host code, a branch.
#include "UseRecipe.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>

namespace graphify::rewriter {

std::string recipeForUse(const std::vector<std::pair<std::string, unsigned>> &AllUses, const BlockedBranches &Blocked,
                         bool StoredOnHost) {
  // A value kept in a host container (`v.push_back(t[i].item<float>())`) reaches a branch only
  // through host code over the container (a host argmax, a field a later call tests): the
  // container is what to change first. A size, a position or a trip count still names what the
  // values become.
  std::vector<std::pair<std::string, unsigned>> Uses = AllUses;
  if (StoredOnHost)
    llvm::erase_if(Uses, [](const auto &U) { return U.first == "graphify-data-dependent-branch"; });
  auto LineOf = [&](llvm::StringRef Check) -> unsigned {
    for (const auto &[Id, Line] : Uses)
      if (Id == Check)
        return Line;
    return 0;
  };
  // A branch no select can express blocks first: what the value decides through it (a count
  // the branch advances, then used as a size) cannot be graphed either.
  for (const auto &[Id, L] : Uses)
    if (Id == "graphify-data-dependent-branch" && Blocked.count(L))
      return "the value read here decides a branch (line " + std::to_string(L) + ") that no select can express: " +
             Blocked.at(L);
  if (unsigned L = LineOf("graphify-data-dependent-size"))
    return "the value read here becomes a size (line " + std::to_string(L) +
           "): a static graph cannot take a size from the data; allocate to a static upper bound, keep the "
           "count as a 0-d tensor and mask the entries past it (the padded form), instead of reading it";
  if (unsigned L = LineOf("graphify-data-dependent-position"))
    return "the value read here becomes a position (line " + std::to_string(L) +
           "): index on the device with the tensor itself (index_select, gather, index_put_ with a long "
           "tensor) instead of reading it to the host";
  if (unsigned L = LineOf("graphify-data-dependent-loop"))
    return "the value read here decides how many times a loop runs (line " + std::to_string(L) +
           "): loop to a static bound and mask the updates of finished iterations, keeping the value a "
           "0-d tensor";
  if (unsigned L = LineOf("host-code"))
    return "the value read here is used by host code (the loop at line " + std::to_string(L) +
           " holds no tensor): move the read, and that code, out of the graph region, after the replay";
  if (unsigned L = LineOf("graphify-data-dependent-branch"))
    return "the value read here decides a branch (line " + std::to_string(L) +
           "): keep it a 0-d tensor, compute both sides and select with torch::where(cond, a, b)";
  return "";
}

} // namespace graphify::rewriter
