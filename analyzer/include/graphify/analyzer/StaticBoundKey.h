#pragma once
/// \file
/// A configured static bound (StaticBounds.h) as the configuration writes it, `<function
/// glob>::<variable>: <bound>`. Apart from the AST half so that the configuration parser (and its
/// fuzz target, tests/fuzz) reads keys without Clang's AST.

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
#include <string>

namespace graphify {

/// One configured bound: the variable `Name` of every function whose qualified name matches the
/// glob `Function` is at most `Bound`.
struct StaticBound {
  std::string Function;
  std::string Name;
  int64_t Bound = 0;
};

/// Splits a configuration key `<function glob>::<variable>` into a bound (without its value), or
/// says why it is malformed.
std::optional<StaticBound> parseStaticBoundKey(llvm::StringRef Key, std::string &Problem);

} // namespace graphify
