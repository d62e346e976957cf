#pragma once
/// \file
/// An --emit-summaries directory: a memo of the analyses of each unit. A unit summary is the
/// unit's export for one set of imported facts (a round of a settling); the directory keeps one per
/// set, found by content (the unit it names, its imports), not by file name, so summaries a build
/// system wrote with `--emit-summary=<its own name>` take part too.
///
/// \code
///   auto Dir = graphify::SummaryDirectory::open("graphify-summaries", GRAPHIFY_VERSION);
///   if (const graphify::UnitSummary *S = Dir->validFor(Id, Program)) ...  // no need to parse
///   std::string Path = Dir->pathFor(NewSummary);
/// \endcode

#include "graphify/lint/SummaryFile.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Error.h>

#include <set>
#include <string>
#include <vector>

namespace graphify {

class SummaryDirectory {
public:
  /// Creates `Dir` if needed and reads the summaries in it. A `*.summary` file that is not a
  /// readable unit summary of this graphify is left out (prune removes it).
  static llvm::Expected<SummaryDirectory> open(llvm::StringRef Dir, llvm::StringRef ToolVersion);

  /// A summary of the unit `Id` names that is still of its sources (every file it lists hashes as
  /// it did) and was analysed with facts equal to `Program`'s on every key it looked up: the
  /// analysis a parse would repeat. Null when there is none.
  const UnitSummary *validFor(const UnitSummary &Id, const ProgramFacts &Program);
  /// Where `S` goes: the path of a summary of the same unit and imports, or
  /// `<dir>/summaryFileName(S)`.
  std::string pathFor(const UnitSummary &S) const;
  /// Removes the summaries of `S`'s unit that are of other sources than `S` (an edit made them
  /// useless), except `Written` (where S was just written); returns how many.
  llvm::Expected<unsigned> removeOtherSources(const UnitSummary &S, llvm::StringRef Written) const;
  /// Removes every `*.summary` file but those of units in `Units` and those in `Written` (a run over
  /// the whole build: a file gone from the build, a changed command, an unreadable file). Returns
  /// how many.
  llvm::Expected<unsigned> prune(const std::vector<UnitSummary> &Units, const std::set<std::string> &Written) const;

private:
  struct Entry {
    std::string Path;
    UnitSummary Summary;
  };
  bool stillOfItsSources(const UnitSummary &S);
  std::string Dir;
  std::vector<Entry> Entries;            ///< in file name order
  llvm::StringMap<std::string> Digests;  ///< content digests of source files, read once per run
};

} // namespace graphify
