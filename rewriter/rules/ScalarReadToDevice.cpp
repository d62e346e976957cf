// scalar-read-to-device:
//   x * y.max().item<float>()        ->  x * y.max().to(torch::kFloat)
//   float s = y.max().item<float>();  ->  auto s = y.max().to(torch::kFloat);   (every use of s
//   x / s + z * s                          x / s + z * s                        is such an operand)
// A host read whose only use is as the scalar operand of tensor arithmetic stays a 0-d tensor;
// so does a local initialised with one that is used only that way (a scale, a norm, a max kept
// in a named variable), converted to the local's own type as the initialisation converts it.
// Exact: LibTorch computes `tensor op scalar` and `tensor op 0-d tensor` in the same dtype (a
// 0-d operand does not promote a dimensioned one of the same category), and the 0-d value is
// converted to the read's type first, as item<float>() converts it (for a float64 `y` the
// rounding to float32 stays; for a float32 one the conversion does nothing). The receiver must provably hold one element
// (item() throws otherwise, broadcasting would not), and the read must be floating-point
// (item<int>() truncates). A double read stays a float64 0-d tensor only beside tensors proven
// floating (lib/FloatingDtype.h): beside an integer tensor it would make the result float64,
// where the host number leaves it in the default dtype.
#include "lib/ConditionLifting.h"
#include "lib/FloatingDtype.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Tooling/Transformer/SourceCode.h>

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

/// The local whose whole initialiser the read is (`float s = y.max().item<float>();`, the only
/// declaration of its statement), when it is read (at least once) only as the scalar operand of
/// tensor arithmetic: never written again nor its address taken, so a 0-d tensor in its place
/// computes the same wherever it is read. Null otherwise: a local used another way is not this
/// rule's (no refusal: other rules or the advice say what its other uses need).
const VarDecl *localReadOnlyByTensorArithmetic(const Expr *Read, const ApiModel &Api, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*Read);
  for (int Depth = 0; Depth < 6; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.size() != 1)
      return nullptr;
    N = Parents[0];
    if (const auto *E = N.get<Expr>(); E && (isa<ImplicitCastExpr, ExprWithCleanups, MaterializeTemporaryExpr,
                                                 CXXBindTemporaryExpr, ConstantExpr>(E)))
      continue;
    const auto *V = N.get<VarDecl>();
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
        V->getInit()->IgnoreImplicit() != Read)
      return nullptr;
    auto Stmts = Ctx.getParents(*V);
    const auto *DS = Stmts.size() == 1 ? Stmts[0].get<DeclStmt>() : nullptr;
    const Stmt *Body = functionBody(enclosingFunction(Read, Ctx));
    if (!DS || !DS->isSingleDecl() || !Body)
      return nullptr;
    auto Uses = usesOf(V, Body);
    bool OnlyArithmetic = !Uses.empty() && llvm::all_of(Uses, [&](const DeclRefExpr *Ref) {
      return isTensorArithmeticOperand(Ref, Api, Ctx);
    });
    return OnlyArithmetic ? V : nullptr;
  }
  return nullptr;
}

AST_MATCHER_P(Expr, initialisesLocalReadByTensorArithmetic, const ApiModel *, Api) {
  return localReadOnlyByTensorArithmetic(&Node, *Api, Finder->getASTContext()) != nullptr;
}
} // namespace matchers

namespace {

/// Why a double read cannot be a float64 0-d tensor beside the tensor operands of its `Uses`:
/// a float64 0-d tensor promotes an integer tensor to float64, where the host number leaves the
/// result in the default dtype (float32); beside a floating tensor both compute in its dtype.
std::optional<std::string> doubleReadObstacle(const Expr *Read, llvm::ArrayRef<const Expr *> Uses,
                                              const ApiModel &Api, ASTContext &Ctx) {
  const Stmt *Body = functionBody(enclosingFunction(Read, Ctx));
  for (const Expr *Use : Uses) {
    const Expr *Partner = tensorArithmeticPartner(Use, Api, Ctx);
    if (!Partner || !isProvablyFloating(Partner, Body, Api, Ctx))
      return "'" + sourceText(Use, Ctx) + "' is a double and '" + (Partner ? sourceText(Partner, Ctx) : "?") +
             "' is not known to be floating-point: as a float64 0-d tensor the read would make an integer '" +
             (Partner ? sourceText(Partner, Ctx) : "?") + "' compute in float64, where the host number leaves it "
             "in the default dtype, float32 (read it with item<float>() if float32 is meant)";
  }
  return std::nullopt;
}

/// Why the read `Read`, converted to `Type` and used as the scalar operand at each of `Uses`,
/// cannot stay a 0-d tensor of that type, or the tensor expression that keeps it
/// (`y.max().to(torch::kFloat)`).
llvm::Expected<std::string> deviceForm(const CXXMemberCallExpr *Read, QualType Type,
                                       llvm::ArrayRef<const Expr *> Uses, const ApiModel &Api, ASTContext &Ctx) {
  const Expr *Receiver = Api.elementRead(Read)->getImplicitObjectArgument();
  const Stmt *Body = functionBody(enclosingFunction(Read, Ctx));
  if (!Read->getType()->isFloatingType() || !Type->isFloatingType())
    return refuse("'" + sourceText(Read, Ctx) + "' converts to an integer on the host, which "
                  "tensor arithmetic would not do");
  if (auto Why = findSideEffect(Receiver, Api, false, Evaluation::AsBefore))
    return refuse("the read value " + *Why);
  const auto *Builtin = Type->getAs<BuiltinType>();
  const char *Dtype = Builtin && Builtin->getKind() == BuiltinType::Float    ? "kFloat"
                      : Builtin && Builtin->getKind() == BuiltinType::Double ? "kDouble"
                                                                         : nullptr;
  if (!Dtype)
    return refuse("'" + sourceText(Read, Ctx) + "' reads a floating type that has no tensor dtype");
  if (Builtin->getKind() == BuiltinType::Double)
    if (auto Why = doubleReadObstacle(Read, Uses, Api, Ctx))
      return refuse(*Why);
  // A receiver not proven to hold one element is reshaped to 0-d: it throws where item() would,
  // and tensor math does not broadcast with it as it would with a one-element tensor of rank 1.
  return liftedReceiverText(Receiver, Body, Api, Ctx) + ".to(" + Api.spellConstant(Receiver, Dtype) + ")";
}

} // namespace

NamedRewriteRule makeScalarReadToDeviceRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Inline = cxxMemberCallExpr(isUserCode(), isHostScalarRead(A), feedsTensorArithmetic(A)).bind("read");
  auto Keep = computed([A](const MatchResult &R) -> llvm::Expected<std::string> {
    const auto *Read = R.Nodes.getNodeAs<CXXMemberCallExpr>("read");
    return deviceForm(Read, Read->getType(), {Read}, *A, *R.Context);
  });
  // `float s = y.max().item<float>();` read only by tensor arithmetic: the declaration becomes
  // the tensor's, from its first token to the end of the initialiser.
  auto Local = cxxMemberCallExpr(isUserCode(), isHostScalarRead(A), initialisesLocalReadByTensorArithmetic(A))
                   .bind("read");
  auto Declaration = [A](const MatchResult &R) -> llvm::Expected<CharSourceRange> {
    const auto *Read = R.Nodes.getNodeAs<CXXMemberCallExpr>("read");
    const VarDecl *V = localReadOnlyByTensorArithmetic(Read, *A, *R.Context);
    const auto *DS = R.Context->getParents(*V)[0].get<DeclStmt>();
    std::optional<CharSourceRange> Range =
        tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(DS->getBeginLoc(), Read->getEndLoc()), *R.Context);
    if (!Range)
      return refuse("'" + V->getNameAsString() + "' is declared inside a macro");
    return *Range;
  };
  auto KeepLocal = computed([A](const MatchResult &R) -> llvm::Expected<std::string> {
    const auto *Read = R.Nodes.getNodeAs<CXXMemberCallExpr>("read");
    const VarDecl *V = localReadOnlyByTensorArithmetic(Read, *A, *R.Context);
    llvm::SmallVector<const Expr *, 4> Uses;
    for (const DeclRefExpr *Use : usesOf(V, functionBody(enclosingFunction(Read, *R.Context))))
      Uses.push_back(Use);
    auto Form = deviceForm(Read, V->getType().getNonReferenceType().getUnqualifiedType(), Uses, *A, *R.Context);
    if (!Form)
      return Form.takeError();
    return "auto " + V->getNameAsString() + " = " + *Form;
  });
  const char *Why = "the scalar stays a 0-d tensor on the device instead of being copied to the host";
  return {"scalar-read-to-device",
          applyFirst({makeRule(Inline, changeTo(node("read"), Keep), cat(Why)),
                      makeRule(Local, changeTo(Declaration, KeepLocal), cat(Why))})};
}

} // namespace graphify::rewriter
