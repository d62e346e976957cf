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
  explicit RefusalError(std::string Reason) : Reason(std::move(Reason)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Reason; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  const std::string &reason() const { return Reason; }

private:
  std::string Reason;
};

/// Convenience: `return refuse("...")` from a stencil or predicate.
inline llvm::Error refuse(std::string Reason) {
  return llvm::make_error<RefusalError>(std::move(Reason));
}

} // namespace graphify::rewriter
