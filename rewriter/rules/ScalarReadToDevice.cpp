// scalar-read-to-device:
//   x * y.max().item<float>()        ->  x * y.max().to(torch::kFloat)
// A host read whose only use is as the scalar operand of tensor arithmetic stays a 0-d tensor.
// Exact: LibTorch computes `tensor op scalar` and `tensor op 0-d tensor` in the same dtype (a
// 0-d operand does not promote a dimensioned one of the same category), and the 0-d value is
// converted to the read's type first, as item<float>() converts it (for a float64 `y` the
// rounding to float32 stays; for a float32 one the conversion does nothing). The receiver must provably hold one element
// (item() throws otherwise, broadcasting would not), and the read must be floating-point
// (item<int>() truncates).
#include "lib/ConditionLifting.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace matchers {
/// The value (through conversions to Scalar) is an operand of `+ - * /` whose other operand is a
/// tensor.
AST_MATCHER_P(Expr, feedsTensorArithmetic, const ApiModel *, Api) {
  return isTensorArithmeticOperand(&Node, *Api, Finder->getASTContext());
}
} // namespace matchers

NamedRewriteRule makeScalarReadToDeviceRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = cxxMemberCallExpr(isUserCode(), isHostScalarRead(A), feedsTensorArithmetic(A)).bind("read");
  auto Keep = computed([A](const MatchResult &R) -> llvm::Expected<std::string> {
    const auto *Read = R.Nodes.getNodeAs<CXXMemberCallExpr>("read");
    const Expr *Receiver = A->elementRead(Read)->getImplicitObjectArgument();
    const Stmt *Body = functionBody(enclosingFunction(Read, *R.Context));
    if (!Read->getType()->isFloatingType())
      return refuse("'" + sourceText(Read, *R.Context) + "' converts to an integer on the host, which "
                    "tensor arithmetic would not do");
    if (!isProvablySingleElement(Receiver, Body, *A))
      return refuse("cannot prove that '" + sourceText(Receiver, *R.Context) +
                    "' has a single element (item() would throw otherwise, tensor math would broadcast)");
    if (auto Why = findSideEffect(Receiver, *A, false, Evaluation::AsBefore))
      return refuse("the read value " + *Why);
    const auto *Builtin = Read->getType()->getAs<BuiltinType>();
    const char *Dtype = Builtin && Builtin->getKind() == BuiltinType::Float    ? "kFloat"
                        : Builtin && Builtin->getKind() == BuiltinType::Double ? "kDouble"
                                                                           : nullptr;
    if (!Dtype)
      return refuse("'" + sourceText(Read, *R.Context) + "' reads a floating type that has no tensor dtype");
    return sourceText(Receiver, *R.Context) + ".to(" + A->spellConstant(Receiver, Dtype) + ")";
  });
  return {"scalar-read-to-device",
          makeRule(Matcher, changeTo(node("read"), Keep),
                   cat("the scalar stays a 0-d tensor on the device instead of being copied to the host"))};
}

} // namespace graphify::rewriter
