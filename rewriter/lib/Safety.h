#pragma once
/// \file
/// The safety predicates every rewrite consults before it emits an edit. Each returns a reason
/// (lowercase, no "no fix: " prefix, ready to follow "the else branch ...") when the rewrite
/// would change what the program does, and nothing when it is safe. They are conservative:
/// when a property cannot be established, they refuse.
///
/// \code
///   if (auto Why = findSideEffect(ElseArm, Api))
///     return refuse("the else branch " + *Why);   // "the else branch calls 'add_', which changes state"
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <optional>
#include <string>

namespace graphify::rewriter {

/// Whether the code being judged ran on every execution in the original too (the mask of a
/// masked reduction, the receiver of a host read), or only on some (an arm of an if, code after
/// an early exit). Only in the second case do ops that raise on values or draw random numbers
/// change what the program does when they now run every time.
enum class Evaluation { Conditional, AsBefore };

/// Why evaluating `S` unconditionally (as both arms of a where() are) could change state or
/// behaviour: in-place tensor calls, assignments, increments, I/O, `throw`, host reads (which
/// throw on the side not taken), calls not known to be pure, and — for code that ran only on
/// some paths — ops that raise on values or draw random numbers (valueHazard). Null when it is
/// side-effect free. `AllowHostReads` accepts item()-like reads (for conditions, whose reads
/// the rewrite lifts).
std::optional<std::string> findSideEffect(const clang::Stmt *S, const ApiModel &Api,
                                          bool AllowHostReads = false,
                                          Evaluation Ran = Evaluation::Conditional);

/// Why running the call where the original did not could change behaviour although it has no
/// side effect: it raises for some input values (rule-pack tag raises_on_values; indexing only
/// with integer index tensors) or draws random numbers (tag random). Null otherwise.
std::optional<std::string> valueHazard(const clang::Expr *Call, const ApiModel &Api);

/// The purity summary of a function the user wrote (or a library forwarder `{ return f(...); }`
/// such as a module holder's operator()): null when its body is side-effect free by the rules of
/// findSideEffect, with writes to its own by-value locals allowed; else why not ("writes the
/// field 'w' (line 12)"), or an empty string when its body is not available. Memoised per TU.
/// A callee that may raise on values or draw random numbers is impure here whatever the
/// caller's context (the summary does not depend on it).
std::optional<std::string> calleeImpurity(const clang::FunctionDecl *FD, const ApiModel &Api);

/// Whether `E` is a full reduction of a tensor with no other argument (`x.sum()`,
/// `torch::max(x)`; tag full_reduction).
bool isFullReduction(const clang::Expr *E, const ApiModel &Api);

/// Whether `E` provably holds exactly one element: a full reduction (`x.sum()`, `x.max()`,
/// `x.all()`), element-wise math of such values and host numbers (`m + 1`), or a local
/// initialised by one and never reassigned in `Body`.
bool isProvablySingleElement(const clang::Expr *E, const clang::Stmt *Body, const ApiModel &Api);

/// Whether `E` is provably a boolean tensor: a comparison or logical op (bool_output), a
/// negation or conjunction of such, or a local initialised by one. Unknown means no.
bool isProvablyBoolean(const clang::Expr *E, const ApiModel &Api);

/// Whether the tensor `E` provably holds integers or booleans, so that `.to(kLong)` reads it as
/// `item<int64_t>()` does on every value (for a floating tensor they differ on NaN, infinities
/// and values beyond int64: item() raises c10::Error, the conversion wraps): an index or a
/// boolean result (tags long_output, bool_output), a full reduction or an elements-preserving
/// call of such a tensor, or a local initialised once to one.
bool isProvablyIntegral(const clang::Expr *E, const clang::Stmt *Body, const ApiModel &Api);
/// Whether `E` holds int64 positions whatever its inputs' values: a call tagged long_output
/// (argmax, argsort), the indices of a (values, indices) pair (indices_second), elements, a view
/// or a layout change of one (they keep the dtype), or a local initialised once to one.
bool isProvablyLong(const clang::Expr *E, const clang::Stmt *Body, const ApiModel &Api);

/// Why two tensor arms cannot be merged into one where(): one is not a tensor, their statically
/// known shapes differ (a full reduction against a full-size tensor), their dtypes differ
/// (a mask against a number), or they are element-wise computations of different tensors
/// (locals assigned once followed to what they compute). Arms the sketch cannot follow (a
/// helper's result, matmul) are accepted (docs/rewrites.md, known limits).
std::optional<std::string> armsIncompatible(const clang::Expr *A, const clang::Expr *B,
                                            const ApiModel &Api, clang::ASTContext &Ctx);

/// The same for an arm and the value the variable `V` holds at `At` (the if), which a one-armed
/// if keeps on the other side: `r = x; if (c) r = y * 2;` selects between `y * 2` and `x`.
std::optional<std::string> armAndValueBeforeIncompatible(const clang::Expr *A, const clang::VarDecl *V,
                                                         const clang::Stmt *At, const ApiModel &Api,
                                                         clang::ASTContext &Ctx);

/// The same for the masked update `V = A` of a loop, where(active, A, V): `A` against the value
/// `V` holds before `Loop`; `A` may read `V` itself (a recurrence), which then stands for that
/// value. A value whose shape depends on tensor values (a selection) conflicts with any other.
std::optional<std::string> loopUpdateIncompatible(const clang::Expr *A, const clang::VarDecl *V,
                                                  const clang::Stmt *Loop, const ApiModel &Api,
                                                  clang::ASTContext &Ctx);

/// Whether the boolean tensor `Mask` provably has the shape of `Target`: it is (or is a local
/// initialised once to) an element-wise comparison or logical op whose tensor operand is the
/// same variable as `Target` (`x > 0`, `~(x == 0)`).
bool maskHasShapeOf(const clang::Expr *Mask, const clang::Expr *Target, const clang::Stmt *Body,
                    const ApiModel &Api);

/// Why giving `V` a where() after `At` (an if, or a loop whose updates are masked) could change
/// results through shared storage: in the original, `V` may afterwards still be a tensor it shares
/// with another variable, a parameter's caller or a field (its value on a path that does not
/// assign it, or a value that is a view: `auto v = x;`, `v = x.view(...)`), while where() makes
/// it a new tensor; so an in-place write after `At` (or in a loop around it) through either no
/// longer reaches the other. Null when `V` holds new tensors on every path, or nothing that can
/// reach it is written in place. Flow-insensitive and conservative (SafetyAliasing.cpp).
std::optional<std::string> storageSharingLost(const clang::VarDecl *V, const clang::Stmt *At,
                                              const clang::Stmt *Body, const ApiModel &Api,
                                              clang::ASTContext &Ctx);

/// The same for a value being replaced by a where() (a conditional operator `c ? t : u`, whose
/// result is `t` itself): refused when an arm may share storage with another tensor, the value is
/// kept (in a variable, or somewhere the analysis cannot follow) and an in-place write after it
/// can reach either. A value returned, or consumed by an op that makes a new tensor, is not kept.
std::optional<std::string> storageSharingLostByValue(const clang::Expr *Value, const clang::Stmt *Body,
                                                     const ApiModel &Api, clang::ASTContext &Ctx);

/// The call a call operator forwards to when its body is `{ return f(...); }` (a module
/// holder's `block(x)` calls the module's forward()), or null.
const clang::CallExpr *forwardedCall(const clang::FunctionDecl *FD);

/// Whether `Var` is assigned (or has its address or a non-const reference taken) anywhere in
/// `Body` other than its declaration.
bool isReassigned(const clang::VarDecl *Var, const clang::Stmt *Body);

/// Every expression in `Body` that names `Var`.
llvm::SmallVector<const clang::DeclRefExpr *, 4> usesOf(const clang::VarDecl *Var, const clang::Stmt *Body);

} // namespace graphify::rewriter
