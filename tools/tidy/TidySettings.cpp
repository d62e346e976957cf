// Reading the module's settings from clang-tidy's check options. Invariant: a value the module
// cannot read is an error that names the option, never a silent default, as a malformed
// `.graphify.yaml` is for graphify-lint.
#include "TidySettings.h"

#include "graphify/lint/Config.h"
#include "graphify/rules/RuleSet.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>

#include <cstring>
#include <dlfcn.h>

namespace graphify::tidy {
namespace {

std::vector<std::string> splitList(llvm::StringRef Text) {
  std::vector<std::string> Items;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ';', -1, false);
  for (llvm::StringRef Part : Parts)
    for (llvm::StringRef Item : llvm::split(Part, ','))
      if (!Item.trim().empty())
        Items.push_back(Item.trim().str());
  return Items;
}

llvm::Error optionError(llvm::StringRef Option, const llvm::Twine &Problem) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), (Option + ": " + Problem).str());
}

/// parseProfile and parseScope name the option themselves as `Where: error: ...`; clang-tidy
/// prints its own "error:" before a configuration problem.
llvm::Error withoutErrorWord(llvm::Error E) {
  std::string Message = llvm::toString(std::move(E));
  size_t At = Message.find(": error: ");
  if (At != std::string::npos)
    Message.erase(At, std::strlen(": error"));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// `function::variable=N` items.
llvm::Expected<std::vector<StaticBound>> parseBounds(llvm::StringRef Option, llvm::StringRef Text) {
  std::vector<StaticBound> Bounds;
  for (const std::string &Item : splitList(Text)) {
    auto [Key, Value] = llvm::StringRef(Item).split('=');
    std::string Problem;
    auto Bound = parseStaticBoundKey(Key.trim(), Problem);
    if (!Bound)
      return optionError(Option, "invalid static bound key '" + Key.trim() + "': " + Problem);
    int64_t N = 0;
    if (Value.trim().getAsInteger(10, N) || N < 1)
      return optionError(Option, "the static bound of '" + Key.trim() +
                                     "' must be a positive integer (expected 'function::variable=N')");
    Bound->Bound = N;
    Bounds.push_back(std::move(*Bound));
  }
  return Bounds;
}

} // namespace

llvm::Expected<TidySettings> readSettings(llvm::StringRef CheckName,
                                          const std::function<std::optional<std::string>(llvm::StringRef)> &Lookup) {
  TidySettings S;
  auto Where = [&](llvm::StringRef Option) { return (CheckName + "." + Option).str(); };
  if (auto V = Lookup("Profile")) {
    auto P = parseProfile(llvm::StringRef(*V).trim(), Where("Profile"));
    if (!P)
      return withoutErrorWord(P.takeError());
    S.ProfileKind = *P;
  }
  if (auto V = Lookup("Scope")) {
    auto Sc = parseScope(llvm::StringRef(*V).trim(), Where("Scope"));
    if (!Sc)
      return withoutErrorWord(Sc.takeError());
    S.ScopeKind = *Sc;
  }
  if (auto V = Lookup("GraphRegions"))
    S.GraphRegions = splitList(*V);
  if (auto V = Lookup("RulePacks"))
    S.RulePacks = splitList(*V);
  if (auto V = Lookup("RulesDir"))
    S.RulesDir = llvm::StringRef(*V).trim().str();
  if (auto V = Lookup("StaticBounds")) {
    auto Bounds = parseBounds(Where("StaticBounds"), *V);
    if (!Bounds)
      return Bounds.takeError();
    S.StaticBounds = std::move(*Bounds);
  }
  return S;
}

std::vector<std::pair<std::string, std::string>> TidySettings::asOptions() const {
  std::vector<std::string> Bounds;
  for (const StaticBound &B : StaticBounds)
    Bounds.push_back(llvm::formatv("{0}::{1}={2}", B.Function, B.Name, B.Bound).str());
  return {{"GraphRegions", llvm::join(GraphRegions, ";")},
          {"Scope", scopeName(ScopeKind).str()},
          {"Profile", profileName(ProfileKind).str()},
          {"RulePacks", llvm::join(RulePacks, ";")},
          {"RulesDir", RulesDir},
          {"StaticBounds", llvm::join(Bounds, ";")}};
}

std::string TidySettings::key() const {
  std::string Key;
  for (const auto &[Name, Value] : asOptions())
    Key += Name + "=" + Value + "\n";
  return Key;
}

std::string rulesDirectoryOfModule() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&rulesDirectoryOfModule), &Info) || !Info.dli_fname)
    return defaultRulesDirectory(nullptr);
  return rulesDirectoryAbove(Info.dli_fname);
}

} // namespace graphify::tidy
