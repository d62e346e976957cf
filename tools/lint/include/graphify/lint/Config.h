#pragma once
/// \file
/// The effective configuration of one file: `.graphify.yaml` (nearest one walking up from the
/// file, or --config), overridden by command-line flags. The YAML is read strictly: unknown keys
/// and wrong types fail with `file:line:col` and a "did you mean".
///
/// \code
///   # .graphify.yaml
///   Checks: "-*,graphify-host-sync"
///   Profile: cuda-graph
///   Scope: graph
///   GraphRegions: ["*::step"]
///   RulePacks: [rules/mylib.yaml]
///   WarningsAsErrors: "graphify-capture-unsafe-api"
///   HeaderFilterRegex: "model/.*"
///   StaticBounds: {"decode::len": 64}   # <function glob>::<variable>: at most this
/// \endcode

#include "graphify/analyzer/Analysis.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace graphify {

/// A clang-tidy style glob list: comma-separated globs (`*` matches any run of characters), a
/// leading `-` negates; the last glob that matches decides, and nothing matches by default.
class GlobList {
public:
  GlobList() = default;
  explicit GlobList(llvm::StringRef Text);
  bool contains(llvm::StringRef Name) const;
  bool empty() const { return Items.empty(); }

private:
  struct Item {
    std::string Pattern;
    bool Positive = true;
  };
  std::vector<Item> Items;
};

/// Whether `Name` matches the glob `Pattern` (only `*` is special).
bool matchesGlob(llvm::StringRef Pattern, llvm::StringRef Name);

/// Why the check glob list `Text` is malformed (a glob with a character no check id has, such
/// as `[` or `?`, which are not wildcards here, or a lone `-`), naming the glob; empty when it is
/// well formed. Such a glob matches nothing, so `-graphify-host-[sync]` would silently disable
/// nothing; callers refuse it.
std::string checkGlobProblem(llvm::StringRef Text);

/// The configuration keys, with the values in effect.
struct LintConfig {
  std::string Checks = "graphify-*";
  Profile ProfileKind = Profile::CudaGraph;
  Scope ScopeKind = Scope::Graph;
  std::vector<std::string> GraphRegions;
  std::vector<std::string> RulePacks;   ///< absolute paths (relative ones resolved against the config's directory)
  std::string WarningsAsErrors;
  std::string HeaderFilterRegex;
  std::vector<StaticBound> StaticBounds; ///< the user's promises (graphify/analyzer/StaticBounds.h)
  std::string Origin;                   ///< where it came from: a file path, "--config", or "defaults"
};

/// Reads one configuration document; `Path` names it in messages and anchors relative RulePacks.
llvm::Expected<LintConfig> parseConfig(llvm::StringRef Text, llvm::StringRef Path, llvm::StringRef BaseDir,
                                       LintConfig Base = LintConfig());

/// The nearest `.graphify.yaml` in the directory of `File` or any parent, or empty.
std::string findConfigFile(llvm::StringRef File);

/// The effective configuration as YAML (the format `--config` and `.graphify.yaml` accept).
std::string dumpConfig(const LintConfig &Config);

llvm::StringRef profileName(Profile P);
llvm::StringRef scopeName(Scope S);
/// Parses a profile or scope name, with a "did you mean" on error.
llvm::Expected<Profile> parseProfile(llvm::StringRef Name, llvm::StringRef Where);
llvm::Expected<Scope> parseScope(llvm::StringRef Name, llvm::StringRef Where);

} // namespace graphify
