#pragma once
/// \file
/// Strict reading of YAML documents: every key is popped by the reader, leftovers are errors,
/// duplicates are errors, and every error names `file:line:col` (1-based) with a "did you mean"
/// when a known key or value is close. Used by the rule-pack loader and the config loader.
///
/// \code
///   auto Doc = graphify::parseYamlFile("rules/libtorch.yaml");
///   if (!Doc) return Doc.takeError();
///   graphify::StrictMap Top(*Doc, "rules/libtorch.yaml", "rule pack");
///   auto Name = Top.takeString("pack", /*Required=*/true);
///   ...
///   if (auto Err = Top.finish()) return Err;
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// Parses a whole YAML file; syntax errors come back as `file:line:col: error: ...`.
llvm::Expected<YAML::Node> parseYamlFile(llvm::StringRef Path);
/// Parses YAML text held in memory; `Path` is only used in messages.
llvm::Expected<YAML::Node> parseYamlText(llvm::StringRef Text, llvm::StringRef Path);

/// `file:line:col: error: Message` for the node's position (1-based line and column).
llvm::Error yamlError(llvm::StringRef Path, const YAML::Node &Node, const llvm::Twine &Message);

/// The closest candidate within a small edit distance, or empty ("did you mean 'X'?" helper).
std::string closestMatch(llvm::StringRef Word, llvm::ArrayRef<std::string> Candidates);
/// "; did you mean 'X'?" when a close candidate exists, otherwise empty.
std::string didYouMean(llvm::StringRef Word, llvm::ArrayRef<std::string> Candidates);

/// A YAML mapping read key by key. Construction checks that the node is a map and has no
/// duplicate keys; `finish()` reports any key nobody took, suggesting the closest known key.
class StrictMap {
public:
  /// `What` names the mapping in messages ("rule pack", "entry 'item'").
  StrictMap(const YAML::Node &Node, std::string Path, std::string What);

  /// Structural errors found at construction (not a map, duplicate key).
  llvm::Error checkShape();

  /// Pops `Key`. Returns the node, or nullopt when absent (an error when `Required`).
  llvm::Expected<std::optional<YAML::Node>> take(llvm::StringRef Key, bool Required = false);
  llvm::Expected<std::optional<std::string>> takeString(llvm::StringRef Key, bool Required = false);
  llvm::Expected<std::optional<bool>> takeBool(llvm::StringRef Key, bool Required = false);
  llvm::Expected<std::optional<int64_t>> takeInt(llvm::StringRef Key, bool Required = false);
  /// A list of strings; a single scalar is accepted as a one-element list when `AllowScalar`.
  llvm::Expected<std::optional<std::vector<std::string>>> takeStringList(llvm::StringRef Key,
                                                                       bool Required = false,
                                                                       bool AllowScalar = false);
  llvm::Expected<std::optional<std::vector<int64_t>>> takeIntList(llvm::StringRef Key, bool Required = false);

  /// Errors for every key not taken, with a "did you mean" among the keys that were asked for.
  llvm::Error finish();

  const YAML::Node &node() const { return Node; }
  const std::string &path() const { return Path; }

private:
  YAML::Node Node;
  std::string Path;
  std::string What;
  std::vector<std::string> Known;   // keys asked for so far, for suggestions
  std::vector<std::string> Taken;
  std::string ShapeProblem;         // set at construction, reported by checkShape()
  YAML::Node ShapeNode;
};

/// Converts a scalar node to a string, failing with a located type error otherwise.
llvm::Expected<std::string> asString(const YAML::Node &Node, llvm::StringRef Path, llvm::StringRef What);
llvm::Expected<int64_t> asInt(const YAML::Node &Node, llvm::StringRef Path, llvm::StringRef What);
llvm::Expected<bool> asBool(const YAML::Node &Node, llvm::StringRef Path, llvm::StringRef What);

} // namespace graphify
