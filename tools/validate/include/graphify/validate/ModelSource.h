#pragma once
/// \file
/// The Clang-facing part of the validator: parse a model file once, find its entries (the
/// declarations under `// graphify-entry:` comments, and any named with `--entry`) with their
/// `forward` parameters, and produce the rewritten text by running graphify-lint's pipeline on it
/// and applying the fixes it offers to a copy in memory (the file on disk is never touched).
///
/// \code
///   graphify::validate::ModelLoadOptions O{"/abs/model.cpp", ParseArgs, RulesDir, {"Net"}};
///   auto M = graphify::validate::loadModel(O);
///   if (!M) return M.takeError();                  // the compiler's messages
///   for (const auto &E : M->Entries) ...
/// \endcode

#include "graphify/validate/Harness.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphify::validate {

/// A declaration that can be validated: a free function, or a module class / holder.
struct EntryDecl {
  std::string Name;          ///< as written (`NonTraceableModel`, `ArgmaxPick`)
  std::string CallName;      ///< spelling usable at global scope (namespaces included)
  EntryKind Kind = EntryKind::Module;
  std::vector<std::string> Params;    ///< `forward`'s (or the function's) parameter names
  std::vector<bool> ParamIsTensor;    ///< parallel to Params
  unsigned RequiredParams = 0;        ///< parameters without a default argument
  /// The return type, spelled, when the harness cannot compare it (not a tensor, number, or a
  /// tuple, pair or vector of those); empty otherwise.
  std::string UnsupportedReturn;
  std::string ForwardName;            ///< `NonTraceableModel::forward`, for graph-region globs
  unsigned Line = 0;                  ///< where the declaration starts
  /// Line ranges of the code the entry runs: its function (or `forward` and the default
  /// constructor) and every function of the model file they call, transitively.
  std::vector<std::pair<unsigned, unsigned>> CodeLines;
  /// The `// graphify-entry:` text above it, when annotated.
  std::optional<std::string> SpecText;
  unsigned SpecLine = 0;
  unsigned SpecColumn = 0;            ///< 1-based column where SpecText starts

  /// Whether line `L` of the model file is in the code the entry runs (CodeLines).
  bool runsLine(unsigned L) const;
};

/// What the rewrite did to the file.
struct RewriteSummary {
  /// (line, "if-return-to-where: explanation") per applied fix.
  std::vector<std::pair<unsigned, std::string>> Applied;
  /// (line, "message [check-id] (why no fix)") per finding left alone.
  std::vector<std::pair<unsigned, std::string>> Unfixed;
  std::vector<std::string> Skipped;   ///< conflicting fixes the application skipped

  /// The items of `Items` (Applied or Unfixed) on lines entry `D` runs, each once, in order.
  static std::vector<std::pair<unsigned, std::string>> inEntry(
      const EntryDecl &D, const std::vector<std::pair<unsigned, std::string>> &Items);
};

/// Inputs of loadModel.
struct ModelLoadOptions {
  std::string Path;                     ///< absolute path of the model file
  std::vector<std::string> ParseArgs;   ///< -std, -I, -D... (resource dir and tool name added here)
  std::string RulesDir;                 ///< rule packs for the analyzer
  std::vector<std::string> ExtraEntries; ///< names from --entry, analysed as graph regions too
};

/// A parsed model file.
struct ModelInfo {
  std::string Path;
  std::string Text;          ///< the file as read
  std::string RewrittenText; ///< Text with every applicable fix applied (== Text when none)
  /// Every annotated declaration plus every class/function that could be named by --entry.
  std::vector<EntryDecl> Decls;
  RewriteSummary Rewrite;

  /// The declaration called `Name` (simple or qualified), or null.
  const EntryDecl *find(const std::string &Name) const;
  /// The annotated declarations, in file order.
  std::vector<const EntryDecl *> annotated() const;
};

/// The largest model source read (64 MiB): anything bigger is not a model but a mistake (a data
/// file, a device), and reading it would only fill memory before the parse gives up.
inline constexpr uint64_t MaxModelFileBytes = uint64_t(64) << 20;

/// Checks, without opening it, that `Path` is a regular file no larger than MaxModelFileBytes:
/// a FIFO would block the read forever, `/dev/zero` would fill memory, a directory or `/dev/null`
/// would reach the compiler as an empty or unreadable input. Errors read
/// `error: 'PATH' is not a source file (a directory)`, like graphify-lint's.
llvm::Error checkModelFile(const std::string &Path);

/// Parses `Opts.Path` (after checkModelFile); errors carry the compiler's messages, or the
/// rule-pack loader's.
llvm::Expected<ModelInfo> loadModel(const ModelLoadOptions &Opts);

/// Clang's resource directory: `$GRAPHIFY_CLANG_RESOURCE_DIR` or the one baked at configure time.
std::string clangResourceDir();

} // namespace graphify::validate
