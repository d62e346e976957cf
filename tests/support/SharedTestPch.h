#pragma once
/// \file
/// One precompiled LibTorch prefix shared by every golden case of the test binaries, as
/// graphify-lint shares one between the files of a run (lint/Preamble.h). Parsing
/// `<torch/torch.h>` takes 30 to 100 s on a loaded 2-core machine; well over a hundred cases
/// include it, and the rewrite goldens parse each fixed text a second time. The PCH lives in the
/// build tree (GRAPHIFY_TEST_PCH_DIR), keyed like the tool's cache (flags, include lines, tool and
/// Clang versions), so concurrent test processes build it once and later runs reuse it.
///
/// The invariant that keeps the findings identical is the tool's: the PCH holds exactly the case's
/// first `#include` lines, through the first LibTorch one, compiled with exactly its flags.
/// Cases without LibTorch parse in well under a second and take no PCH.
///
/// \code
///   Unit.Pch = graphify::testing::sharedTestPch(Unit.CommandLine, Unit.WorkingDir, Path, Code);
///   LintUnitResult R = lintTranslationUnit(Unit);
///   graphify::testing::discardRejectedPch(Unit.Pch, R.PchRejected);
/// \endcode

#include "graphify/lint/Preamble.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace graphify::testing {

/// Where the test binaries keep their PCHs; GRAPHIFY_TEST_PCH=off turns sharing off (to compare
/// a case's findings with and without it).
inline std::string testPchDir() {
  const char *Mode = std::getenv("GRAPHIFY_TEST_PCH");
  if (Mode && llvm::StringRef(Mode) == "off")
    return "";
  return GRAPHIFY_TEST_PCH_DIR;
}

/// The shared PCH for a case whose text is `Code`, parsed as `File` with the syntax-only
/// `CommandLine`, or "" when the case includes no LibTorch header among its leading includes (or
/// the prefix does not precompile: the parse then reports the error itself).
inline std::string sharedTestPch(const std::vector<std::string> &CommandLine, llvm::StringRef WorkingDir,
                                 llvm::StringRef File, llvm::StringRef Code) {
  const std::string Dir = testPchDir();
  if (Dir.empty())
    return "";
  std::vector<std::string> Includes = leadingIncludes(Code, File);
  size_t Through = 0;
  while (Through < Includes.size() && !llvm::StringRef(Includes[Through]).starts_with("#include <torch/"))
    ++Through;
  if (Through == Includes.size())
    return "";
  Includes.resize(Through + 1);
  // The key holds the flags, not the file: every case with these flags shares the PCH.
  std::vector<std::string> Flags;
  for (const std::string &A : CommandLine)
    if (A != File)
      Flags.push_back(A);
  PchCache Cache(Dir);
  llvm::Expected<std::string> Pch = Cache.getOrBuild(Flags, WorkingDir, Includes);
  if (!Pch) {
    llvm::consumeError(Pch.takeError());
    return "";
  }
  return *Pch;
}

/// Removes a PCH that Clang refused (a LibTorch header changed since it was built), so that the
/// next case builds a fresh one instead of parsing twice.
inline void discardRejectedPch(const std::string &Pch, bool Rejected) {
  if (Rejected && !Pch.empty())
    PchCache(testPchDir()).discard(Pch);
}

} // namespace graphify::testing
