// The rewriter's single door to API knowledge. Types and calls are resolved by the analyzer's
// ApiResolver (tensor classes through their bases, calls in every spelling), so the rewriter and
// the checks can never disagree about what a call is.
#include "ApiModel.h"
#include "ExprUtil.h"

#include "graphify/analyzer/Analysis.h"

using namespace clang;

namespace graphify::rewriter {

const ApiFlavor *ApiModel::tensorFlavor(QualType T) const { return Resolver.tensorFlavor(T); }

bool ApiModel::isLibraryDecl(const Decl *D) const { return Resolver.isLibraryDecl(D); }

bool ApiModel::isTensorExpr(const Expr *E) const {
  return E && isTensor(stripImplicit(E)->getType());
}

std::vector<const ApiEntry *> ApiModel::entriesFor(const Expr *Call) const {
  Call = stripAll(Call);
  // The copies clang wraps around a returned tensor hide the call; look through them first.
  for (const Expr *E : {skipValueWrappers(Call), Call})
    if (auto Resolved = Resolver.resolve(E); Resolved && !Resolved->Entries.empty())
      return Resolved->Entries;
  return {};
}

bool ApiModel::callHasTag(const Expr *Call, llvm::StringRef Tag) const {
  for (const ApiEntry *E : entriesFor(Call))
    if (E->hasTag(Tag))
      return true;
  return false;
}

std::string ApiModel::packRecipe(const Expr *Call) const {
  for (const ApiEntry *E : entriesFor(Call))
    if (!E->Recipe.empty())
      return E->Recipe;
  return "";
}

const CXXMemberCallExpr *ApiModel::elementRead(const Expr *E) const {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(stripAll(E));
  if (!MC || !MC->getType()->isArithmeticType())
    return nullptr;
  // `t.item().toFloat()`: the conversion's object is the Scalar that the read returned.
  if (callHasTag(MC, "scalar_conversion") && callArgs(MC).empty())
    if (const auto *Inner = dyn_cast<CXXMemberCallExpr>(stripAll(MC->getImplicitObjectArgument())))
      MC = Inner;
  if (!isTensor(MC->getImplicitObjectArgument()->getType()) || !callHasTag(MC, "data_dependent_output") ||
      !callArgs(MC).empty())
    return nullptr;
  return MC;
}

const Expr *ApiModel::argAt(const Expr *Call, unsigned Pos) const {
  Call = stripAll(Call);
  for (const Expr *E : {skipValueWrappers(Call), Call})
    if (auto Resolved = Resolver.resolve(E); Resolved && !Resolved->Entries.empty())
      return Resolved->arg(Pos);
  return nullptr;
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
