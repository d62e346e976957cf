#pragma once
/// \file
/// The shape of an `if` / `else if` / `else` chain as the where() rewrites see it: a list of
/// (condition, body) branches and an optional final else body.
///
/// \code
///   IfChain C = decomposeIfChain(If);
///   for (const IfChain::Branch &B : C.Branches) ... B.Cond ... B.Body
///   if (C.Else) ...
/// \endcode

#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/SmallVector.h>

#include <string>

namespace graphify::rewriter {

struct IfChain {
  struct Branch {
    const clang::IfStmt *If;
    const clang::Expr *Cond;
    const clang::Stmt *Body;
  };
  llvm::SmallVector<Branch, 2> Branches;
  const clang::Stmt *Else = nullptr;

  /// "then", "else-if" (with 1-based position when there are several) or "else", for messages.
  std::string armName(size_t BranchIndex) const;
};

/// Splits `If` and its `else if` continuations into branches.
IfChain decomposeIfChain(const clang::IfStmt *If);

/// The statements of a body: the compound's children, or the single statement.
llvm::SmallVector<const clang::Stmt *, 4> bodyStatements(const clang::Stmt *Body);

/// `return e;` or `{ return e; }` -> e; null otherwise.
const clang::Expr *soleReturnValue(const clang::Stmt *Body);

/// The condition of `if (c) break;` (or `if (c) { break; }`, no else), or null.
const clang::Expr *breakCondition(const clang::Stmt *S);

/// The conditions of the `if (c) break;` statements that leave `Loop` itself: in its body and
/// in the ifs of its body, not in nested loops or switches.
llvm::SmallVector<const clang::Expr *, 2> loopExitConditions(const clang::Stmt *Loop);

/// Whether a return statement occurs anywhere under `S` (not counting lambda bodies).
bool containsReturn(const clang::Stmt *S);

} // namespace graphify::rewriter
