#pragma once
/// \file
/// Sharing one precompiled header between files that start with the same `#include` block.
/// LibTorch's `torch/torch.h` takes seconds to parse; a project's files all include it first, so
/// we precompile the common leading includes once per (flags, prefix) and parse each file with
/// `-include-pch`. The file's own `#include` lines then hit include guards and `#pragma once`,
/// so the AST, and hence every finding, is the same as without the PCH. Anything that does not
/// match exactly (different flags, a non-include line first, a stale PCH) falls back to plain
/// parsing.
///
/// \code
///   auto Includes = graphify::leadingIncludes(Text, "/src/model.cpp");
///   graphify::PchCache Cache(graphify::defaultPchCacheDir());
///   auto Pch = Cache.getOrBuild(CommandLine, WorkingDir, CommonIncludes);
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// The `#include` lines at the top of a source, before anything else but comments and blank
/// lines, normalised: `<x>` stays, `"x"` becomes `"<absolute path>"` when it resolves next to the
/// file (so that a header elsewhere can include it identically), else stays `"x"`.
std::vector<std::string> leadingIncludes(llvm::StringRef Text, llvm::StringRef File);

/// The longest common prefix of several include lists.
std::vector<std::string> commonPrefix(llvm::ArrayRef<std::vector<std::string>> Lists);

/// `$XDG_CACHE_HOME/graphify/pch`, else `$HOME/.cache/graphify/pch`, else the temp dir.
std::string defaultPchCacheDir();

/// A directory of PCHs keyed by a hash of the flags, the include lines, the contents of the
/// project headers they name and the tool version (docs/architecture.md, "The PCH cache"). It
/// outlives the process: later runs, and other processes, reuse what earlier ones built.
class PchCache {
public:
  explicit PchCache(std::string Dir) : Dir(std::move(Dir)) {}
  /// The PCH for these includes compiled with `CommandLine`'s flags, building it (atomically:
  /// temp file + rename) when absent.
  llvm::Expected<std::string> getOrBuild(const std::vector<std::string> &CommandLine, llvm::StringRef WorkingDir,
                                         llvm::ArrayRef<std::string> Includes);
  /// The cached PCH of the longest prefix of `Includes` built with `CommandLine`'s flags (by an
  /// earlier run or process), without building anything.
  std::optional<std::string> lookup(const std::vector<std::string> &CommandLine,
                                    llvm::ArrayRef<std::string> Includes) const;
  /// Removes a PCH that Clang refused (a header changed since it was built).
  void discard(llvm::StringRef PchFile);
  /// The key's hash: flags (without the source file), include lines, direct headers' contents.
  static std::string key(const std::vector<std::string> &CommandLine, llvm::ArrayRef<std::string> Includes);

private:
  std::string Dir;
};

} // namespace graphify
