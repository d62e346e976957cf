#pragma once
/// \file
/// Attaching fixes to findings. Each rewrite is one clang Transformer rule (matcher + edits +
/// explanation, rewriter/rules/<Name>.cpp); a rule that matches a finding's anchor either yields
/// edits (Finding::Fix) or, when a safety predicate refuses, a reason (Finding::NoFixReason).
///
/// \code
///   graphify::AnalysisResult R = graphify::analyzeTranslationUnit(Ctx, Config);
///   graphify::attachFixes(Ctx, R, Rules);
///   for (const graphify::Finding &F : R.Findings)
///     if (F.Fix) ... else if (!F.NoFixReason.empty()) ...
/// \endcode

#include "graphify/analyzer/Analysis.h"
#include "graphify/rules/RuleSet.h"

#include <clang/AST/ASTContext.h>

namespace graphify {

/// For each finding whose construct a rewrite candidate concerns (a select's conditions, or the
/// whole matched expression, and the locals they read), fills `Finding::Fix` with the rule's
/// edits, or `Finding::NoFixReason` when the rule matched the shape but a safety predicate
/// refused ("the else branch calls 'add_', which changes state (line 12)"). A finding that no
/// candidate concerns gets the manual recipe for what it is (ManualRecipe.h), so no finding is
/// left without a reason. Function spellings come from the RuleSet flavor of the tensor type.
void attachFixes(clang::ASTContext &Ctx, AnalysisResult &Result, const RuleSet &Rules);

} // namespace graphify
