#pragma once
/// \file
/// A unified diff (`diff -u` format, 3 lines of context) of two versions of one file, for
/// `graphify-lint --diff`.
///
/// \code
///   writeUnifiedDiff("model.cpp", Before, After, llvm::outs());
/// \endcode

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/raw_ostream.h>

namespace graphify::rewriter {

/// Writes `--- a/Path`, `+++ b/Path` and the hunks turning `Before` into `After`; nothing when
/// they are equal.
void writeUnifiedDiff(llvm::StringRef Path, llvm::StringRef Before, llvm::StringRef After, llvm::raw_ostream &OS,
                      unsigned Context = 3);

} // namespace graphify::rewriter
