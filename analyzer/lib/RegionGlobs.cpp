// The syntax of the globs that name graph regions (--graph-region, the config's GraphRegions:),
// checked with the same llvm::GlobPattern that GraphRegionFinder matches with, so a pattern that
// is accepted here is one the analysis can use. Kept apart from GraphRegions.cpp because the
// configuration loader needs it without the AST machinery (the fuzz_config target links it alone).
#include "graphify/analyzer/GraphRegions.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/GlobPattern.h>

namespace graphify {

llvm::Expected<llvm::GlobPattern> GraphRegionFinder::compileGlob(llvm::StringRef Glob) {
  // A bound on the alternatives braces expand to, which also turns the expansion on.
  constexpr size_t MaxAlternatives = 1024;
  return llvm::GlobPattern::create(Glob, MaxAlternatives);
}

std::string GraphRegionFinder::globProblem(llvm::StringRef Glob) {
  if (Glob.trim().empty())
    return "an empty glob names no function";
  auto Pattern = compileGlob(Glob);
  if (!Pattern)
    return llvm::toString(Pattern.takeError());
  return {};
}

} // namespace graphify
