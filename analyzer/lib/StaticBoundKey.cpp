// Configuration keys of static bounds (StaticBoundKey.h): text only, no AST.
#include "graphify/analyzer/StaticBoundKey.h"
#include "graphify/analyzer/GraphRegions.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>

namespace graphify {
namespace {

bool isIdentifier(llvm::StringRef S) {
  if (S.empty() || llvm::isDigit(S.front()))
    return false;
  return llvm::all_of(S, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

} // namespace

std::optional<StaticBound> parseStaticBoundKey(llvm::StringRef Key, std::string &Problem) {
  const size_t Sep = Key.rfind("::");
  if (Sep == llvm::StringRef::npos || Sep == 0) {
    Problem = "expected '<function>::<variable>' (a function glob such as 'decode' or '*::greedy', then the "
              "variable's name)";
    return std::nullopt;
  }
  StaticBound B;
  B.Function = Key.take_front(Sep).str();
  B.Name = Key.drop_front(Sep + 2).str();
  if (!isIdentifier(B.Name)) {
    Problem = "'" + B.Name + "' is not a variable name";
    return std::nullopt;
  }
  if (std::string Glob = GraphRegionFinder::globProblem(B.Function); !Glob.empty()) {
    Problem = "invalid function glob '" + B.Function + "': " + Glob;
    return std::nullopt;
  }
  return B;
}

} // namespace graphify
