#pragma once
/// \file
/// Applying the fixes attached to findings: to the files (atomically, only if the result still
/// compiles), as a unified diff, or as clang-apply-replacements YAML.
///
/// \code
///   graphify::FixApplicationOptions Opts;
///   Opts.Mode = graphify::FixApplicationOptions::Mode::Fix;
///   Opts.Compiles = [&](llvm::StringRef Path, llvm::StringRef Text, std::string &Errors) {
///     return reparse(Path, Text, Errors);
///   };
///   if (llvm::Error E = graphify::applyFixes(Findings, Opts, llvm::outs())) ...
/// \endcode

#include "graphify/analyzer/Finding.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <string>
#include <vector>

namespace graphify {

/// How `applyFixes` delivers the fixes.
struct FixApplicationOptions {
  /// What to do with the fixes.
  enum class Mode {
    Fix,   ///< rewrite the files in place (atomically, only when the result compiles)
    Diff,  ///< print a unified diff to the output stream; write nothing
    Export ///< write clang-apply-replacements YAML to ExportPath
  } Mode = Mode::Fix;
  /// Destination of the YAML in Export mode.
  std::string ExportPath;
  /// Whether `NewContent` (the fixed text of `Path`) still compiles; fills `CompilerErrors`
  /// otherwise. Null means "do not check" (tests only).
  std::function<bool(llvm::StringRef Path, llvm::StringRef NewContent, std::string &CompilerErrors)>
      Compiles;
  /// Style used when no `.clang-format` is found from the file's directory upwards.
  std::string FormatStyleFallback = "LLVM";
};

/// Applies every non-conflicting fix in `Findings`, per file. Overlapping fixes: the first one
/// (in finding order) wins, the others are reported on `Out` as skipped. Changed ranges are
/// formatted with clang-format. In Fix mode a file is written (temp file + rename) only when
/// `Opts.Compiles` accepts the new content; otherwise nothing is written and the error carries
/// the compiler's messages. Applying twice is a no-op the second time (fixed code has no fix).
llvm::Error applyFixes(llvm::ArrayRef<Finding> Findings, const FixApplicationOptions &Opts,
                       llvm::raw_ostream &Out);

/// Applies the fixes of `Findings` that concern `Path` to `Original` and formats the changed
/// ranges, without touching the disk. `Skipped` receives one line per conflicting fix.
/// Exposed for tests and for graphify-validate.
llvm::Expected<std::string> applyFixesToText(llvm::ArrayRef<Finding> Findings, llvm::StringRef Path,
                                             llvm::StringRef Original,
                                             const std::string &FormatStyleFallback,
                                             std::vector<std::string> *Skipped = nullptr);

} // namespace graphify
