#pragma once
/// \file
/// What the graphify checks of the clang-tidy module are configured with: the keys of
/// `.graphify.yaml` that concern one translation unit, read from clang-tidy's check options.
/// Each key is looked up as clang-tidy's shared options are, the check's own key first, then the
/// global one (`graphify-host-sync.Scope`, then `Scope`), so one line configures every graphify
/// check:
///
/// \code
///   # .clang-tidy
///   Checks: '-*,graphify-*'
///   CheckOptions:
///     GraphRegions: '*::postprocess;Decoder::decode'
///     Scope: graph                 # or all
///     Profile: cuda-graph          # or trace
///     RulePacks: 'rules/mylib.yaml'   # relative to the compile command's directory
///     StaticBounds: 'decode::len=64'
/// \endcode
///
/// Lists are separated by `;` (clang-tidy's convention) or `,`.

#include "graphify/analyzer/Analysis.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace graphify::tidy {

struct TidySettings {
  Profile ProfileKind = Profile::CudaGraph;
  Scope ScopeKind = Scope::Graph;
  std::vector<std::string> GraphRegions;
  std::vector<std::string> RulePacks; ///< as written; relative ones name files in the build directory
  std::string RulesDir;               ///< the shipped packs; empty: beside the module (rulesDirectoryOfModule)
  std::vector<StaticBound> StaticBounds;

  /// The settings as option values, by name (what `--dump-config` prints).
  std::vector<std::pair<std::string, std::string>> asOptions() const;
  /// A key that differs whenever two settings could analyse a unit differently.
  std::string key() const;
};

/// Reads the settings; `Lookup` returns an option's value (the check's own key, else the global
/// one) or nullopt. A malformed value is an error naming the option and what it accepts.
llvm::Expected<TidySettings> readSettings(llvm::StringRef CheckName,
                                          const std::function<std::optional<std::string>(llvm::StringRef)> &Lookup);

/// The rule packs shipped with the module: $GRAPHIFY_RULES_DIR, else `share/graphify/rules`
/// above the module's own file (an installed layout), else the source tree's rules/.
std::string rulesDirectoryOfModule();

} // namespace graphify::tidy
