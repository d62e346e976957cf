#pragma once
/// \file
/// The one way graphify lints a translation unit: parse (with a shared PCH when given, and again
/// without it if that fails), analyse (in whole-program mode, in rounds with the other units),
/// seek fixes for the findings, name files as reported, then
/// apply the check and profile filters, the header filter and NOLINT, sort, and assign
/// severities. graphify-lint, graphify-validate, the golden tests and the rewriter tests all call
/// lintTranslationUnit, so every one of them sees exactly what a user of the CLI sees.
///
/// \code
///   graphify::LintUnit U;
///   U.CommandLine = graphify::syntaxOnlyCommand(Cmd, ResourceDir);
///   U.WorkingDir = Cmd.Directory;
///   U.File = Cmd.Filename;
///   U.Config = Config;          // from ConfigStore::configFor
///   U.Rules = Rules;            // from ConfigStore::rulesFor
///   graphify::LintUnitResult R = graphify::lintTranslationUnit(U);
///   if (!R.Parsed) llvm::errs() << R.CompilerErrors;
///   for (const graphify::ReportedFinding &F : R.Findings) ...
/// \endcode

#include "graphify/analyzer/Analysis.h"
#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/Config.h"
#include "graphify/lint/Output.h"
#include "graphify/lint/ProgramSession.h"
#include "graphify/rules/RuleSet.h"

#include <clang/AST/ASTContext.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace graphify {

/// One translation unit and everything that decides what is reported for it.
struct LintUnit {
  std::vector<std::string> CommandLine; ///< syntax-only driver command line, argv[0] first, naming File
  std::string WorkingDir;               ///< the compile command's directory
  std::string File;                     ///< the main file, as named in CommandLine
  std::optional<std::string> Content;   ///< lint this text as File instead of File's content on disk
  LintConfig Config;                    ///< checks, profile, scope, regions, header filter, severities
  const RuleSet *Rules = nullptr;       ///< rule packs (required)
  std::string Pch;                      ///< a shared PCH to try first, or empty
  bool ColorDiagnostics = false;        ///< ANSI colors in the compiler's messages
  /// Runs on the parsed AST before the analysis and may add graph regions (qualified-name globs)
  /// to Config's: the validator makes each of its entries one, since an entry runs in a graph.
  std::function<void(clang::ASTContext &, std::vector<std::string> &GraphRegions)> BeforeAnalysis;
  /// The directory whose headers are the project's: their bodies are analysed (findings there
  /// are reported when the header filter selects them, else counted). Empty: File's directory.
  std::string ProjectRoot;
  /// Record every file the parse read (LintUnitResult::FilesRead), so that the caller can refuse
  /// to write over one of them.
  bool RecordFilesRead = false;
  /// Whole-program mode: the session this unit settles its facts with, and its index there.
  ProgramSession *Program = nullptr;
  size_t ProgramIndex = 0;
  /// Whole-program mode: parse the unit again for each round and for the checks instead of
  /// keeping its AST while the other units catch up, so that peak memory follows the largest
  /// unit (times -j), not the number of units.
  bool ReparseEachRound = false;
  /// Whole-program mode by summaries: analyse with these program facts imported (a program
  /// summary's) instead of settling them with a session.
  const ProgramFacts *Imported = nullptr;
  /// Whole-program mode by summaries: hand the unit's export to LintUnitResult::Exported.
  bool ExportFacts = false;
  /// With ExportFacts: the export is all that is wanted; the checks do not run.
  bool ExportOnly = false;
};

/// What lintTranslationUnit found.
struct LintUnitResult {
  bool Parsed = false;                  ///< the translation unit compiled; else nothing was checked
  std::string CompilerErrors;           ///< the compiler's errors, rendered like clang's
  unsigned ErrorCount = 0;              ///< number of compiler errors
  std::vector<ReportedFinding> Findings; ///< sorted by file, line, column, check, message
  /// The text of each file the findings (their notes and fixes) point into, as the parse read it
  /// (an unsaved Content included), by reported path: renderers show these lines, not the disk's.
  std::map<std::string, std::string> SourceTexts;
  unsigned Suppressed = 0;              ///< findings silenced by NOLINT
  std::vector<Finding> HiddenInHeaders; ///< findings in analysed headers the header filter does not show
  bool PchRejected = false;             ///< parsed fine without the shared PCH but not with it
  std::vector<std::string> RegionGlobs; ///< the graph-region globs the unit was linted with
  std::set<std::string> MatchedRegionGlobs; ///< those that named a function defined in its analysed files
  std::vector<std::string> StaticBoundKeys; ///< the configured static bounds (`function::variable`)
  std::set<std::string> MatchedStaticBounds; ///< those that named a variable of a function of its analysed files
  std::vector<std::string> AnnotationProblems; ///< malformed GRAPHIFY_STATIC_BOUND annotations (`file:line:col: ...`)
  std::vector<std::string> UncheckedCode; ///< code that should be checked and is not, with why (`file:line:col: ...`)
  std::vector<FileRead> FilesRead;      ///< with RecordFilesRead: the files the parse read, headers included
  std::optional<UnitFacts> Exported;    ///< with ExportFacts: what the unit exports and looked up
  /// In whole-program mode by summaries (ExportFacts or Imported): the project's files the parse
  /// read (main file and project headers), absolute path → contentDigest (SummaryFile.h).
  std::map<std::string, std::string> SourceFiles;
};

/// Lints one translation unit (see the file comment for the steps, in order).
LintUnitResult lintTranslationUnit(const LintUnit &Unit);

/// The fix search of the pipeline: rewrites and advice for the findings of `A`, matched only over
/// the top-level declarations of the main file, of the headers `IsHeaderReported` selects (the
/// header filter: --fix may edit them) and of those `IsHeaderShown` selects (region code in the
/// project's headers, shown whatever the filter says); null: none. A rewrite that would edit a
/// shown header the filter does not select is not offered: the finding says so instead. The
/// clang-tidy module runs it on clang-tidy's AST.
void attachFixesInReportedFiles(clang::ASTContext &Ctx, AnalysisResult &A, const RuleSet &Rules,
                                const std::function<bool(llvm::StringRef)> *IsHeaderReported,
                                const std::function<bool(llvm::StringRef)> *IsHeaderShown = nullptr);

/// Runs `Work` on a thread with a 1 GiB stack (reserved, not committed) and waits for it: the
/// analysis recurses along expressions as deep as Clang accepts.
void runOnLargeStack(llvm::function_ref<void()> Work);

} // namespace graphify
