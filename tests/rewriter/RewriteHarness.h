#pragma once
/// \file
/// Test support: lint one source text through graphify-lint's own pipeline (lintTranslationUnit,
/// --scope=all) and apply the fixes in memory. Used by the golden runner and the model
/// equivalence tests.
///
/// \code
///   auto Run = graphify::test::rewriteSource("case.cpp", Code);
///   ASSERT_TRUE(Run.ParseErrors.empty()) << Run.ParseErrors;
///   EXPECT_EQ(Run.Fixed, Expected);
/// \endcode

#include "graphify/analyzer/Finding.h"
#include "graphify/rules/RuleSet.h"

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace graphify::test {

/// The outcome of one analyse-and-fix pass over a source text.
struct RewriteRun {
  std::vector<Finding> Findings;
  std::string Fixed;                  ///< the text after applying every non-conflicting fix
  std::vector<std::string> Skipped;   ///< conflicting fixes that were not applied
  std::string ParseErrors;            ///< compiler errors, empty when the text parsed cleanly
  std::string ApplyError;             ///< error from fix application, if any
};

/// The shipped rule packs (rules/ in the source tree).
const RuleSet &testRules();

/// Compiler arguments for test sources: C++17 (LibTorch 1.13's headers need it with clang 19),
/// LibTorch and testdata/rewrite/include on the include path, clang's resource directory.
std::vector<std::string> testCompilerArgs();

/// Lints `Code` as file `Path` (--scope=all, every check) and applies the fixes to the text.
RewriteRun rewriteSource(llvm::StringRef Path, llvm::StringRef Code);

} // namespace graphify::test
