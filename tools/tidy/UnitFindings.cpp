// The shared analysis of the module. Invariants: what the analysis sees of a unit is what
// graphify-lint's pipeline gives it (the same configuration callbacks, the same fix search, the
// same large stack), so that the two report the same findings; and a unit with compiler errors
// is not analysed, as graphify-lint reports nothing for it (clang-tidy prints the errors).
#include "UnitFindings.h"

#include "graphify/analyzer/Check.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/ReportedPaths.h"
#include "graphify/rules/RuleSet.h"

#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Regex.h>

#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace graphify::tidy {
namespace {

/// The results of the unit being checked, by settings key.
struct UnitCache {
  const clang::ASTContext *Unit = nullptr;
  std::map<std::string, UnitResult> Results;
};

UnitCache &unitCache() {
  static UnitCache Cache;
  return Cache;
}

/// Rule sets by directory and packs, kept for the whole run: every unit reads the same packs.
llvm::Expected<const RuleSet *> rulesFor(const std::string &Dir, const std::vector<std::string> &Packs) {
  static std::map<std::string, std::unique_ptr<RuleSet>> Loaded;
  std::string Key = Dir + "\n" + llvm::join(Packs, "\n");
  auto It = Loaded.find(Key);
  if (It != Loaded.end())
    return It->second.get();
  auto Rules = RuleSet::loadFromDirectory(Dir, Packs);
  if (!Rules)
    return Rules.takeError();
  auto &Slot = Loaded[Key];
  Slot = std::make_unique<RuleSet>(std::move(*Rules));
  return Slot.get();
}

/// Pack files as absolute paths; relative ones are in the compile command's directory, where
/// clang-tidy resolves the unit's own relative names.
std::vector<std::string> packPaths(const std::vector<std::string> &Packs, llvm::StringRef BuildDir) {
  std::vector<std::string> Paths;
  for (const std::string &P : Packs)
    Paths.push_back(absoluteIn(P, BuildDir));
  return Paths;
}

/// A regex option of clang-tidy, or nothing when unset or empty.
std::optional<llvm::Regex> regexOption(const std::optional<std::string> &Text) {
  if (!Text || Text->empty())
    return std::nullopt;
  return llvm::Regex(*Text);
}

/// The edits of a fix, as one string: equal fixes have equal keys.
std::string editsKey(const FixIt &Fix) {
  std::string Key;
  for (const Replacement &Rep : Fix.Replacements)
    Key += Rep.File + ":" + std::to_string(Rep.Offset) + ":" + std::to_string(Rep.Length) + ":" + Rep.Text + "\n";
  return Key;
}

/// Which findings carry their fix (UnitResult::CarriesFix): the first of each set of equal
/// fixes, in graphify-lint's order (file, line, column, check, message).
std::vector<bool> fixCarriers(const std::vector<Finding> &Findings) {
  std::vector<size_t> Order(Findings.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const Finding &X = Findings[A], &Y = Findings[B];
    return std::tie(X.Where.File, X.Where.Line, X.Where.Column, X.CheckId, X.Message) <
           std::tie(Y.Where.File, Y.Where.Line, Y.Where.Column, Y.CheckId, Y.Message);
  });
  std::vector<bool> Carries(Findings.size(), false);
  std::set<std::string> Given;
  for (size_t I : Order)
    if (Findings[I].Fix && Given.insert(editsKey(*Findings[I].Fix)).second)
      Carries[I] = true;
  return Carries;
}

UnitResult analyse(clang::ASTContext &Ctx, const TidySettings &S, clang::tidy::ClangTidyContext &Tidy) {
  UnitResult R;
  if (Ctx.getDiagnostics().hasUncompilableErrorOccurred())
    return R;
  const std::string BuildDir = Tidy.getCurrentBuildDirectory();
  auto Rules = rulesFor(S.RulesDir.empty() ? rulesDirectoryOfModule() : S.RulesDir, packPaths(S.RulePacks, BuildDir));
  if (!Rules) {
    R.Error = llvm::toString(Rules.takeError());
    return R;
  }
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const std::string MainFile = SM.getFileEntryRefForID(SM.getMainFileID())->getName().str();
  // clang-tidy shows a header's findings when its header filter selects the file; the analysis
  // reports findings in the same files, so that the fix search covers them.
  const clang::tidy::ClangTidyOptions &Options = Tidy.getOptions();
  std::optional<llvm::Regex> HeaderFilter = regexOption(Options.HeaderFilterRegex);
  std::optional<llvm::Regex> ExcludeFilter = regexOption(Options.ExcludeHeaderFilterRegex);
  std::function<bool(llvm::StringRef)> IsFileReported = [&](llvm::StringRef File) {
    if (File == MainFile || sameFile(File, MainFile))
      return true;
    return HeaderFilter && HeaderFilter->match(File) && !(ExcludeFilter && ExcludeFilter->match(File));
  };
  // As graphify-lint without --project-root: the bodies in the main file's directory and below
  // are the project's.
  ProjectFiles Project(llvm::sys::path::parent_path(absoluteIn(MainFile, BuildDir)).str(), BuildDir);

  AnalysisConfig AC;
  AC.Rules = *Rules;
  AC.ProfileKind = S.ProfileKind;
  AC.ScopeKind = S.ScopeKind;
  AC.GraphRegionGlobs = S.GraphRegions;
  AC.StaticBounds = S.StaticBounds;
  AC.IsCheckEnabled = [&Tidy](llvm::StringRef Id) { return Tidy.isCheckEnabled(Id); };
  AC.IsFileReported = IsFileReported;
  AC.IsFileAnalysed = [&](llvm::StringRef File) { return Project.contains(File) || IsFileReported(File); };

  runOnLargeStack([&] {
    AnalysisResult A = analyzeTranslationUnit(Ctx, AC);
    if (!A.Findings.empty())
      attachFixesInReportedFiles(Ctx, A, **Rules, HeaderFilter ? &IsFileReported : nullptr);
    // The analysis kept the findings of enabled checks and of the profile only (before the
    // fixes were attached, so that a fix is not given to a finding nobody sees).
    R.Findings = std::move(A.Findings);
    R.CarriesFix = fixCarriers(R.Findings);
    R.Unchecked = std::move(A.UncheckedCode);
  });
  return R;
}

} // namespace

UnitResult &UnitFindings::of(clang::ASTContext &Ctx, const TidySettings &Settings,
                             clang::tidy::ClangTidyContext &Tidy) {
  UnitCache &Cache = unitCache();
  if (Cache.Unit != &Ctx) {
    Cache.Results.clear();
    Cache.Unit = &Ctx;
  }
  std::string Key = Settings.key();
  auto It = Cache.Results.find(Key);
  if (It == Cache.Results.end())
    It = Cache.Results.emplace(Key, analyse(Ctx, Settings, Tidy)).first;
  return It->second;
}

void UnitFindings::forget() {
  UnitCache &Cache = unitCache();
  Cache.Results.clear();
  Cache.Unit = nullptr;
}

} // namespace graphify::tidy
