#pragma once
/// \file
/// clang-tidy's suppression comments, applied to findings after the analysis by reading the
/// source text: `// NOLINT`, `// NOLINT(check, glob-*)`, `// NOLINTNEXTLINE(...)`, and
/// `// NOLINTBEGIN(...)` ... `// NOLINTEND(...)` regions. Without parentheses every check is
/// suppressed; a BEGIN is closed by the END with the same list. An unmatched BEGIN or END is itself
/// reported (check id `graphify-nolint`) and suppresses nothing.
///
/// \code
///   graphify::NolintMap Map(SourceText, "model.cpp");
///   if (Map.suppresses(F.Where.Line, F.CheckId)) ...
///   for (const graphify::Finding &Problem : Map.problems()) ...
/// \endcode

#include "graphify/analyzer/Check.h"
#include "graphify/analyzer/Finding.h"

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace graphify {

/// The check id of findings about malformed suppression comments.
inline constexpr const char *NolintCheckId = "graphify-nolint";

/// Metadata for `graphify-nolint` (it is not a registered check: it runs on comments, not ASTs).
const CheckInfo &nolintCheckInfo();

class NolintMap {
public:
  NolintMap(llvm::StringRef Text, llvm::StringRef File);
  /// Whether a finding of `CheckId` on 1-based `Line` is suppressed.
  bool suppresses(unsigned Line, llvm::StringRef CheckId) const;
  /// Unmatched NOLINTBEGIN / NOLINTEND comments, as findings.
  const std::vector<Finding> &problems() const { return Problems; }

private:
  struct Range {
    unsigned First = 0, Last = 0; // inclusive, 1-based
    bool AllChecks = true;
    std::vector<std::string> Globs;
  };
  std::vector<Range> Ranges;
  std::vector<Finding> Problems;
};

} // namespace graphify
