#pragma once
/// \file
/// The graphify analysis of the translation unit clang-tidy is checking, run once and shared by
/// every graphify check: clang-tidy instantiates one check object per enabled id, and the
/// analysis (taint, regions, capture windows, fix search) serves all of them. Results live until
/// the end of the unit (UnitFindings::forget, from each check's onEndOfTranslationUnit).
///
/// \code
///   const UnitResult &R = UnitFindings::of(*Result.Context, Settings, *TidyContext);
///   for (const Finding &F : R.Findings) if (F.CheckId == getID()) ...
/// \endcode

#include "TidySettings.h"

#include "graphify/analyzer/Finding.h"

#include <clang-tidy/ClangTidyDiagnosticConsumer.h>
#include <clang/AST/ASTContext.h>

#include <string>
#include <vector>

namespace graphify::tidy {

/// What the analysis reported for one unit under one set of settings.
struct UnitResult {
  std::vector<Finding> Findings;      ///< every enabled check's, fixes attached, unfiltered by file
  /// Per finding: whether its fix goes out as fix-its. One rewrite often answers several
  /// findings (a branch and the host read in its condition); clang-tidy would refuse the same
  /// edits from two diagnostics as overlapping, so the first of them in source order carries it
  /// and the others keep only the "fix:" note.
  std::vector<bool> CarriesFix;
  std::string Error;                  ///< why nothing was analysed (rule packs that do not load)
  std::vector<std::string> Unchecked; ///< code that should be checked and is not (`file:line:col: ...`)
  bool UncheckedReported = false;     ///< the first check to see Unchecked printed it
};

class UnitFindings {
public:
  /// The result for the unit of `Ctx` under `Settings`, analysed on first use.
  static UnitResult &of(clang::ASTContext &Ctx, const TidySettings &Settings, clang::tidy::ClangTidyContext &Tidy);
  /// Drops the results of the unit that just ended (an ASTContext's address may be reused).
  static void forget();
};

} // namespace graphify::tidy
