#pragma once
/// \file
/// LiftConditionToTensor: turns a host condition computed from tensor values into the same
/// condition as a 0-d boolean tensor, so that where() can select on the device.
///
/// \code
///   x.sum().item<float>() > 0            ->  x.sum() > 0
///   x.all().item<bool>()                 ->  x.all()
///   !(a.max().item<float>() > 1)         ->  torch::logical_not(a.max() > 1)
///   c1 && c2                             ->  torch::logical_and(c1', c2')
///   eos != -1 && t.item<int64_t>() == eos  ->  (eos != -1 ? t == eos : <false 0-d on t's device>)
///   float s = x.sum().item<float>(); if (s > 0)   ->  auto s = x.sum(); ... s > 0
/// \endcode
///
/// Lifting preserves the comparison exactly: the device compares in float32, so host constants
/// must be exactly representable in float32, host variables must be float or integer (a double
/// would be rounded), and every item() receiver must provably hold one element (item() would
/// throw otherwise, where() would broadcast instead).

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/Tooling/Transformer/RangeSelector.h>
#include <clang/Tooling/Transformer/RewriteRule.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace graphify::rewriter {

/// Where a condition is lifted: the function body (for use and reassignment queries) and the
/// statement that owns the condition (every use of a lifted local must lie inside it).
struct LiftScope {
  const clang::Stmt *Body = nullptr;
  const clang::Stmt *Owner = nullptr;
  /// An integer read (`tok.item<int64_t>()`) of a tensor not proven to hold integers becomes the
  /// tensor converted as the read converts it (`.to(torch::kLong)`, truncation toward zero);
  /// without it such a read is refused. The masked loop asks for it. (A read of a tensor not
  /// proven to hold one element becomes the tensor reshaped to 0-d in every scope: see
  /// liftedReceiverText.)
  bool ConvertIntegerReads = false;
};

/// The tensor a lifted read of `Receiver` stands for: `Receiver` itself when it provably holds one
/// element, else `Receiver.reshape({})`, which throws exactly where the read would (on any other
/// element count) and keeps the lifted condition 0-d, so where() does not broadcast with it.
std::string liftedReceiverText(const clang::Expr *Receiver, const clang::Stmt *Body, const ApiModel &Api,
                               clang::ASTContext &Ctx);

/// The ATen dtype constant (`kLong`, `kInt`, ...) of a signed integer host type of 8 to 64 bits
/// or `uint8_t`, or nullopt (bool, other unsigned types: no dtype converts as they do).
std::optional<std::string> integerDType(clang::QualType T, const clang::ASTContext &Ctx);

/// The tensor a lifted element read `Read` (`x.item<int64_t>()`) stands for: its receiver, reshaped
/// to 0-d where it is not proven to hold one element (liftedReceiverText), converted to the read's
/// integer type where it is not proven to hold indices (`.to(torch::kLong)`: the truncation toward
/// zero the read does). The lifts that prove both get the receiver as written.
std::string liftedReadText(const clang::Expr *Read, const clang::Stmt *Body, const ApiModel &Api,
                           clang::ASTContext &Ctx);

/// A condition as tensor code, plus the host locals that must become tensors for it to hold.
struct LiftedCondition {
  std::string Text;
  std::vector<const clang::VarDecl *> Locals;
};

/// Whether `E` (through conversions to Scalar) is an operand of tensor `+ - * /` whose other
/// operand is a tensor: a host value used there computes the same as a 0-d tensor.
bool isTensorArithmeticOperand(const clang::Expr *E, const ApiModel &Api, clang::ASTContext &Ctx);
/// The other operand (a tensor) of the tensor `+ - * /` that `E` is an operand of, or null.
const clang::Expr *tensorArithmeticPartner(const clang::Expr *E, const ApiModel &Api, clang::ASTContext &Ctx);

/// Lifts `Cond`, or fails with a RefusalError naming why it cannot be expressed as a tensor.
llvm::Expected<LiftedCondition> liftCondition(const clang::Expr *Cond, const LiftScope &Scope,
                                              const ApiModel &Api, clang::ASTContext &Ctx);

/// The edits that turn each lifted local's declaration into a tensor declaration
/// (`float s = x.sum().item<float>();` -> `auto s = x.sum();`).
llvm::Expected<llvm::SmallVector<clang::transformer::Edit, 1>>
liftedLocalEdits(const std::vector<const clang::VarDecl *> &Locals, const ApiModel &Api,
                 clang::ASTContext &Ctx);

/// The edits of a select rewrite: `Text` replaces what `Where` selects (replaceRange), then the
/// lifted `Locals` become tensor declarations (liftedLocalEdits). Refuses as either does.
llvm::Expected<llvm::SmallVector<clang::transformer::Edit, 1>>
selectEdits(const clang::ast_matchers::MatchFinder::MatchResult &R, const clang::transformer::RangeSelector &Where,
            std::string Text, const std::vector<const clang::VarDecl *> &Locals, const ApiModel &Api);

/// The tensor declaration a lifted local becomes, without its semicolon (`auto s = x.sum()`).
std::string liftedLocalDeclaration(const clang::VarDecl *V, const ApiModel &Api, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
