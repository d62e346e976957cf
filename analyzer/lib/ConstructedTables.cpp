// Host tables filled by constructors, told from host tensors the region fills: where the factory
// sits, and whether any other method writes the field.
#include "ConstructedTables.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

namespace graphify {

using namespace clang;

/// The field of `this` that `E` reads, through the objects of the calls on it (`t[0]`,
/// `t.narrow(...)`, `t.select(0, i)`), or null.
static const FieldDecl *rootField(const Expr *E, const ApiResolver &Api) {
  for (unsigned Depth = 0; E && Depth < 6; ++Depth) {
    E = skipValueWrappers(E);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ? dyn_cast<FieldDecl>(ME->getMemberDecl())
                                                                    : nullptr;
    const auto *Call = dyn_cast<CallExpr>(E);
    auto C = Call ? Api.resolve(Call) : std::nullopt;
    if (!C || C->Args.empty() || !Api.isTensor(C->Args[0]->getType()))
      return nullptr;
    E = C->Args[0];
  }
  return nullptr;
}

/// The function whose body holds `E`, or null for a default member initialiser (or a global's).
static const FunctionDecl *enclosingFunction(const Expr &E, ASTContext &Ast, bool &InFieldInit) {
  DynTypedNodeList Parents = Ast.getParents(E);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 256; ++Depth) {
    if (const auto *FD = Parents[0].get<FunctionDecl>())
      return FD;
    if (Parents[0].get<FieldDecl>()) {
      InFieldInit = true;
      return nullptr;
    }
    Parents = Ast.getParents(Parents[0]);
  }
  return nullptr;
}

/// Whether `S` (a method's body) rebinds `F` or writes it in place: `F = x`, `F.add_(y)`,
/// `F[i] = v`, `F.index_put_(...)` (the packs' `in_place`).
static bool writesField(const Stmt *S, const FieldDecl *F, const ApiResolver &Api) {
  if (!S)
    return false;
  auto Names = [&](const Expr *E) { return E && rootField(E, Api) == F; };
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Names(BO->getLHS()))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->isAssignmentOp() && Names(Op->getArg(0)))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (auto C = Api.resolve(Call); C && !C->Args.empty() && Api.isTensor(C->Args[0]->getType()) &&
                                    C->hasTag("in_place") && Names(C->Args[0]))
      return true;
  for (const Stmt *Child : S->children())
    if (writesField(Child, F, Api))
      return true;
  return false;
}

bool readsConstructedTable(const Expr *Object, const Expr *Origin, const FunctionDecl &Current, const ApiResolver &Api,
                           ASTContext &Ast) {
  if (!Object || !Origin || isa<CXXConstructorDecl>(Current))
    return false;
  const FieldDecl *F = rootField(Object, Api);
  if (!F)
    return false;
  bool InFieldInit = false;
  const FunctionDecl *Built = enclosingFunction(*Origin, Ast, InFieldInit);
  if (!InFieldInit && !isa_and_nonnull<CXXConstructorDecl>(Built))
    return false;
  const auto *Class = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!Class)
    return false;
  for (const CXXMethodDecl *M : Class->methods()) {
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(M) || !M->hasBody(Def))
      continue;
    if (writesField(Def->getBody(), F, Api))
      return false;
  }
  return true;
}

} // namespace graphify
