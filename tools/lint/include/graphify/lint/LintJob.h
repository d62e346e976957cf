#pragma once
/// \file
/// A job of graphify-lint: one translation unit, its compile command, configuration, rules and
/// shared PCH, all resolved on the main thread before any parse (Driver.cpp makes them).
///
/// \code
///   graphify::LintJob J;
///   J.Command = Db.getCompileCommands(File).front();
///   std::string Main = graphify::absoluteFile(J.Command.Filename, J.Command.Directory);
/// \endcode

#include "graphify/lint/Config.h"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace graphify {

class RuleSet;

/// One input file, fully resolved on the main thread.
struct LintJob {
  std::string File;
  clang::tooling::CompileCommand Command;
  std::vector<std::string> CommandLine; // syntax-only, with -resource-dir
  LintConfig Config;
  const RuleSet *Rules = nullptr;
  std::string Pch;                      // shared PCH to try, or empty
};

/// `File` made absolute against the compile command's directory, `..` and `.` removed.
std::string absoluteFile(llvm::StringRef File, llvm::StringRef Directory);

} // namespace graphify
