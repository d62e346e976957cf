#pragma once
/// \file
/// graphify-lint as a function: options in, exit code out (0 no findings, 1 findings, 2 usage,
/// configuration, rules or compile errors). The executable is a main of one line around it, and
/// tests call it in-process or run the binary.
///
/// \code
///   int main(int Argc, const char **Argv) { return graphify::runLint(llvm::ArrayRef(Argv, Argc)); }
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/raw_ostream.h>

namespace graphify {

/// Exit codes, as documented in --help.
enum ExitCode : int { ExitClean = 0, ExitFindings = 1, ExitError = 2 };

/// Runs graphify-lint; findings go to `Out`, compiler errors and summaries to `Err`.
int runLint(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out = llvm::outs(),
            llvm::raw_ostream &Err = llvm::errs());

} // namespace graphify
