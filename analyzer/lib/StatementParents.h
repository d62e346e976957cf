#pragma once
/// \file
/// Walking up from a statement to the blocks and branches that hold it, as the checks that decide
/// by context do (IdleGuards, RelaxedThreadMode). A call in a variable's initialiser
/// (`cudaError_t e = cudaMalloc(...);`) has the VarDecl as its AST parent, not a statement: the
/// walk steps over it to the declaration statement.
///
/// \code
///   for (auto N = statementParent(DynTypedNode::create(S), Ast); N; N = statementParent(*N, Ast))
///     if (const auto *Block = N->get<clang::CompoundStmt>()) ...
/// \endcode

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ParentMapContext.h>

#include <optional>

namespace graphify {

/// The statement above `N`, stepping over variable declarations; none at the function (or a
/// field initialiser, a global's initialiser).
inline std::optional<clang::DynTypedNode> statementParent(const clang::DynTypedNode &N, clang::ASTContext &Ast) {
  clang::DynTypedNodeList Parents = Ast.getParents(N);
  if (Parents.empty())
    return std::nullopt;
  if (Parents[0].get<clang::VarDecl>())
    return statementParent(Parents[0], Ast);
  if (!Parents[0].get<clang::Stmt>())
    return std::nullopt;
  return Parents[0];
}

/// The outermost statement above `S`: the body of its function (or lambda's enclosing function).
inline const clang::Stmt *enclosingBody(const clang::Stmt &S, clang::ASTContext &Ast) {
  const clang::Stmt *Body = nullptr;
  for (auto N = statementParent(clang::DynTypedNode::create(S), Ast); N; N = statementParent(*N, Ast))
    Body = N->get<clang::Stmt>();
  return Body;
}

/// Whether `Inner` is `Outer` or a statement nested in it (the other way up: down the children).
inline bool containsStmt(const clang::Stmt *Outer, const clang::Stmt *Inner) {
  if (Outer == Inner)
    return true;
  for (const clang::Stmt *Child : Outer ? Outer->children() : clang::Stmt::const_child_range(nullptr, nullptr))
    if (Child && containsStmt(Child, Inner))
      return true;
  return false;
}

} // namespace graphify
