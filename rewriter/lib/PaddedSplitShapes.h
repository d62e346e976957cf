#pragma once
/// \file
/// The statement shapes the padded split recognises (`if (c) return v;`, pushes into a local
/// vector, a loop's counter, a returned tuple's elements) and the source text it copies.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/SmallVector.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphify::rewriter::padded_split {

/// The one statement of the then-branch of `if (c) s;` (braces allowed, no else, no init
/// statement, no condition variable), or null.
const clang::Stmt *soleThen(const clang::IfStmt *If);

/// `if (c) return v;`, or null.
const clang::ReturnStmt *guardReturn(const clang::IfStmt *If);

/// The first reference to each declaration in the statements [It, End), in the order of one
/// walk (the host parts' reads: the order of the core's outputs follows it).
std::vector<const clang::DeclRefExpr *> firstReferences(const clang::Stmt *const *It, const clang::Stmt *const *End);

/// `if (c) continue;`.
bool isContinueGuard(const clang::IfStmt *If);

/// The local vector `v` of `v.push_back(e)` or `v.emplace_back(e)` (one argument), or null.
const clang::VarDecl *pushInto(const clang::Stmt *S, const clang::Expr *&Value, std::string &Method);

/// The element type of a std::vector, or a null type.
clang::QualType vectorElementType(clang::QualType T);

/// The local vector `v` of `v[i] = e;` (an element rebound, `i` the variable `Index`), or null.
const clang::VarDecl *slotInto(const clang::Stmt *S, const clang::VarDecl *Index, const clang::Expr *&Value);

/// The counter a `for` declares (`for (int64_t i = 0; ...)`), or null.
const clang::VarDecl *loopCounter(const clang::ForStmt *For);

/// Why `E` (evaluated in the epilogue) may not see the values it names there: it reads a local
/// of the body, or a parameter the body assigns. Null when it reads only parameters the body
/// leaves alone, globals and constants; `Allowed` variables are supplied by the core.
std::optional<std::string> readsBodyState(const clang::Stmt *E, const clang::Stmt *Body,
                                          const std::map<const clang::ValueDecl *, unsigned> &Allowed);

/// The local or by-value parameter `v` of `v = e;` (a tensor assignment), or null.
const clang::VarDecl *assignedLocal(const clang::Stmt *S, const clang::Expr *&Value);

/// Whether a tuple, pair or vector type holds tensors only (what the split can return element
/// by element).
bool isTensorAggregate(clang::QualType T, const ApiModel &Api);

/// The elements of a returned tuple, pair or vector built in the return statement: a braced
/// list (`return {a, b};`), a constructor given the elements, or a standard-library maker
/// (`std::make_tuple(a, b)`). Empty when the value is built some other way (a local, a call).
llvm::SmallVector<const clang::Expr *, 4> returnedElements(const clang::Expr *V);

/// The source text of a whole statement: a statement that ends in an expression statement
/// (`x = 1`, `for (...) v.push_back(e)`) ends before its ';' in the AST, which this adds.
std::string statementText(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// The text of the file between two locations of `F`'s definition.
std::string textBetween(clang::SourceLocation B, clang::SourceLocation E, const clang::ASTContext &Ctx);

} // namespace graphify::rewriter::padded_split
