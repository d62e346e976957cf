#pragma once
/// \file
/// The advice line every output prints after a finding's notes: why no rewrite applies ("no fix
/// offered: ..."), or what to do by hand ("by hand: ..."; "or by hand: ..." beside a fix that moves
/// the construct out of the graph, where the recipe says how to keep it in). One wording for the
/// text, GitHub, SARIF and clang-tidy outputs.

#include "graphify/analyzer/Finding.h"

#include <string>

namespace graphify {

/// The advice of `F` with its label, or empty when it has none.
inline std::string adviceLine(const Finding &F) {
  if (!F.NoFixReason.empty())
    return "no fix offered: " + F.NoFixReason;
  if (!F.Recipe.empty())
    return (F.Fix ? "or by hand: " : "by hand: ") + F.Recipe;
  return "";
}

} // namespace graphify
