// A greedy loop reported as ten findings hides that one rewrite fixes them all; reported as one
// finding whose notes list what is inside, it reads as what it is.
#include "FoldConstructs.h"

#include <map>

namespace graphify {

namespace {

/// The widest construct other than `Self` whose range holds finding `F`, or -1.
int enclosingConstruct(const AnalysisResult &R, size_t Self) {
  const Finding &F = R.Findings[Self];
  int Best = -1;
  for (size_t C = 0; C < R.Findings.size(); ++C) {
    const Finding &K = R.Findings[C];
    if (C == Self || K.Construct == Finding::ConstructKind::None || K.Where.File != F.Where.File ||
        F.Where.Offset < K.FoldBegin || F.Where.Offset >= K.FoldEnd)
      continue;
    if (Best < 0 || K.FoldEnd - K.FoldBegin > R.Findings[Best].FoldEnd - R.Findings[Best].FoldBegin)
      Best = static_cast<int>(C);
  }
  return Best;
}

} // namespace

void foldConstructs(AnalysisResult &R) {
  if (llvm::none_of(R.Findings, [](const Finding &F) { return F.Construct != Finding::ConstructKind::None; }))
    return;
  std::vector<int> Into(R.Findings.size(), -1);
  for (size_t I = 0; I < R.Findings.size(); ++I)
    Into[I] = enclosingConstruct(R, I);
  // Per construct, per message (in the order found): the first place and how many share it.
  struct Inside {
    SourcePoint First;
    unsigned Count = 0;
  };
  std::map<size_t, std::vector<std::pair<std::string, Inside>>> Folded;
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    if (Into[I] < 0)
      continue;
    const Finding &F = R.Findings[I];
    std::string Key = F.Message + " [" + F.CheckId + "]";
    auto &List = Folded[static_cast<size_t>(Into[I])];
    auto It = llvm::find_if(List, [&](const auto &E) { return E.first == Key; });
    if (It == List.end())
      List.push_back({Key, {F.Where, 1}});
    else if (++It->second.Count, std::tie(F.Where.Line, F.Where.Column) < std::tie(It->second.First.Line, It->second.First.Column))
      It->second.First = F.Where;
  }
  for (auto &[C, List] : Folded) {
    std::stable_sort(List.begin(), List.end(), [](const auto &A, const auto &B) {
      return std::tie(A.second.First.Line, A.second.First.Column) < std::tie(B.second.First.Line, B.second.First.Column);
    });
    for (const auto &[Key, In] : List)
      R.Findings[C].Notes.push_back(
          {In.First, "inside it: " + Key +
                         (In.Count > 1 ? " (" + std::to_string(In.Count) + " places, the first here)" : "")});
  }
  // In place: the rest of the result (facts, the region globs that matched) stays as it was.
  std::vector<Finding> Findings;
  std::vector<const clang::Stmt *> Anchors;
  for (size_t I = 0; I < R.Findings.size(); ++I)
    if (Into[I] < 0) {
      Findings.push_back(std::move(R.Findings[I]));
      Anchors.push_back(R.Anchors[I]);
    }
  R.Findings = std::move(Findings);
  R.Anchors = std::move(Anchors);
}

} // namespace graphify
