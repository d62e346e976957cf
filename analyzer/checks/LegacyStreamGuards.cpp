// Work made to run on the legacy default stream by a stream guard. Invariant: a statement runs on
// the legacy stream only when the nearest guard before it, within its own blocks, provably makes
// that stream current; a guard on a stream the analysis cannot name decides nothing.
#include "LegacyStreamGuards.h"

#include "lib/StatementParents.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace graphify {

using namespace clang;

namespace {

/// The construction a variable's initialiser runs: `Guard g(s)`, `Guard g{s}`, `auto g = Guard(s)`.
const CXXConstructExpr *constructionOf(const VarDecl *V) {
  const Expr *Init = V && V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr;
  if (const auto *Cast = dyn_cast_or_null<CXXFunctionalCastExpr>(Init))
    Init = Cast->getSubExpr()->IgnoreImplicit();
  return dyn_cast_or_null<CXXConstructExpr>(Init);
}

/// Whether the function `Body` belongs to assigns `V` after its declaration (`s = other;`) or
/// takes its address, either of which may change the stream it holds. A non-const reference
/// bound to it (`reset(s)` taking `CUDAStream &`) is not seen: such a stream is still taken as
/// the legacy one.
bool mayChange(const VarDecl *V, const Stmt *Body, ASTContext &Ast) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    ASTContext &Ast;
    bool Found = false;
    Finder(const VarDecl *V, ASTContext &Ast) : V(V), Ast(Ast) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() != V)
        return true;
      DynTypedNodeList Parents = Ast.getParents(*DRE);
      const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      if (const auto *ICE = dyn_cast_or_null<ImplicitCastExpr>(P); ICE && ICE->getCastKind() == CK_LValueToRValue)
        return true; // a read
      if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P); Op && Op->isAssignmentOp() && Op->getArg(0) == DRE)
        Found = true;
      else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P); BO && BO->isAssignmentOp() && BO->getLHS() == DRE)
        Found = true;
      else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P); UO && UO->getOpcode() == UO_AddrOf)
        Found = true;
      return !Found;
    }
  } F(V, Ast);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace

bool LegacyStreamGuards::isLegacy(const Expr *Stream, unsigned Depth) const {
  if (!Stream || Depth > 4)
    return false;
  Stream = Stream->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Stream); Construct && Construct->getNumArgs() == 1)
    return isLegacy(Construct->getArg(0), Depth + 1); // a copy of the stream object
  // `CUDAStream` converted to the guard's `c10::Stream` (its `operator Stream()`).
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Stream); MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()))
    return isLegacy(MC->getImplicitObjectArgument(), Depth + 1);
  if (const auto *Call = dyn_cast<CallExpr>(Stream))
    if (auto C = Api.resolve(Call); C && C->hasTag("legacy_stream_source"))
      return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(Stream);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || !V->getInit())
    return false;
  const auto *Fn = dyn_cast<FunctionDecl>(V->getDeclContext());
  return Fn && Fn->getBody() && !mayChange(V, Fn->getBody(), V->getASTContext()) && isLegacy(V->getInit(), Depth + 1);
}

std::optional<bool> LegacyStreamGuards::guardIn(const Stmt *S) const {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S);
  if (!DS)
    return std::nullopt;
  for (const Decl *D : DS->decls()) {
    const CXXConstructExpr *Construct = constructionOf(dyn_cast<VarDecl>(D));
    auto C = Construct ? Api.resolve(Construct) : std::nullopt;
    const ApiEntry *E = C ? C->entryWithTag("current_stream_guard") : nullptr;
    if (E && E->StreamArg)
      return isLegacy(C->arg(*E->StreamArg));
  }
  return std::nullopt;
}

const DeclStmt *LegacyStreamGuards::guardOf(const Stmt &S, ASTContext &Ast) const {
  DynTypedNode Child = DynTypedNode::create(S);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto ParentNode = statementParent(Child, Ast);
    const Stmt *Parent = ParentNode ? ParentNode->get<Stmt>() : nullptr;
    if (!Parent || isa<LambdaExpr>(Parent))
      return nullptr;
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
      // The nearest guard declared before `Came` in this block decides.
      const Stmt *Came = Child.get<Stmt>();
      const DeclStmt *Nearest = nullptr;
      bool Legacy = false;
      for (const Stmt *Prior : Block->body()) {
        if (Prior == Came)
          break;
        if (std::optional<bool> G = guardIn(Prior)) {
          Nearest = cast<DeclStmt>(Prior);
          Legacy = *G;
        }
      }
      if (Nearest)
        return Legacy ? Nearest : nullptr;
    }
    Child = *ParentNode;
  }
  return nullptr;
}

} // namespace graphify
