// graphify-link. Invariants: the program summary depends only on the set of unit summaries (they
// are merged in SummaryFile.h's order, whatever order they were named in); the link replays the
// single process's rounds from empty facts, each round merging, for every unit, the summary
// analysed with the facts of the round before (the one a parse would give, by determinism), so a
// settled output is the single process's facts; a unit is named for extraction exactly when no
// summary of it was analysed with the facts of the round the replay reached.
#include "graphify/link/Link.h"
#include "graphify/lint/Driver.h"
#include "graphify/lint/FlagTable.h"
#include "graphify/lint/SummaryFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace graphify {
namespace {

struct LinkOptions {
  std::string Output;              ///< -o <file>
  std::vector<std::string> Inputs; ///< summaries, or directories of them
  std::string Slices;              ///< --slices=<dir>: each unit's slice of a settled program
  bool Quiet = false;
  bool Help = false;
  bool Version = false;
};

const std::vector<Flag<LinkOptions>> &linkFlags() {
  static const std::vector<Flag<LinkOptions>> Table = {
      {"o", "file", "the program summary to write (required)",
       [](LinkOptions &O, llvm::StringRef V) { O.Output = V.str(); return llvm::Error::success(); }},
      {"slices", "dir",
       "when settled, also write each source file's slice of the program summary (the facts its units' "
       "analyses look up) to <dir>/<absolute path of the file>.program.summary, only when it changes: "
       "checking the file against its slice gives the findings the whole program summary gives, so a build "
       "system re-checks a file only when its slice changed (the slice records its sources' digest)",
       [](LinkOptions &O, llvm::StringRef V) { O.Slices = V.str(); return llvm::Error::success(); }},
      {"quiet", nullptr, "no summary line on stderr, and when not settled the number of units to extract again, "
       "not their names (a build system that extracts again whatever the link names needs neither)",
       [](LinkOptions &O, llvm::StringRef) { O.Quiet = true; return llvm::Error::success(); }},
      {"version", nullptr, "print the version",
       [](LinkOptions &O, llvm::StringRef) { O.Version = true; return llvm::Error::success(); }},
      {"help", nullptr, "print this help",
       [](LinkOptions &O, llvm::StringRef) { O.Help = true; return llvm::Error::success(); }},
  };
  return Table;
}

std::string linkHelpText() {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "OVERVIEW: graphify-link merges the unit summaries of graphify-lint --emit-summary into a\n"
        "program summary, for graphify-lint --program-summary (docs/ci.md).\n\n"
        "USAGE: graphify-link -o <program.summary> <summary or directory>...\n\n"
        "A directory stands for every *.summary file under it (an --emit-summaries directory, or a source\n"
        "file's directory in one); @<file> reads more arguments from <file>. The link replays whole-program mode's rounds\n"
        "from the unit summaries: a unit has a summary per set of facts it was analysed with. When a\n"
        "round needs an analysis no summary holds, the link writes that round's facts and names the\n"
        "units to extract with them (graphify-lint --emit-summaries=<dir> --program-summary=<this output>);\n"
        "link again until the program is settled.\n\n"
        "OPTIONS:\n"
     << flagHelp<LinkOptions>(linkFlags())
     << "\nEXIT STATUS: 0 settled (checks against the output give whole-program mode's findings),\n"
        "3 not settled (the units to extract again are named on stderr, counted with --quiet), 2 usage or\n"
        "input errors.\n";
  return S;
}

/// The summary files named by the inputs, a directory's in name order.
llvm::Expected<std::vector<std::string>> summaryFiles(const std::vector<std::string> &Inputs) {
  std::vector<std::string> Files;
  for (const std::string &In : Inputs) {
    if (!llvm::sys::fs::is_directory(In)) {
      if (!llvm::sys::fs::exists(In))
        return llvm::createStringError("graphify-link: error: no such file: '" + In + "'");
      Files.push_back(In);
      continue;
    }
    llvm::Expected<std::vector<std::string>> Here = summaryFilesIn(In);
    if (!Here)
      return llvm::createStringError("graphify-link: error: " + llvm::toString(Here.takeError()));
    Files.insert(Files.end(), Here->begin(), Here->end());
  }
  return Files;
}

/// Writes each source file's slice of the settled `Program` (its units' facts lookups) to
/// `mirroredPath(Dir, file).program.summary`, only those whose bytes change, and removes the
/// directory's other slices (files no longer linked) and the directories that leaves empty.
llvm::Error writeSlices(const std::string &Dir, const ProgramSummary &Program,
                        const std::vector<UnitSummary> &Chosen) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError("cannot create '" + Dir + "': " + EC.message());
  std::map<std::string, std::set<std::string>> LookupsByFile; // a file built twice: both units' lookups
  for (const UnitSummary &S : Chosen)
    LookupsByFile[S.File].insert(S.Facts.Lookups.begin(), S.Facts.Lookups.end());
  std::set<std::string> Written;
  for (const auto &[File, Lookups] : LookupsByFile) {
    ProgramSummary Slice;
    Slice.Units = {File};
    Slice.Sources[File] = Program.Sources.at(File);
    Slice.Settled = true;
    Slice.Facts = Program.Facts.slice(Lookups);
    Slice.MatchedRegionGlobs = Program.MatchedRegionGlobs; // a glob checked anywhere is no typo
    Slice.MatchedStaticBounds = Program.MatchedStaticBounds;
    const std::string Path = mirroredPath(Dir, File) + ".program.summary";
    if (llvm::Expected<bool> Wrote = writeFileIfChanged(Path, renderProgramSummary(Slice, GRAPHIFY_VERSION)); !Wrote)
      return Wrote.takeError();
    Written.insert(Path);
  }
  std::error_code EC;
  std::vector<std::string> Others;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".program.summary") && !Written.count(It->path()))
      Others.push_back(It->path());
  for (const std::string &F : Others)
    if (std::error_code REC = llvm::sys::fs::remove(F))
      return llvm::createStringError("cannot remove '" + F + "': " + REC.message());
  removeEmptyDirectoriesUnder(Dir);
  return llvm::Error::success();
}

/// A unit summary without its facts and imports. The link keeps one for every summary it is given
/// and reads a summary's facts again in the round that looks for it, so that it holds one summary
/// per unit at a time, not one per unit and round (ggml-cuda's 141 units, five rounds: 1.99 GB
/// when it kept them all; docs/architecture.md).
UnitSummary headerOf(UnitSummary S) {
  S.Facts = UnitFacts();
  S.Imports = ProgramFacts();
  return S;
}

} // namespace

int runLink(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  LinkOptions O;
  if (llvm::Error E = parseFlags<LinkOptions>(
          Argv, linkFlags(), O, [](LinkOptions &O, llvm::StringRef F) { O.Inputs.push_back(F.str()); },
          [](LinkOptions &, llvm::ArrayRef<const char *>) {})) {
    Err << "graphify-link: " << llvm::toString(std::move(E)) << "\n";
    return ExitError;
  }
  if (O.Help) {
    Out << linkHelpText();
    return ExitClean;
  }
  if (O.Version) {
    Out << "graphify-link version " << GRAPHIFY_VERSION << "\n";
    return ExitClean;
  }
  if (O.Output.empty() || O.Inputs.empty()) {
    Err << "graphify-link: error: " << (O.Output.empty() ? "-o <file> is required" : "no summaries to link")
        << "; see --help\n";
    return ExitError;
  }
  llvm::Expected<std::vector<std::string>> Files = summaryFiles(O.Inputs);
  if (!Files) {
    Err << llvm::toString(Files.takeError()) << "\n";
    return ExitError;
  }
  if (Files->empty()) {
    Err << "graphify-link: error: no *.summary file in the inputs\n";
    return ExitError;
  }

  // Every summary, grouped by unit (in merge order); a unit's summaries must be of one version of
  // its sources (graphify-lint removes the others when it extracts).
  std::vector<std::vector<std::pair<UnitSummary, std::string>>> Units;
  {
    std::vector<std::pair<UnitSummary, std::string>> All;
    for (const std::string &F : *Files) {
      llvm::Expected<UnitSummary> S = readUnitSummary(F, GRAPHIFY_VERSION);
      if (!S) {
        Err << llvm::toString(S.takeError()) << "\n";
        return ExitError;
      }
      All.emplace_back(headerOf(std::move(*S)), F);
    }
    std::stable_sort(All.begin(), All.end(),
                     [](const auto &A, const auto &B) { return mergesBefore(A.first, B.first); });
    for (auto &Entry : All) {
      if (Units.empty() || !sameUnit(Units.back().front().first, Entry.first))
        Units.emplace_back();
      else if (Units.back().front().first.Files != Entry.first.Files) {
        Err << "graphify-link: error: '" << Units.back().front().second << "' and '" << Entry.second
            << "' summarise different versions of " << Entry.first.File
            << "'s sources; extract it again with graphify-lint --emit-summaries\n";
        return ExitError;
      }
      Units.back().push_back(std::move(Entry));
    }
  }

  ProgramSummary Program;
  for (const auto &Unit : Units) {
    Program.Units.push_back(Unit.front().first.File);
    Program.Sources[Unit.front().first.File] = sourcesDigest(Unit.front().first.Files);
  }
  // The summary of a unit analysed with `Facts` (equal on every key it looked up), read again, if
  // any. A file that changed since the first read (a concurrent extraction) is an error, not a
  // mix of two versions.
  auto analysedWith = [](const std::vector<std::pair<UnitSummary, std::string>> &Unit,
                         const ProgramFacts &Facts) -> llvm::Expected<std::optional<UnitSummary>> {
    for (const auto &[Header, Path] : Unit) {
      llvm::Expected<UnitSummary> S = readUnitSummary(Path, GRAPHIFY_VERSION);
      if (!S)
        return S.takeError();
      if (S->Files != Header.Files || S->Command != Header.Command)
        return llvm::createStringError("graphify-link: error: '" + Path +
                                       "' changed while it was being linked; link again");
      if (Facts.sameOn(S->Imports, S->Facts.Lookups))
        return std::optional<UnitSummary>(std::move(*S));
    }
    return std::optional<UnitSummary>();
  };
  auto write = [&]() {
    if (llvm::Expected<bool> Wrote = writeFileIfChanged(O.Output, renderProgramSummary(Program, GRAPHIFY_VERSION));
        !Wrote) {
      Err << "graphify-link: error: " << llvm::toString(Wrote.takeError()) << "\n";
      return false;
    }
    return true;
  };

  // Facts only grow and are finite, so the rounds end; the bound only guards against a bug.
  for (unsigned Round = 1; Round <= 10000; ++Round) {
    std::vector<UnitSummary> Chosen;
    std::vector<std::string> Missing;
    for (const auto &Unit : Units) {
      llvm::Expected<std::optional<UnitSummary>> S = analysedWith(Unit, Program.Facts);
      if (!S) {
        Err << llvm::toString(S.takeError()) << "\n";
        return ExitError;
      }
      if (*S)
        Chosen.push_back(std::move(**S));
      else
        Missing.push_back(Unit.front().first.File);
    }
    if (!Missing.empty()) {
      Program.Settled = false;
      if (!write())
        return ExitError;
      Err << "graphify-link: round " << Round << ": " << Missing.size() << " of " << Units.size()
          << " units have no summary analysed with its facts; extract them with --program-summary='" << O.Output
          << "' and link again" << (O.Quiet ? " (without --quiet, the link names them)\n" : ":\n");
      if (!O.Quiet) // a monorepo's CI log wants the count, not thousands of lines
        for (const std::string &F : Missing)
          Err << "  " << F << "\n";
      return ExitNotSettled;
    }
    Program.Facts.beginRound();
    for (UnitSummary &S : Chosen) {
      Program.Facts.merge(S.Facts);
      Program.MatchedRegionGlobs.insert(S.MatchedRegionGlobs.begin(), S.MatchedRegionGlobs.end());
      Program.MatchedStaticBounds.insert(S.MatchedStaticBounds.begin(), S.MatchedStaticBounds.end());
      // What is left to do needs the unit's imports and lookups only; the program copied the rest.
      std::set<std::string> Lookups = std::move(S.Facts.Lookups);
      S.Facts = UnitFacts();
      S.Facts.Lookups = std::move(Lookups);
    }
    // Settled: every unit would be analysed alike with the merged facts.
    bool Settled = true;
    for (const UnitSummary &S : Chosen)
      Settled = Settled && Program.Facts.sameOn(S.Imports, S.Facts.Lookups);
    if (Settled) {
      Program.Settled = true;
      if (!write())
        return ExitError;
      if (!O.Slices.empty())
        if (llvm::Error E = writeSlices(O.Slices, Program, Chosen)) {
          Err << "graphify-link: error: " << llvm::toString(std::move(E)) << "\n";
          return ExitError;
        }
      if (!O.Quiet)
        Err << "graphify-link: " << Units.size() << (Units.size() == 1 ? " unit" : " units") << " linked; settled in "
            << Round << (Round == 1 ? " round\n" : " rounds\n");
      return ExitClean;
    }
  }
  Err << "graphify-link: error: the program did not settle in 10000 rounds (a bug: please report it)\n";
  return ExitError;
}

} // namespace graphify
