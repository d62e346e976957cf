// A read is reported where it happens; what to do about it depends on where its value goes.
// The checks that report the uses already walked the taint back to the read (ReadAt), so the
// link is a join on that place, not a second analysis.
#include "ValueUses.h"

#include <map>
#include <tuple>

namespace graphify {

void linkValueUses(AnalysisResult &R) {
  std::map<std::pair<std::string, unsigned>, std::vector<std::pair<std::string, unsigned>>> UsesOfRead;
  for (const Finding &F : R.Findings)
    if (!F.ReadAt.File.empty() && !F.FromSelection)
      UsesOfRead[{F.ReadAt.File, F.ReadAt.Offset}].push_back({F.CheckId, F.Where.Line});
  if (UsesOfRead.empty())
    return;
  for (Finding &F : R.Findings) {
    auto It = UsesOfRead.find({F.Where.File, F.Where.Offset});
    if (It == UsesOfRead.end())
      continue;
    for (const auto &Use : It->second)
      if (Use.first != F.CheckId)
        F.ValueUses.push_back(Use);
    std::stable_sort(F.ValueUses.begin(), F.ValueUses.end(),
                     [](const auto &A, const auto &B) { return A.second < B.second; });
  }
}

} // namespace graphify
