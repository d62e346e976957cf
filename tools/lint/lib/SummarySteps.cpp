// SummarySteps. Invariant: nothing here parses; the driver runs the pipeline between these steps.
#include "graphify/lint/SummarySteps.h"
#include "graphify/lint/Driver.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace graphify {

UnitSummary summaryOf(const LintJob &J) {
  UnitSummary S;
  S.File = absoluteFile(J.Command.Filename, J.Command.Directory);
  S.Directory = J.Command.Directory;
  // The configuration changes the facts (regions, bounds, packs): a summary made under another is of
  // another unit, never taken for this one.
  std::vector<std::string> Key = J.CommandLine;
  Key.push_back("\x01graphify-config\x01" + dumpConfig(J.Config));
  S.Command = commandDigest(Key);
  return S;
}

std::vector<const UnitSummary *> summariesStillHolding(const std::vector<LintJob> &Jobs, SummaryDirectory *Dir,
                                                       const ProgramFacts *Program) {
  static const ProgramFacts NothingYet;
  std::vector<const UnitSummary *> Holds(Jobs.size(), nullptr);
  if (!Dir)
    return Holds;
  for (size_t I = 0; I < Jobs.size(); ++I)
    Holds[I] = Dir->validFor(summaryOf(Jobs[I]), Program ? *Program : NothingYet);
  return Holds;
}

std::set<std::string> depfileInputs(const LintOptions &O, const std::vector<LintJob> &Jobs,
                                    const std::vector<LintUnitResult> &Results,
                                    const std::vector<const UnitSummary *> &Held, const std::string &RulesDir,
                                    bool WithSources) {
  auto absolute = [](llvm::StringRef Path) {
    llvm::SmallString<256> P(Path);
    llvm::sys::fs::make_absolute(P);
    llvm::sys::path::remove_dots(P, true);
    return std::string(P);
  };
  std::set<std::string> In;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (WithSources) {
      In.insert(absoluteFile(Jobs[I].Command.Filename, Jobs[I].Command.Directory));
      for (const auto &[Path, Digest] : Held[I] ? Held[I]->Files : Results[I].SourceFiles)
        In.insert(Path);
    }
    if (llvm::sys::fs::is_regular_file(Jobs[I].Config.Origin))
      In.insert(absolute(Jobs[I].Config.Origin));
    for (const std::string &Pack : Jobs[I].Config.RulePacks)
      In.insert(absolute(Pack));
  }
  if (O.Config && llvm::sys::fs::is_regular_file(*O.Config))
    In.insert(absolute(*O.Config));
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(RulesDir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".yaml"))
      In.insert(absolute(It->path()));
  if (!O.ProgramSummary.empty())
    In.insert(absolute(O.ProgramSummary));
  return In;
}

bool writeSummaries(const LintOptions &O, const std::vector<LintJob> &Jobs, std::vector<LintUnitResult> &Results,
                    const ProgramFacts *Imported, SummaryDirectory *Dir, SummaryCounts &Counts,
                    llvm::raw_ostream &Err) {
  auto fail = [&](llvm::Error E) {
    Err << "graphify-lint: error: " << llvm::toString(std::move(E)) << "\n";
    return false;
  };
  std::set<std::string> Written;
  std::vector<UnitSummary> Units;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    LintUnitResult &R = Results[I];
    Units.push_back(summaryOf(Jobs[I]));
    UnitSummary S = summaryOf(Jobs[I]);
    if (!R.Parsed)
      continue;
    if (!R.Exported) { // a summary of it still holds (summariesStillHolding)
      ++Counts.Held;
      continue;
    }
    if (Imported)
      S.Imports = Imported->slice(R.Exported->Lookups);
    S.Files = std::move(R.SourceFiles);
    S.MatchedRegionGlobs = R.MatchedRegionGlobs;
    S.MatchedStaticBounds = R.MatchedStaticBounds;
    S.Facts = std::move(*R.Exported);
    R.Exported.reset();
    const std::string Path = Dir ? Dir->pathFor(S) : O.EmitSummary;
    llvm::Expected<bool> Wrote = writeFileIfChanged(Path, renderUnitSummary(S, GRAPHIFY_VERSION));
    if (!Wrote)
      return fail(Wrote.takeError());
    ++(*Wrote ? Counts.Written : Counts.Unchanged);
    Written.insert(Path);
    if (!Dir)
      continue;
    llvm::Expected<unsigned> Stale = Dir->removeOtherSources(S, Path);
    if (!Stale)
      return fail(Stale.takeError());
    Counts.Removed += *Stale;
  }
  if (Dir && O.Files.empty()) {
    llvm::Expected<unsigned> Removed = Dir->prune(Units, Written);
    if (!Removed)
      return fail(Removed.takeError());
    Counts.Removed += *Removed;
  }
  return true;
}

void warnOfEditedUnits(const std::vector<LintJob> &Jobs, const std::vector<LintUnitResult> &Results,
                       const ProgramSummary &Linked, const std::string &LinkedPath, llvm::raw_ostream &Err) {
  std::vector<std::string> Edited;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (!Results[I].Parsed || Results[I].SourceFiles.empty())
      continue;
    std::string File = summaryOf(Jobs[I]).File;
    auto It = Linked.Sources.find(File);
    if (It != Linked.Sources.end() && It->second != sourcesDigest(Results[I].SourceFiles))
      Edited.push_back(File);
  }
  if (Edited.empty())
    return;
  Err << "graphify-lint: warning: '" << Edited.front() << "' (or a project header it includes) changed since '"
      << LinkedPath << "' was linked";
  if (Edited.size() > 1)
    Err << ", and " << Edited.size() - 1 << (Edited.size() == 2 ? " more unit" : " more units");
  Err << ": findings may differ from whole-program mode's until the program is settled again (docs/ci.md)\n";
}

int finishExtraction(const LintOptions &O, const std::vector<LintUnitResult> &Results, const SummaryCounts &Counts,
                     llvm::raw_ostream &Err) {
  unsigned Failed = 0;
  for (const LintUnitResult &R : Results)
    if (!R.Parsed) {
      ++Failed;
      Err << R.CompilerErrors << R.ErrorCount << (R.ErrorCount == 1 ? " error" : " errors") << " generated.\n";
    }
  if (!O.Quiet || Failed) {
    const std::string &Where = O.EmitSummary.empty() ? O.EmitSummaries : O.EmitSummary;
    Err << "graphify-lint: summaries of " << Results.size() << (Results.size() == 1 ? " unit" : " units") << " in '"
        << Where << "': " << Counts.Written << " written, " << Counts.Unchanged << " unchanged";
    if (Counts.Held)
      Err << ", " << Counts.Held << " still holding";
    if (Counts.Removed)
      Err << ", " << Counts.Removed << " removed (of other sources, or of no unit of this build)";
    if (Failed)
      Err << "; " << Failed << " not extracted (compile errors)";
    Err << "; nothing is checked until graphify-link settles the program (docs/ci.md)\n";
  }
  return Failed ? ExitError : ExitClean;
}

} // namespace graphify
