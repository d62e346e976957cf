// Range selectors shared by several rules.
#include "RuleSupport.h"

#include <clang/Tooling/Transformer/SourceCode.h>

using namespace clang;
using namespace clang::transformer;

namespace graphify::rewriter {

RangeSelector statementThroughOptional(std::string First, std::string Last) {
  return [First, Last](const ast_matchers::MatchFinder::MatchResult &R) -> llvm::Expected<CharSourceRange> {
    auto Begin = statement(First)(R);
    if (!Begin)
      return Begin.takeError();
    if (R.Nodes.getMap().count(Last) == 0)
      return Begin;
    return enclose(statement(First), statement(Last))(R);
  };
}

} // namespace graphify::rewriter
