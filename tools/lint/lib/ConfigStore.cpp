// Configuration lookup for graphify-lint. Invariant: a flag overrides the file only when the user
// wrote it (LintOptions keeps unset flags unset), and every file and pack is read once per run.
#include "graphify/lint/ConfigStore.h"
#include "graphify/lint/ReportedPaths.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Regex.h>

namespace graphify {

llvm::Expected<LintConfig> ConfigStore::configFor(llvm::StringRef File) {
  LintConfig C;
  if (O.Config) {
    auto Base = commandLineConfig();
    if (!Base)
      return Base.takeError();
    C = *Base;
  } else {
    std::string Path = findConfigFile(File.empty() ? llvm::StringRef("./.") : File);
    if (!Path.empty()) {
      auto Loaded = fileConfig(Path);
      if (!Loaded)
        return Loaded.takeError();
      C = *Loaded;
    } else {
      C.Origin = "defaults";
    }
  }
  if (O.Checks)
    C.Checks = C.Checks.empty() ? *O.Checks : C.Checks + "," + *O.Checks;
  if (O.Profile) {
    auto P = parseProfile(*O.Profile, "--profile");
    if (!P)
      return P.takeError();
    C.ProfileKind = *P;
  }
  if (O.Scope) {
    auto S = parseScope(*O.Scope, "--scope");
    if (!S)
      return S.takeError();
    C.ScopeKind = *S;
  }
  C.GraphRegions.insert(C.GraphRegions.end(), O.GraphRegions.begin(), O.GraphRegions.end());
  if (O.WarningsAsErrors)
    C.WarningsAsErrors = *O.WarningsAsErrors;
  if (O.HeaderFilter) {
    std::string Problem;
    if (!llvm::Regex(*O.HeaderFilter).isValid(Problem))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "error: invalid --header-filter regex: " + Problem);
    C.HeaderFilterRegex = *O.HeaderFilter;
  }
  for (const std::string &R : O.RuleFiles) {
    llvm::SmallString<256> Abs(R);
    llvm::sys::fs::make_absolute(Abs);
    C.RulePacks.push_back(std::string(Abs));
  }
  return C;
}

llvm::Expected<const RuleSet *> ConfigStore::rulesFor(const std::vector<std::string> &Packs) {
  std::string Key = llvm::join(Packs, "\n");
  auto It = Rules.find(Key);
  if (It != Rules.end())
    return It->second.get();
  auto Loaded = RuleSet::loadFromDirectory(RulesDir, Packs);
  if (!Loaded)
    return Loaded.takeError();
  auto Owned = std::make_unique<RuleSet>(std::move(*Loaded));
  const RuleSet *Ptr = Owned.get();
  Rules.emplace(Key, std::move(Owned));
  return Ptr;
}

llvm::Expected<LintConfig> ConfigStore::commandLineConfig() {
  if (CommandLine)
    return *CommandLine;
  llvm::StringRef Value = *O.Config;
  // A value naming a file is that file; anything else is YAML text (as clang-tidy's --config).
  auto Parse = [&]() -> llvm::Expected<LintConfig> {
    if (llvm::sys::fs::is_directory(Value))
      return llvm::createStringError(std::make_error_code(std::errc::is_a_directory),
                                     ("error: --config names a directory: '" + Value + "'").str());
    // YAML text for a configuration is a mapping, so it has a ':' (or braces); a value with
    // neither is a file name, and a missing one is an error rather than a YAML scalar.
    if (!llvm::sys::fs::is_regular_file(Value) && !Value.contains(':') && !Value.contains('{'))
      return llvm::createStringError(std::make_error_code(std::errc::no_such_file_or_directory),
                                     ("error: no such --config file: '" + Value + "'").str());
    if (!llvm::sys::fs::is_regular_file(Value))
      return parseConfig(Value, "--config", currentDirectory());
    auto Buffer = llvm::MemoryBuffer::getFile(Value);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "error: cannot read --config file '" + Value + "'");
    llvm::SmallString<256> Abs(Value);
    llvm::sys::fs::make_absolute(Abs);
    return parseConfig((*Buffer)->getBuffer(), Value, llvm::sys::path::parent_path(Abs));
  };
  llvm::Expected<LintConfig> C = Parse();
  if (!C)
    return C.takeError();
  CommandLine = *C;
  return *C;
}

llvm::Expected<LintConfig> ConfigStore::fileConfig(const std::string &Path) {
  auto It = Files.find(Path);
  if (It != Files.end())
    return It->second;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "error: cannot read '" + Path + "'");
  auto C = parseConfig((*Buffer)->getBuffer(), Path, llvm::sys::path::parent_path(Path));
  if (!C)
    return C.takeError();
  Files.emplace(Path, *C);
  return *C;
}

} // namespace graphify
