#pragma once
/// \file
/// An --emit-summaries directory: a memo of the analyses of each unit. A unit summary is the
/// unit's export for one set of imported facts (a round of a settling); the directory keeps one per
/// set. It mirrors the sources: the summaries of a source file's units are in
/// `mirroredPath(<dir>, <file>)/`, found there by content (the unit they name, their imports), so a
/// run reads only the summaries of the files it analyses, concurrent runs on different files do not
/// touch each other's, and a build system names a file's summaries from its path alone.
///
/// \code
///   auto Dir = graphify::SummaryDirectory::open("graphify-summaries", GRAPHIFY_VERSION);
///   if (const graphify::UnitSummary *S = Dir->validFor(Id, Program)) ...  // no need to parse
///   std::string Path = Dir->pathFor(NewSummary);
/// \endcode

#include "graphify/lint/SummaryFile.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Error.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace graphify {

class SummaryDirectory {
public:
  /// Creates `Dir` if needed; the summaries in it are read when a unit of their file is asked about.
  static llvm::Expected<SummaryDirectory> open(llvm::StringRef Dir, llvm::StringRef ToolVersion);

  /// A summary of the unit `Id` names that is still of its sources (every file it lists hashes as
  /// it did) and was analysed with facts equal to `Program`'s on every key it looked up: the
  /// analysis a parse would repeat. Null when there is none.
  const UnitSummary *validFor(const UnitSummary &Id, const ProgramFacts &Program);
  /// Where `S` goes: the path of a summary of the same unit and imports, or
  /// `mirroredPath(<dir>, S.File)/summaryFileName(S)`.
  std::string pathFor(const UnitSummary &S);
  /// Removes the summaries of `S`'s unit that are of other sources than `S` (an edit made them
  /// useless), except `Written` (where S was just written); returns how many.
  llvm::Expected<unsigned> removeOtherSources(const UnitSummary &S, llvm::StringRef Written);
  /// Removes every `*.summary` file but those of units in `Units` and those in `Written` (a run over
  /// the whole build: a file gone from the build, a changed command, an unreadable file), and the
  /// directories that leaves empty. Returns how many summaries it removed.
  llvm::Expected<unsigned> prune(const std::vector<UnitSummary> &Units, const std::set<std::string> &Written);

private:
  struct Entry {
    std::string Path;
    UnitSummary Summary;
  };
  /// The readable summaries of this graphify in `File`'s directory, in file name order (read once).
  const std::vector<Entry> &entriesOf(const std::string &File);
  bool stillOfItsSources(const UnitSummary &S);
  std::string Dir;
  std::string ToolVersion;
  std::map<std::string, std::vector<Entry>> ByFile; ///< source file → its summaries
  llvm::StringMap<std::string> Digests;             ///< content digests of source files, read once per run
};

} // namespace graphify
