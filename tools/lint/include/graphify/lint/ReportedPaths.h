#pragma once
/// \file
/// How graphify-lint names files in what it reports. Compile commands carry paths relative to
/// their own directory; readers of a report (text snippets, NOLINT, SARIF, --fix) need paths that
/// resolve from the user's working directory.
///
/// \code
///   std::string P = graphify::reportedPath("src/m.cpp", "/work/build", "/work"); // "/work/build/src/m.cpp"
///   if (graphify::sameFile(P, Other)) ...
/// \endcode

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace graphify {

/// A path as reported: relative paths are relative to the compile command's `Directory`; they
/// stay as written when that is the working directory `Cwd` (so `graphify-lint m.cpp` says
/// `m.cpp`), else become absolute.
std::string reportedPath(llvm::StringRef Path, llvm::StringRef Directory, llvm::StringRef Cwd);

/// Whether two paths name the same file (equal strings, or the same inode).
bool sameFile(llvm::StringRef A, llvm::StringRef B);

/// The process's working directory.
std::string currentDirectory();

/// `File` as an absolute path without `.` and `..` (relative names are `WorkingDir`'s, else the
/// process's).
std::string absoluteIn(llvm::StringRef File, llvm::StringRef WorkingDir);

/// The directory a project's headers are found under when the user names none: the nearest of
/// `Dir` and its ancestors that holds a version-control checkout (`.git`, `.hg`, `.svn`) or a
/// `.graphify.yaml`, else `Dir` itself. A file in `src/public/` calls helpers of `src/private/`.
std::string repositoryRoot(llvm::StringRef Dir);

/// The files under a project's root, asked once per file name: the analysis asks per
/// declaration, and LibTorch has tens of thousands. An empty root contains nothing.
class ProjectFiles {
public:
  ProjectFiles(std::string Root, std::string WorkingDir) : Root(std::move(Root)), WorkingDir(std::move(WorkingDir)) {}
  bool contains(llvm::StringRef File);

private:
  std::string Root, WorkingDir;
  llvm::StringMap<bool> Known;
};

} // namespace graphify
