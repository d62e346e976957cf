#pragma once
/// \file
/// Renderers for findings: clang-style text, JSON, SARIF 2.1.0 and GitHub workflow commands.
/// They read only plain data (Finding, CheckInfo) and the source text, so they are tested
/// without parsing anything.
///
/// \code
///   graphify::SourceCache Sources;
///   graphify::OutputContext Ctx{Sources};
///   Ctx.Color = llvm::outs().is_displayed();
///   graphify::writeText(llvm::outs(), Reported, Ctx);
/// \endcode

#include "graphify/analyzer/Check.h"
#include "graphify/analyzer/Finding.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphify {

enum class Severity { Warning, Error };

/// A finding as it will be reported: WarningsAsErrors turns some into errors.
struct ReportedFinding {
  Finding F;
  Severity Level = Severity::Warning;
};

/// File contents read once, for source lines, carets and offset-to-line conversions. The lint
/// pipeline hands over the text each finding points into as the parse read it (remember), so a
/// run renders what it analysed without reading a file again; any other file is read from disk
/// on first use.
class SourceCache {
public:
  /// Uses `Text` as the content of `File` (the first text given for a file wins).
  void remember(llvm::StringRef File, llvm::StringRef Text);
  /// The text of 1-based `Line` of `File` without its line break, or nullopt if unreadable.
  std::optional<llvm::StringRef> line(llvm::StringRef File, unsigned Line);
  /// 1-based line and column of a byte offset in `File`.
  std::optional<std::pair<unsigned, unsigned>> position(llvm::StringRef File, unsigned Offset);
  /// The whole file, or nullopt.
  std::optional<llvm::StringRef> text(llvm::StringRef File);

private:
  struct Entry {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<unsigned> LineStarts;
  };
  const Entry *get(llvm::StringRef File);
  static std::unique_ptr<Entry> entryOf(std::unique_ptr<llvm::MemoryBuffer> Buffer);
  llvm::StringMap<std::unique_ptr<Entry>> Files;
};

/// What every renderer may need besides the findings.
struct OutputContext {
  SourceCache &Sources;
  bool Color = false;                  ///< ANSI colors (text only)
  std::string WorkingDir;              ///< SARIF URIs are relative to it where possible
  std::vector<CheckInfo> Rules;        ///< SARIF tool.driver.rules, in order
  std::string ToolVersion;
};

/// `file:line:col: warning: message [check]`, the source line, a caret with `~` over the range,
/// the fix-it text, and notes, as clang-tidy prints them.
void writeText(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx);
/// A JSON array of findings; the schema is documented in JsonOutput.cpp and docs.
void writeJson(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx);
/// One SARIF 2.1.0 log with one run.
void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx);
/// `::warning file=…,line=…,col=…,title=…::message` workflow commands, one per finding.
void writeGithub(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx);

/// What one run checked and found, for the closing summary line.
struct RunSummary {
  unsigned Files = 0;      ///< translation units given (a file has one per compile command)
  unsigned Sources = 0;    ///< the files they compile (0: one translation unit each)
  unsigned NotParsed = 0;  ///< of the translation units, those that did not compile (nothing was checked)
  unsigned Suppressed = 0; ///< findings silenced by NOLINT
  unsigned HiddenInHeaders = 0; ///< findings in analysed headers that the header filter does not show
  /// Graph-region globs that named no function defined in the checked files: most likely a
  /// misspelt region, whose code then went unchecked.
  std::vector<std::string> UnmatchedRegionGlobs;
  /// Static bounds that name no variable, and malformed bound annotations: their loops stay
  /// unbounded.
  std::vector<std::string> StaticBoundProblems;
  /// Code that should be checked and is not (`file:line:col: message`): calls in regions and
  /// windows whose targets graphify cannot see, captures begun and never ended in the checked files.
  std::vector<std::string> UncheckedCode;
  std::map<std::string, unsigned> FindingsPerCheck;
  double Seconds = 0;
};
/// One line: `graphify-lint: 3 files checked, 5 findings (graphify-host-sync: 5), 1 suppressed
/// by NOLINT, 2.4 s` (`, 1 file did not compile` when one did not). When a file has several
/// compile commands the count is of translation units: `3 translation units of 2 files checked`.
void writeSummaryText(llvm::raw_ostream &OS, const RunSummary &S);
/// The same as one JSON object on one line: `{"summary": {"files": 3, "translation_units": 3, "not_parsed": 0,
/// "findings": 5, "findings_per_check": {...}, "suppressed": 1, "hidden_in_headers": 0,
/// "unmatched_region_globs": [], "seconds": 2.4}}`.
void writeSummaryJson(llvm::raw_ostream &OS, const RunSummary &S);

/// GitHub's escaping of a workflow command's message (`%`, CR, LF) and, with `Property`, of a
/// property value (also `:` and `,`).
std::string escapeGithub(llvm::StringRef Text, bool Property);

/// `file` relative to `WorkingDir` when it lies beneath it (with `/` separators), else empty.
std::string relativeToWorkingDir(llvm::StringRef File, llvm::StringRef WorkingDir);

} // namespace graphify
