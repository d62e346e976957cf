#pragma once
/// \file
/// The files of whole-program mode by summaries (docs/architecture.md, "Whole-program mode by
/// summaries"): a unit summary is what one translation unit exports after one analysis, with the
/// program facts it looked up and the values it found there; a program summary is the merge of
/// the unit summaries. Both are JSON with sorted keys, so identical facts give identical bytes
/// (a build system can cache them and skip what depends on an unchanged one).
///
/// \code
///   graphify::UnitSummary S;   // filled by graphify-lint --emit-summary
///   std::string Text = graphify::renderUnitSummary(S, GRAPHIFY_VERSION);
///   llvm::Expected<graphify::UnitSummary> Back = graphify::parseUnitSummary(Text, "a.summary", GRAPHIFY_VERSION);
/// \endcode

#include "graphify/analyzer/ProgramFacts.h"

#include <llvm/Support/Error.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace graphify {

/// One translation unit's export.
struct UnitSummary {
  std::string File;      ///< the main file, absolute
  std::string Directory; ///< the compile command's directory
  /// commandDigest of the compile command and of the analysis configuration (graph regions, rule
  /// packs, bounds...): a file built twice, or checked under another configuration, is another unit.
  std::string Command;
  /// The project's files the extraction read, path → contentDigest (LintUnitResult::SourceFiles):
  /// whether the summary is still of the sources can be told by hashing them again, without a parse.
  std::map<std::string, std::string> Files;
  /// The program facts the analysis imported, restricted to Facts.Lookups (none in the first
  /// round): the link re-runs the unit only when the program's facts differ there.
  ProgramFacts Imports;
  UnitFacts Facts;
  /// The --graph-region globs that named a function defined in the unit's analysed files.
  std::set<std::string> MatchedRegionGlobs;
  /// The configured static bounds (`function::variable`) that named a variable there.
  std::set<std::string> MatchedStaticBounds;
};

/// A merge of unit summaries.
struct ProgramSummary {
  /// The units merged, in merge order, as `file` (see unitKey).
  std::vector<std::string> Units;
  /// Each unit's sources digest, by file.
  std::map<std::string, std::string> Sources;
  /// Every unit's analysis used facts equal to these on its lookups: checks against them give
  /// the findings of the single-process whole-program mode.
  bool Settled = false;
  ProgramFacts Facts;
  /// The globs some unit matched: a check of some of the units warns of a glob that names no
  /// function only when no unit of the program has one.
  std::set<std::string> MatchedRegionGlobs;
  /// The static bounds some unit matched, for the same reason.
  std::set<std::string> MatchedStaticBounds;
};

/// The order units are merged in, in both modes: by main file, directory and command digest
/// (the facts do not depend on it; which origin explains a fact does).
bool mergesBefore(const UnitSummary &A, const UnitSummary &B);

/// A short stable digest (16 hex digits) of a compile command line.
std::string commandDigest(const std::vector<std::string> &CommandLine);

/// A short stable digest (16 hex digits) of bytes: a file's content.
std::string contentDigest(llvm::StringRef Bytes);

/// One digest of a unit's source files (UnitSummary::Files): what a program summary keeps per unit.
std::string sourcesDigest(const std::map<std::string, std::string> &Files);

/// Whether two summaries are of the same unit (main file, directory, command digest).
bool sameUnit(const UnitSummary &A, const UnitSummary &B);

/// The name of a unit's summary in an --emit-summaries directory: `<file name>.<16 hex digits of
/// file, directory and command>.<16 hex digits of its imports>.summary`: a unit has a summary per
/// set of imported facts it was analysed with (a round of a settling), stable across runs and
/// machines that build in the same place.
std::string summaryFileName(const UnitSummary &S);

/// `<Dir>/<File>`, File's absolute path laid out under Dir (`/src/nms.cpp` → `<Dir>/src/nms.cpp`):
/// where a directory mirroring the sources keeps what belongs to one source file (the summaries of
/// its units in an --emit-summaries directory, its slice in graphify-link --slices), so that a build
/// system can name it from the source's path alone.
std::string mirroredPath(llvm::StringRef Dir, llvm::StringRef File);

std::string renderUnitSummary(const UnitSummary &S, llvm::StringRef ToolVersion);
std::string renderProgramSummary(const ProgramSummary &S, llvm::StringRef ToolVersion);

/// Read back what render* wrote. Errors name `Path` and, for malformed JSON, its line and column;
/// a summary of another graphify version is refused (facts change meaning between versions).
llvm::Expected<UnitSummary> parseUnitSummary(llvm::StringRef Text, llvm::StringRef Path,
                                             llvm::StringRef ToolVersion);
llvm::Expected<ProgramSummary> parseProgramSummary(llvm::StringRef Text, llvm::StringRef Path,
                                                   llvm::StringRef ToolVersion);

/// Reads and parses a file (a missing or unreadable file is an error naming it).
llvm::Expected<UnitSummary> readUnitSummary(llvm::StringRef Path, llvm::StringRef ToolVersion);
llvm::Expected<ProgramSummary> readProgramSummary(llvm::StringRef Path, llvm::StringRef ToolVersion);

/// The `*.summary` files under a directory (its subdirectories too), in path order.
llvm::Expected<std::vector<std::string>> summaryFilesIn(llvm::StringRef Dir);

/// Removes the empty directories under `Root` (not Root itself), deepest first: what removing a
/// mirrored directory's files (mirroredPath) leaves behind.
void removeEmptyDirectoriesUnder(llvm::StringRef Root);

/// Writes `Text` to `Path` through a temporary file and a rename, and leaves an existing file
/// untouched (its time stamp too) when it already holds `Text`, so that a build system does not
/// re-run what depends on it. Missing parent directories are made. Returns whether it wrote.
llvm::Expected<bool> writeFileIfChanged(llvm::StringRef Path, llvm::StringRef Text);

} // namespace graphify
