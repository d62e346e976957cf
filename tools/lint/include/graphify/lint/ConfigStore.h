#pragma once
/// \file
/// The effective configuration of each file, and the rule set it names, loaded once. A file's
/// configuration is the nearest `.graphify.yaml` above it (or `--config`), refined by the flags
/// the user actually wrote: `--checks` is appended (the last matching glob wins), `--graph-region`
/// and `--rules` add, the others replace.
///
/// \code
///   graphify::ConfigStore Configs(Options, RulesDir);
///   auto Config = Configs.configFor("src/model.cpp");
///   auto Rules = Configs.rulesFor(Config->RulePacks);
/// \endcode

#include "graphify/lint/Config.h"
#include "graphify/lint/Options.h"
#include "graphify/rules/RuleSet.h"

#include <llvm/Support/Error.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// Configurations and rule sets, loaded on one thread before any parsing starts; the objects it
/// returns live as long as the store.
class ConfigStore {
public:
  ConfigStore(const LintOptions &O, std::string RulesDir) : O(O), RulesDir(std::move(RulesDir)) {}

  /// The effective configuration for `File` (an empty file means the working directory's).
  llvm::Expected<LintConfig> configFor(llvm::StringRef File);

  /// The rule set for a list of extra packs (shared by every file with the same list).
  llvm::Expected<const RuleSet *> rulesFor(const std::vector<std::string> &Packs);

private:
  const LintOptions &O;
  std::string RulesDir;
  std::optional<LintConfig> CommandLine;
  std::map<std::string, LintConfig> Files;
  std::map<std::string, std::unique_ptr<RuleSet>> Rules;

  llvm::Expected<LintConfig> commandLineConfig();
  llvm::Expected<LintConfig> fileConfig(const std::string &Path);
};

} // namespace graphify
