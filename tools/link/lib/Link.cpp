// graphify-link. Invariants: the program summary depends only on the set of unit summaries (they
// are merged in SummaryFile.h's order, whatever order they were named in) and on --base; a unit
// is named for another round exactly when the single-process mode would re-analyse it: the
// merged facts differ, on a key it looked up, from those it was analysed with.
#include "graphify/link/Link.h"
#include "graphify/lint/Driver.h"
#include "graphify/lint/FlagTable.h"
#include "graphify/lint/SummaryFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace graphify {
namespace {

struct LinkOptions {
  std::string Output;              ///< -o <file>
  std::string Base;                ///< --base=<file>: the previous round's program summary
  std::vector<std::string> Inputs; ///< summaries, or directories of them
  bool Quiet = false;
  bool Help = false;
  bool Version = false;
};

const std::vector<Flag<LinkOptions>> &linkFlags() {
  static const std::vector<Flag<LinkOptions>> Table = {
      {"o", "file", "the program summary to write (required)",
       [](LinkOptions &O, llvm::StringRef V) { O.Output = V.str(); return llvm::Error::success(); }},
      {"base", "file",
       "the program summary of the previous round of the same settling: its facts are kept and grown, as "
       "the single-process mode's rounds do (may be the -o file)",
       [](LinkOptions &O, llvm::StringRef V) { O.Base = V.str(); return llvm::Error::success(); }},
      {"quiet", nullptr, "no summary line on stderr",
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
        "USAGE: graphify-link -o <program.summary> [--base=<file>] <summary or directory>...\n\n"
        "A directory stands for every *.summary file in it. A unit analysed with facts that the merge\n"
        "changed must be extracted again (graphify-lint --emit-summaries=<dir> --program-summary=<this\n"
        "output>) and the summaries linked again with --base until the program is settled.\n\n"
        "OPTIONS:\n"
     << flagHelp<LinkOptions>(linkFlags())
     << "\nEXIT STATUS: 0 settled (checks against the output give whole-program mode's findings),\n"
        "3 not settled (the units to extract again are named on stderr), 2 usage or input errors.\n";
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
    std::vector<std::string> Here;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(In, EC), End; It != End && !EC; It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(".summary"))
        Here.push_back(It->path());
    if (EC)
      return llvm::createStringError("graphify-link: error: cannot list '" + In + "': " + EC.message());
    std::sort(Here.begin(), Here.end());
    Files.insert(Files.end(), Here.begin(), Here.end());
  }
  return Files;
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

  std::vector<std::pair<UnitSummary, std::string>> Units;
  for (const std::string &F : *Files) {
    llvm::Expected<UnitSummary> S = readUnitSummary(F, GRAPHIFY_VERSION);
    if (!S) {
      Err << llvm::toString(S.takeError()) << "\n";
      return ExitError;
    }
    Units.emplace_back(std::move(*S), F);
  }
  std::stable_sort(Units.begin(), Units.end(),
                   [](const auto &A, const auto &B) { return mergesBefore(A.first, B.first); });
  for (size_t I = 1; I < Units.size(); ++I)
    if (!mergesBefore(Units[I - 1].first, Units[I].first)) {
      Err << "graphify-link: error: '" << Units[I - 1].second << "' and '" << Units[I].second
          << "' summarise the same translation unit (" << Units[I].first.File << ")\n";
      return ExitError;
    }

  ProgramSummary Program;
  if (!O.Base.empty()) {
    llvm::Expected<ProgramSummary> Base = readProgramSummary(O.Base, GRAPHIFY_VERSION);
    if (!Base) {
      Err << llvm::toString(Base.takeError()) << "\n";
      return ExitError;
    }
    // Rounds grow the facts of one set of units; a unit added, removed or rebuilt since starts over.
    std::vector<std::string> Files;
    for (const auto &[S, Path] : Units)
      Files.push_back(S.File);
    if (Base->Units != Files) {
      Err << "graphify-link: error: --base='" << O.Base << "' links other units (" << Base->Units.size()
          << " there, " << Files.size() << " here); link without --base to start a new settling\n";
      return ExitError;
    }
    Program.Facts = std::move(Base->Facts);
  }
  Program.Facts.beginRound();
  for (const auto &[S, Path] : Units) {
    Program.Facts.merge(S.Facts);
    Program.Units.push_back(S.File);
  }
  std::vector<std::string> Again;
  for (const auto &[S, Path] : Units)
    if (!Program.Facts.sameOn(S.Imports, S.Facts.Lookups))
      Again.push_back(S.File);
  Program.Settled = Again.empty();

  if (llvm::Expected<bool> Wrote = writeFileIfChanged(O.Output, renderProgramSummary(Program, GRAPHIFY_VERSION));
      !Wrote) {
    Err << "graphify-link: error: " << llvm::toString(Wrote.takeError()) << "\n";
    return ExitError;
  }
  if (Program.Settled) {
    if (!O.Quiet)
      Err << "graphify-link: " << Units.size() << (Units.size() == 1 ? " unit" : " units") << " linked; settled\n";
    return ExitClean;
  }
  Err << "graphify-link: " << Again.size() << " of " << Units.size()
      << " units were analysed with facts this link changed; extract them again with --program-summary='"
      << O.Output << "' and link with --base='" << O.Output << "':\n";
  for (const std::string &F : Again)
    Err << "  " << F << "\n";
  return ExitNotSettled;
}

} // namespace graphify
