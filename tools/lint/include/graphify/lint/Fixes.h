#pragma once
/// \file
/// --fix, --diff and --export-fixes: the driver's side of the rewriter's FixApplication API. The
/// rewriter decides which edits apply and writes files atomically; the driver supplies the one
/// thing only it knows, how to re-parse a file's new content with that file's compile command.
///
/// \code
///   graphify::FixRequest R{graphify::FixRequest::Diff, "", Reparse};
///   if (llvm::Error E = graphify::deliverFixes(Findings, R, llvm::outs())) ...
/// \endcode

#include "graphify/analyzer/Finding.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <string>

namespace graphify {

struct FixRequest {
  enum Kind { Fix, Diff, Export } What = Fix;
  std::string ExportPath; ///< for Export
  /// Whether `Path` with `NewContent` still compiles (compiler errors in `Errors` otherwise).
  std::function<bool(llvm::StringRef Path, llvm::StringRef NewContent, std::string &Errors)> Compiles;
};

/// Hands the fixes of `Findings` to the rewriter.
llvm::Error deliverFixes(llvm::ArrayRef<Finding> Findings, const FixRequest &Request, llvm::raw_ostream &Out);

} // namespace graphify
