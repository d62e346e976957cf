#pragma once
/// \file
/// Small, AST-shape helpers shared by the rules and the safety predicates: looking through the
/// implicit nodes that LibTorch's value types add (temporaries, converting constructors), reading
/// source text, and finding the elements of a braced list argument (`{x.index({m}), ...}`).

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <llvm/ADT/SmallVector.h>

#include <llvm/ADT/STLFunctionalExtras.h>

#include <optional>
#include <string>
#include <utility>

namespace graphify::rewriter {

/// Strips implicit casts, temporaries, cleanups and implicit converting/copy constructors
/// (`Scalar(int)`, `TensorIndex(Tensor)`, `Tensor(const Tensor&)`), but not parentheses.
const clang::Expr *stripImplicit(const clang::Expr *E);
/// As stripImplicit, and also parentheses.
const clang::Expr *stripAll(const clang::Expr *E);

/// Whether `E` (stripped) is the integer constant `Value`; false for null.
bool isIntegerConstant(const clang::Expr *E, int64_t Value, const clang::ASTContext &Ctx);

/// The source text of a node as written (expansion range), or empty when not in a file.
std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// sourceText in single quotes, as messages name code.
std::string quotedSource(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// The line `S` begins on (its expansion), as text for messages.
std::string lineOf(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// The elements of a braced list passed as an argument (`torch::cat({a, b})`, `x.index({m})`),
/// each stripped; empty when `E` is not such a list.
llvm::SmallVector<const clang::Expr *, 4> bracedListElements(const clang::Expr *E);

/// Whether the argument `A` is left out (null, a default argument) or None (`c10::nullopt`).
bool isAbsent(const clang::Expr *A);

/// Whether `E` (stripped) is a name: a variable's, or a field of `*this` (`scale_`,
/// `this->scale_`), which reads the same object each time it is evaluated.
bool isPlainName(const clang::Expr *E);

/// The variable a (stripped) expression names, or null.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// The left side and value of the statement `lhs = value` (built-in or overloaded), or nothing.
std::optional<std::pair<const clang::Expr *, const clang::Expr *>> asAssignment(const clang::Stmt *S);

/// The callee's unqualified name for calls, member calls and operator calls (`operator>`), or "".
std::string calleeName(const clang::Expr *E);

/// The object a member call is made on (`x` in `x.sum()`), or the first argument of an operator
/// call, or null.
const clang::Expr *callObject(const clang::Expr *E);

/// The arguments of a call without the object (for member calls) as written.
llvm::SmallVector<const clang::Expr *, 4> callArgs(const clang::Expr *E);

/// The operands of an element-wise call: its object (callObject), if any, then callArgs.
llvm::SmallVector<const clang::Expr *, 4> callOperands(const clang::Expr *E);

/// An output stream (std::ostream, std::ostringstream, their basic_ios base): what `<<` prints to.
bool isOutputStreamType(clang::QualType T);

/// The first ancestor of `E` that is not a wrapper its value passes through unchanged (implicit
/// conversions, temporaries, parentheses, copies, cleanups): the return, declaration, assignment
/// or call that uses the value. Empty when there is none within a few levels.
clang::DynTypedNode userPastValueWrappers(const clang::Expr *E, clang::ASTContext &Ctx);

/// The local variable whose initialiser is `E` (through implicit conversions, parentheses and
/// static_casts: `int64_t i = t.item<int64_t>();`), or null; parameters are not locals here.
const clang::VarDecl *localInitialisedBy(const clang::Expr *E, clang::ASTContext &Ctx);

/// The statement directly in a block that contains `S` (through the declarations of a
/// DeclStmt: an initialiser's statement is its DeclStmt), and that block; nulls when none.
std::pair<const clang::Stmt *, const clang::CompoundStmt *> enclosingBlockStatement(const clang::Stmt *S,
                                                                                    clang::ASTContext &Ctx);

/// The function (or lambda body owner) that contains `S`, or null.
const clang::Decl *enclosingFunction(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The body of a function or lambda declaration found by enclosingFunction.
const clang::Stmt *functionBody(const clang::Decl *D);

/// The first expression under `S` (itself included, in source order, lambda bodies too) for
/// which `Pred` holds, or null.
const clang::Expr *findExpr(const clang::Stmt *S, llvm::function_ref<bool(const clang::Expr *)> Pred);

/// The function whose body is `Body` (a rule matched on function bodies), or null.
const clang::FunctionDecl *functionWithBody(const clang::Stmt *Body, clang::ASTContext &Ctx);

/// The text of a declaration as written (a parameter with its type), or empty inside a macro.
std::string declText(const clang::Decl &D, const clang::ASTContext &Ctx);

/// The if whose condition is `E` (through the conversions and operators above `E` inside that
/// condition), or null.
const clang::IfStmt *ifTesting(const clang::Expr *E, clang::ASTContext &Ctx);

/// The body of a loop statement (for, range-for, while, do), or null for anything else.
const clang::Stmt *loopBody(const clang::Stmt *S);

/// A host container one iterates (std::vector, std::string, a map: a `value_type` and `begin()`),
/// not a value type that only names its element type (OpenCV's Point_, Size_, Rect_, Scalar_):
/// a value stored in one of those is a host object, not a collection.
bool isIterableContainer(clang::QualType T);

} // namespace graphify::rewriter
