// LintJob's helpers.
#include "graphify/lint/LintJob.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

namespace graphify {

std::string absoluteFile(llvm::StringRef File, llvm::StringRef Directory) {
  llvm::SmallString<256> Path(File);
  if (!llvm::sys::path::is_absolute(Path) && !Directory.empty()) {
    Path = Directory;
    llvm::sys::path::append(Path, File);
  }
  llvm::sys::path::remove_dots(Path, true);
  return std::string(Path);
}

} // namespace graphify
