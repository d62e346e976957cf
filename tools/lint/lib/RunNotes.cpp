// RunNotes. Invariant: each note is printed once per run, however many units give it, in the
// order first given, so -j 1 and -j 8 print the same lines.
#include "graphify/lint/RunNotes.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FileSystem.h>

#include <set>

namespace graphify {

/// Which file read by a unit `--export-fixes=Target` would overwrite, as a message; none when the
/// target is no unit's input (a header included by a linted file is an input too).
std::optional<std::string> inputOverwrittenByExport(llvm::StringRef Target, const std::vector<LintJob> &Jobs,
                                                    const std::vector<LintUnitResult> &Results) {
  llvm::sys::fs::UniqueID TargetID;
  if (llvm::sys::fs::getUniqueID(Target, TargetID))
    return std::nullopt;
  for (size_t I = 0; I < Results.size(); ++I)
    for (const FileRead &F : Results[I].FilesRead)
      if (F.ID == TargetID)
        return "--export-fixes would overwrite '" + F.Path + "', which the translation unit of '" + Jobs[I].File +
               "' reads";
  return std::nullopt;
}

/// The graph-region globs of parsed units that named no function in any of them, nor in any unit
/// of the program summary (`Linked`) when there is one, in the order first given.
std::vector<std::string> unmatchedRegionGlobs(const std::vector<LintUnitResult> &Results,
                                              const ProgramSummary *Linked) {
  std::set<std::string> Matched;
  if (Linked)
    Matched = Linked->MatchedRegionGlobs;
  for (const LintUnitResult &R : Results)
    Matched.insert(R.MatchedRegionGlobs.begin(), R.MatchedRegionGlobs.end());
  std::vector<std::string> Unmatched;
  for (const LintUnitResult &R : Results)
    for (const std::string &Glob : R.RegionGlobs)
      if (R.Parsed && !Matched.count(Glob) && !llvm::is_contained(Unmatched, Glob))
        Unmatched.push_back(Glob);
  return Unmatched;
}

/// The configured static bounds that named no variable of a function in any parsed unit, nor in
/// any unit of the program summary (`Linked`) when there is one, and the malformed bound
/// annotations, once each: a bound that names nothing leaves its loop unbounded.
std::vector<std::string> staticBoundWarnings(const std::vector<LintUnitResult> &Results,
                                             const ProgramSummary *Linked) {
  std::set<std::string> Matched;
  if (Linked)
    Matched = Linked->MatchedStaticBounds;
  for (const LintUnitResult &R : Results)
    Matched.insert(R.MatchedStaticBounds.begin(), R.MatchedStaticBounds.end());
  std::vector<std::string> Out;
  auto Add = [&](std::string W) {
    if (!llvm::is_contained(Out, W))
      Out.push_back(std::move(W));
  };
  for (const LintUnitResult &R : Results) {
    if (!R.Parsed)
      continue;
    for (const std::string &Key : R.StaticBoundKeys)
      if (!Matched.count(Key))
        Add("the static bound '" + Key + "' names no parameter or local of a function defined in the " +
            (Linked ? "program's units" : "checked files") +
            " (StaticBounds: '<function glob>::<variable>', the function by its qualified name)");
    for (const std::string &P : R.AnnotationProblems)
      Add(P);
  }
  return Out;
}

/// The notes on code that went unchecked (calls no unit could follow, unpaired captures), once
/// each, in unit order.
std::vector<std::string> uncheckedCode(const std::vector<LintUnitResult> &Results) {
  std::vector<std::string> Out;
  for (const LintUnitResult &R : Results)
    for (const std::string &U : R.UncheckedCode)
      if (!llvm::is_contained(Out, U))
        Out.push_back(U);
  return Out;
}

} // namespace graphify
