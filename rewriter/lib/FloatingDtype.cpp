#include "FloatingDtype.h"

#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// The enumeration `T` is, when it is c10's dtype enumeration (`c10::ScalarType`), else null.
const EnumDecl *scalarTypeEnum(QualType T) {
  const auto *ET = T.getNonReferenceType().getCanonicalType()->getAs<EnumType>();
  return ET && ET->getDecl()->getName() == "ScalarType" ? ET->getDecl() : nullptr;
}

/// Whether `T` only says where a tensor goes (a device, its type, non_blocking): a transfer
/// given only such arguments keeps the dtype.
bool onlyPlacesTensor(QualType T) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (T->isBooleanType())
    return true;
  const NamedDecl *D = T->getAsTagDecl();
  return D && (D->getName() == "Device" || D->getName() == "DeviceType");
}

class FloatingProof {
public:
  FloatingProof(const Stmt *Body, const ApiModel &Api, ASTContext &Ctx) : Body(Body), Api(Api), Ctx(Ctx) {}

  bool floating(const Expr *E, int Depth = 0) const {
    if (!E || Depth > 12)
      return false;
    const Expr *S = stripAll(E);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getNumArgs() == 2 && isArithmetic(OC)) {
      if (Api.callHasTag(OC, "floating_output"))
        return true;
      return llvm::any_of(OC->arguments(), [&](const Expr *A) { return floatingOperand(A, Depth); });
    }
    if (isa<CallExpr>(S))
      return floatingCall(S, Depth);
    if (const VarDecl *V = referencedVar(S); V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
                                             !V->getType()->isReferenceType() && !isReassigned(V, Body))
      return floating(V->getInit(), Depth + 1);
    return false;
  }

private:
  const Stmt *Body;
  const ApiModel &Api;
  ASTContext &Ctx;

  static bool isArithmetic(const CXXOperatorCallExpr *OC) {
    OverloadedOperatorKind K = OC->getOperator();
    return K == OO_Plus || K == OO_Minus || K == OO_Star || K == OO_Slash;
  }

  /// An operand of `+ - *` that makes the result floating: a floating tensor or host number.
  bool floatingOperand(const Expr *A, int Depth) const {
    if (Api.isTensorExpr(A))
      return floating(A, Depth + 1);
    return stripAll(A)->getType()->isRealFloatingType();
  }

  bool floatingCall(const Expr *Call, int Depth) const {
    if (Api.callHasTag(Call, "bool_output") || Api.callHasTag(Call, "long_output"))
      return false;
    // A dtype among the arguments decides (`x.toType(torch::kLong)`, `zeros_like(x, kFloat)`,
    // `x.sum(torch::kLong)`); options or an optional that may hold one leave it unknown.
    for (const Expr *A : callArgs(Call)) {
      if (isAbsent(A))
        continue;
      if (scalarTypeEnum(stripAll(A)->getType()))
        return isFloatingScalarType(stripAll(A), Ctx);
      const NamedDecl *D = stripAll(A)->getType()->getAsTagDecl();
      if (D && (D->getName() == "TensorOptions" || D->getName() == "optional"))
        return false;
    }
    if (Api.callHasTag(Call, "floating_output"))
      return true;
    const Expr *Self = Api.argAt(Call, 0);
    if (!Self || !Api.isTensorExpr(Self))
      return false;
    if (Api.callHasTag(Call, "device_transfer")) {
      bool Placement = true;
      for (const Expr *A : callArgs(Call))
        Placement &= isAbsent(A) || onlyPlacesTensor(stripAll(A)->getType());
      return Placement && floating(Self, Depth + 1);
    }
    const bool KeepsDtype = Api.callHasTag(Call, "keeps_dtype") || Api.callHasTag(Call, "same_elements") ||
                            Api.callHasTag(Call, "elementwise") || Api.callHasTag(Call, "full_reduction") ||
                            Api.callHasTag(Call, "along_dims");
    return KeepsDtype && Api.callHasTag(Call, "pure") && floating(Self, Depth + 1);
  }
};

} // namespace

bool isFloatingScalarType(const Expr *E, const ASTContext &Ctx) {
  const EnumDecl *Enum = scalarTypeEnum(E->getType());
  Expr::EvalResult Value;
  if (!Enum || !E->EvaluateAsRValue(Value, Ctx) || !Value.Val.isInt())
    return false;
  for (const EnumConstantDecl *C : Enum->enumerators())
    if (llvm::APSInt::isSameValue(C->getInitVal(), Value.Val.getInt())) {
      llvm::StringRef Name = C->getName();
      return Name == "Half" || Name == "Float" || Name == "Double" || Name == "BFloat16" ||
             Name.starts_with("Float8");
    }
  return false;
}

bool isProvablyFloating(const Expr *E, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx) {
  return FloatingProof(Body, Api, Ctx).floating(E);
}

} // namespace graphify::rewriter
