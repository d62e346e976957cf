// SharedPchPlan. Invariant: a job gets a PCH only when its own file would be parsed first after it
// (no forced include, its source found in its command), so a PCH never changes what a file means.
#include "graphify/lint/SharedPchPlan.h"
#include "graphify/lint/Preamble.h"

#include <llvm/Support/MemoryBuffer.h>

#include <map>
#include <mutex>
#include <optional>

namespace graphify {
namespace {

/// The command line without its source file, which a database may name differently in "file"
/// (absolute) and in the command (relative to "directory").
std::string commandWithoutFile(const std::vector<std::string> &CommandLine, const clang::tooling::CompileCommand &Cmd,
                               bool &Found) {
  std::string Key;
  Found = false;
  const std::string File = absoluteFile(Cmd.Filename, Cmd.Directory);
  for (size_t I = 0; I < CommandLine.size(); ++I) {
    if (I > 0 && !Found && !llvm::StringRef(CommandLine[I]).starts_with("-") &&
        absoluteFile(CommandLine[I], Cmd.Directory) == File) {
      Found = true;
      continue;
    }
    Key += CommandLine[I];
    Key += '\0';
  }
  return Key;
}

} // namespace

void planSharedPch(std::vector<LintJob> &Jobs, const LintOptions &O, llvm::ThreadPoolInterface *Pool) {
  struct Group {
    std::vector<size_t> Members;
    std::vector<std::vector<std::string>> Includes;
    std::vector<std::string> Flags;
    std::string WorkingDir;
    std::string Pch;
  };
  std::map<std::string, Group> Groups;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    LintJob &J = Jobs[I];
    const std::string AbsFile = absoluteFile(J.Command.Filename, J.Command.Directory);
    auto Buffer = llvm::MemoryBuffer::getFile(AbsFile);
    if (!Buffer)
      continue;
    std::vector<std::string> Includes = leadingIncludes((*Buffer)->getBuffer(), AbsFile);
    bool Found = false;
    std::string Flags = commandWithoutFile(J.CommandLine, J.Command, Found);
    // A forced include (-include, -imacros) or a PCH of the user's own comes before the file's
    // first line; ours would then not be the first thing parsed, so leave such files alone.
    bool Forced = llvm::any_of(J.CommandLine, [](llvm::StringRef A) {
      return A.starts_with("-include") || A.starts_with("-imacros") || A.starts_with("--include");
    });
    if (Includes.empty() || !Found || Forced)
      continue;
    Group &G = Groups[J.Command.Directory + '\0' + Flags + '\0' + Includes.front()];
    G.Members.push_back(I);
    G.Includes.push_back(std::move(Includes));
    if (G.Flags.empty()) {
      const std::string Source = absoluteFile(J.Command.Filename, J.Command.Directory);
      for (size_t A = 0; A < J.CommandLine.size(); ++A)
        if (A == 0 || llvm::StringRef(J.CommandLine[A]).starts_with("-") ||
            absoluteFile(J.CommandLine[A], J.Command.Directory) != Source)
          G.Flags.push_back(J.CommandLine[A]);
      G.WorkingDir = J.Command.Directory;
    }
  }
  PchCache Cache(O.PchCacheDir.empty() ? defaultPchCacheDir() : O.PchCacheDir);
  std::mutex Mu;
  auto build = [&](Group &G) {
    std::vector<std::string> Prefix = commonPrefix(G.Includes);
    // A file alone first takes what an earlier run left for a prefix of its includes (a
    // multi-file run's common prefix, say), and otherwise precompiles its own leading includes
    // for the runs after this one.
    if (G.Members.size() == 1)
      if (std::optional<std::string> Cached = Cache.lookup(G.Flags, Prefix)) {
        std::lock_guard<std::mutex> Lock(Mu);
        G.Pch = *Cached;
        return;
      }
    auto Pch = Cache.getOrBuild(G.Flags, G.WorkingDir, Prefix);
    if (!Pch) {
      // The files will be parsed on their own and any error in the prefix reported then.
      llvm::consumeError(Pch.takeError());
      return;
    }
    std::lock_guard<std::mutex> Lock(Mu);
    G.Pch = *Pch;
  };
  for (auto &[Key, G] : Groups) {
    if (Pool)
      Pool->async([&build, &G] { build(G); });
    else
      build(G);
  }
  if (Pool)
    Pool->wait();
  for (auto &[Key, G] : Groups)
    for (size_t I : G.Members)
      Jobs[I].Pch = G.Pch;
}

} // namespace graphify
