#pragma once
/// \file
/// Scratch directories of a test binary: made under the system's temporary directory and removed,
/// with what the test wrote in them, when the binary exits (after a failed assertion too), so that
/// repeated test runs do not fill the temporary directory.

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>

#include <string>
#include <vector>

namespace graphify::testing {

/// A new, empty directory named after `Prefix`, or "" when none can be made.
inline std::string scratchDirectory(llvm::StringRef Prefix) {
  struct Registry {
    std::vector<std::string> Paths;
    ~Registry() {
      for (const std::string &P : Paths)
        llvm::sys::fs::remove_directories(P);
    }
  };
  static Registry Made;
  llvm::SmallString<256> Dir;
  if (llvm::sys::fs::createUniqueDirectory(Prefix, Dir))
    return "";
  Made.Paths.push_back(std::string(Dir));
  return std::string(Dir);
}

} // namespace graphify::testing
