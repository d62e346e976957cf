#pragma once
/// \file
/// One graphify check as clang-tidy sees it: clang-tidy makes one object per enabled id
/// (`graphify-host-sync`, ...); each asks the unit's shared analysis (UnitFindings) and reports
/// the findings of its own id, with graphify-lint's notes and fix-its.

#include "TidySettings.h"

#include "graphify/analyzer/Finding.h"

#include <clang-tidy/ClangTidyCheck.h>

#include <optional>
#include <string>

namespace graphify::tidy {

class GraphifyCheck : public clang::tidy::ClangTidyCheck {
public:
  GraphifyCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override { return LangOpts.CPlusPlus; }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  /// One finding: the warning with its range and, when it carries its fix, the fix-its; then
  /// its notes.
  void report(const clang::SourceManager &SM, const Finding &F, bool CarriesFix);

  clang::tidy::ClangTidyContext *Tidy;
  std::optional<TidySettings> Settings; ///< none when the options are malformed (reported once)
};

} // namespace graphify::tidy
