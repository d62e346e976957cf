#pragma once
/// \file
/// What to do by hand about a finding no rewrite rule is about. A rewrite is offered only when
/// it provably keeps the program's meaning; what cannot be automated (a size read from data, a
/// value printed on the host, a loop whose trip count is data) still deserves the standard
/// manual form. The recipe comes from where the finding's value goes (printed, a loop
/// condition, a host copy), else from the check's own help text.
///
/// \code
///   F.Recipe = rewriter::manualRecipe(F, Anchor, Ctx, Api);
///   // "the value is printed on the host: move the print out of the graph region (after the replay) ..."
/// \endcode

#include "ApiModel.h"

#include "graphify/analyzer/Finding.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <map>
#include <string>

namespace graphify::rewriter {

/// Branches (by line) that no select can express whatever their condition, each with why (the
/// branch runs host code, compacts, tests a host object): a read whose value decides one is
/// advised with that reason.
using BlockedBranches = std::map<unsigned, std::string>;

/// The manual recipe for `F`, whose construct is `Anchor`.
std::string manualRecipe(const Finding &F, const clang::Stmt *Anchor, clang::ASTContext &Ctx, const ApiModel &Api,
                         const BlockedBranches &Blocked = {});

} // namespace graphify::rewriter
