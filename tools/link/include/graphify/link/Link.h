#pragma once
/// \file
/// graphify-link: merges unit summaries (graphify-lint --emit-summary) into a program summary,
/// the link step of whole-program mode by summaries (docs/architecture.md). It reads summaries
/// only, never source, so its memory follows the summaries' size.
///
/// \code
///   int Code = graphify::runLink({"graphify-link", "-o", "program.summary", "summaries/"}, llvm::outs(), llvm::errs());
///   // 0: settled; 3: some units must be extracted again with --program-summary; 2: error
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/raw_ostream.h>

namespace graphify {

/// graphify-link's exit status when the program is not settled yet.
constexpr int ExitNotSettled = 3;

int runLink(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out = llvm::outs(),
            llvm::raw_ostream &Err = llvm::errs());

} // namespace graphify
