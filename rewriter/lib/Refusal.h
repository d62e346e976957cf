#pragma once
/// \file
/// A rule that matched a shape but must not rewrite it says why with a RefusalError. The error
/// travels out of the Transformer stencil or edit generator that detected the problem, and the
/// rule runner turns it into `Finding::NoFixReason`; outputs print it after "no fix offered: ".
///
/// \code
///   if (auto Why = findSideEffect(Arm, Api))
///     return refuse("the else branch " + *Why);
/// \endcode

#include <llvm/Support/Error.h>

#include <string>

namespace graphify::rewriter {

/// Why a matched shape is not rewritten; the message is lowercase and has no "no fix: " prefix.
class RefusalError : public llvm::ErrorInfo<RefusalError> {
public:
  static char ID;
  explicit RefusalError(std::string Reason, bool OutOfScope = false)
      : Reason(std::move(Reason)), OutOfScope(OutOfScope) {}
  void log(llvm::raw_ostream &OS) const override { OS << Reason; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  const std::string &reason() const { return Reason; }
  /// The code is outside the shapes the rule covers (a method, a loop where straight-line code
  /// is covered), as opposed to a shape it covers that is unsafe to rewrite: the reason says
  /// what the rule handles, not what blocks the construct a finding is about.
  bool outOfScope() const { return OutOfScope; }

private:
  std::string Reason;
  bool OutOfScope;
};

/// Convenience: `return refuse("...")` from a stencil or predicate.
inline llvm::Error refuse(std::string Reason) {
  return llvm::make_error<RefusalError>(std::move(Reason));
}

/// `return refuseOutOfScope("'f' is a method ...")`: the rule does not cover this shape.
inline llvm::Error refuseOutOfScope(std::string Reason) {
  return llvm::make_error<RefusalError>(std::move(Reason), /*OutOfScope=*/true);
}

} // namespace graphify::rewriter
