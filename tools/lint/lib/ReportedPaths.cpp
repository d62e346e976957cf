// Path naming for reports. Invariant: a reported path is either as the user wrote it (relative to
// their working directory) or absolute, never relative to some other directory.
#include "graphify/lint/ReportedPaths.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace graphify {

std::string reportedPath(llvm::StringRef Path, llvm::StringRef Directory, llvm::StringRef Cwd) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path) || Directory.empty() || Directory == Cwd)
    return Path.str();
  llvm::SmallString<256> Abs(Directory);
  llvm::sys::path::append(Abs, Path);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

bool sameFile(llvm::StringRef A, llvm::StringRef B) {
  if (A == B)
    return true;
  bool Equal = false;
  return !llvm::sys::fs::equivalent(A, B, Equal) && Equal;
}

std::string currentDirectory() {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  return std::string(Cwd);
}

std::string absoluteIn(llvm::StringRef File, llvm::StringRef WorkingDir) {
  llvm::SmallString<256> Path(File);
  if (!llvm::sys::path::is_absolute(Path)) {
    Path = WorkingDir.empty() ? currentDirectory() : WorkingDir.str();
    llvm::sys::path::append(Path, File);
  }
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

std::string repositoryRoot(llvm::StringRef Dir) {
  for (llvm::StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D))
    for (const char *Marker : {".git", ".hg", ".svn", ".graphify.yaml"}) {
      llvm::SmallString<256> Candidate(D);
      llvm::sys::path::append(Candidate, Marker);
      if (llvm::sys::fs::exists(Candidate))
        return D == "/" ? Dir.str() : D.str();
    }
  return Dir.str();
}

bool ProjectFiles::contains(llvm::StringRef File) {
  auto [It, New] = Known.try_emplace(File, false);
  if (New && !Root.empty()) {
    std::string Abs = absoluteIn(File, WorkingDir);
    It->second = llvm::StringRef(Abs).starts_with(Root) &&
                 (Abs.size() == Root.size() || Abs[Root.size()] == '/' || Root.back() == '/');
  }
  return It->second;
}

} // namespace graphify
