// The rewriter's single door to API knowledge. Type-to-flavor uses the RuleSet's tensor_types
// (checked against the canonical record and its bases, so `torch::Tensor`, an alias of
// `at::Tensor`, and user subclasses resolve); calls are looked up by method, function or
// operator form, exactly as the analysis does.
#include "ApiModel.h"
#include "ExprUtil.h"

#include "graphify/analyzer/Analysis.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

using namespace clang;

namespace graphify::rewriter {

static const ApiFlavor *flavorOfRecord(const RuleSet &Rules, const CXXRecordDecl *RD, int Depth = 0) {
  if (!RD || Depth > 8)
    return nullptr;
  if (const ApiFlavor *F = Rules.flavorOfTensorType(RD->getQualifiedNameAsString()))
    return F;
  if (!RD->hasDefinition())
    return nullptr;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const ApiFlavor *F = flavorOfRecord(Rules, B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return F;
  return nullptr;
}

const ApiFlavor *ApiModel::tensorFlavor(QualType T) const {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (Facts)
    if (const ApiFlavor *F = Facts->tensorFlavor(T))
      return F;
  return flavorOfRecord(Rules, T->getAsCXXRecordDecl());
}

bool ApiModel::isTensorExpr(const Expr *E) const {
  return E && isTensor(stripImplicit(E)->getType());
}

std::vector<const ApiEntry *> ApiModel::entriesFor(const Expr *Call) const {
  Call = stripAll(Call);
  if (Facts) {
    std::vector<const ApiEntry *> Known = Facts->entriesFor(Call);
    if (!Known.empty())
      return Known;
  }
  const auto *CE = dyn_cast<CallExpr>(Call);
  if (!CE)
    return {};
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return {};
  std::string Name = FD->getNameAsString();
  unsigned NumArgs = 0;
  for (const Expr *A : CE->arguments())
    NumArgs += !isa<CXXDefaultArgExpr>(A);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (!isTensor(MC->getImplicitObjectArgument()->getType()))
      return {};
    return Rules.lookupMethod(Name, NumArgs + 1);
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && isa<CXXOperatorCallExpr>(CE)) {
    // A member operator (`x += y`): the object is argument 0 already.
    if (!isTensor(MD->getThisType()->getPointeeType()))
      return {};
    return Rules.lookupMethod(Name, NumArgs);
  }
  std::vector<const ApiEntry *> Out = Rules.lookupFunction(FD->getQualifiedNameAsString(), NumArgs);
  if (Out.empty() && isa<CXXOperatorCallExpr>(CE) && NumArgs >= 1 && isTensor(CE->getArg(0)->getType()))
    Out = Rules.lookupMethod(Name, NumArgs);
  return Out;
}

bool ApiModel::callHasTag(const Expr *Call, llvm::StringRef Tag) const {
  for (const ApiEntry *E : entriesFor(Call))
    if (E->hasTag(Tag))
      return true;
  return false;
}

static const ApiFlavor *flavorOrFirst(const ApiModel &Api, const Expr *E) {
  if (E)
    if (const ApiFlavor *F = Api.tensorFlavor(stripImplicit(E)->getType()))
      return F;
  return Api.rules().flavors().empty() ? nullptr : &Api.rules().flavors().front();
}

std::string ApiModel::spell(const Expr *TensorExpr, llvm::StringRef Name) const {
  if (const ApiFlavor *F = flavorOrFirst(*this, TensorExpr))
    return Rules.spellFunction(*F, Name);
  return Name.str();
}

std::string ApiModel::spellConstant(const Expr *TensorExpr, llvm::StringRef Name) const {
  if (const ApiFlavor *F = flavorOrFirst(*this, TensorExpr))
    return F->Spelling + Name.str();
  return Name.str();
}

} // namespace graphify::rewriter
