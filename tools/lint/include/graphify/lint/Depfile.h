#pragma once
/// \file
/// `--depfile`: what a run's result depends on, as the Make rule GCC's `-MD` writes, so that a build
/// system (Ninja's `depfile`, CMake's `DEPFILE`) re-runs an extraction or a check exactly when one
/// of those files changes, headers included, without knowing how the unit includes them.
///
/// \code
///   std::set<std::string> Inputs = {"/src/nms.cpp", "/src/boxes.h"};
///   if (llvm::Error E = graphify::writeDepfile("nms.d", "nms.summary", Inputs)) ...
///   // nms.d:  nms.summary: /src/boxes.h \
///   //           /src/nms.cpp
/// \endcode

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <set>
#include <string>

namespace graphify {

/// `Target: Inputs...` with GCC's escapes (a space as `\ `, `#` as `\#`, `$` as `$$`), one input a
/// line.
std::string renderDepfile(llvm::StringRef Target, const std::set<std::string> &Inputs);

/// Writes renderDepfile's rule to `Path` (whole, through a rename; untouched when unchanged).
llvm::Error writeDepfile(llvm::StringRef Path, llvm::StringRef Target, const std::set<std::string> &Inputs);

} // namespace graphify
