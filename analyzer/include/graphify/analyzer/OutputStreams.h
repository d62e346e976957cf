#pragma once
/// \file
/// An output stream (std::ostream, std::ostringstream, their basic_ios base): what `<<` prints to.
/// A language fact shared by the checks (a size printed on the host) and the rewriter (a print is
/// host work, a side effect no arm may repeat).

#include <clang/AST/DeclCXX.h>
#include <clang/AST/Type.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace graphify {

inline bool isOutputStreamType(clang::QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  const std::string N = RD->getQualifiedNameAsString();
  return llvm::StringRef(N).contains("ostream") || llvm::StringRef(N).contains("basic_ios");
}

} // namespace graphify
