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

/// For each finding whose anchor a rewrite rule matches, fills `Finding::Fix` with the rule's
/// edits, or `Finding::NoFixReason` when the rule matched the shape but a safety predicate
/// refused (e.g. "no fix: the else branch calls 'add_', which changes state"). Findings that no
/// rule matches are left untouched. Function spellings come from the RuleSet flavor of the
/// tensor type involved (`Rules.spellFunction(Flavor, "where")`).
void attachFixes(clang::ASTContext &Ctx, AnalysisResult &Result, const RuleSet &Rules);

} // namespace graphify
