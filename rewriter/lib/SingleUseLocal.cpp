// Single-use value-dependent locals, shared by the rules that fold such a local into its use.
#include "SingleUseLocal.h"

#include "ExprUtil.h"
#include "Refusal.h"
#include "Safety.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

using namespace clang;

namespace graphify::rewriter {

llvm::Expected<const DeclStmt *> singleUseLocal(const VarDecl *V, const Stmt *Use, const Stmt *Body,
                                                const ApiModel &Api, ASTContext &Ctx, llvm::StringRef What) {
  std::string Name = "'" + V->getNameAsString() + "'";
  if (usesOf(V, Body).size() != 1)
    return refuse(Name + " is used elsewhere, so " + What.str() + " cannot be removed");
  if (isReassigned(V, Body))
    return refuse(Name + " is reassigned");
  const DeclStmt *DS = nullptr;
  for (const DynTypedNode &P : Ctx.getParents(*V))
    DS = P.get<DeclStmt>();
  if (!DS || !DS->isSingleDecl())
    return refuse(Name + " is not declared on its own");
  auto [DeclInBlock, Block] = enclosingBlockStatement(DS, Ctx);
  auto [UseInBlock, UseBlock] = enclosingBlockStatement(Use, Ctx);
  if (!Block || Block != UseBlock || DeclInBlock != DS)
    return refuse(Name + " is declared in another block than its use");
  bool Between = false;
  for (const Stmt *S : Block->body()) {
    if (S == UseInBlock)
      break;
    if (Between) {
      // A local declared in between is harmless when its value is computed without effects.
      llvm::SmallVector<const Stmt *, 2> Parts{S};
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        Parts.clear();
        for (const Decl *D : DS->decls())
          if (const auto *Local = dyn_cast<VarDecl>(D); Local && Local->getInit() && !Local->isStaticLocal())
            Parts.push_back(Local->getInit());
          else
            Parts.push_back(S);
      }
      for (const Stmt *Part : Parts)
        if (auto Why = findSideEffect(Part, Api, false, Evaluation::AsBefore))
          return refuse("a statement between " + What.str() + " and its use " + *Why);
    }
    Between |= S == DS;
  }
  return DS;
}

transformer::Edit removeDeclaration(const DeclStmt *DS, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = SM.getExpansionLoc(DS->getBeginLoc());
  SourceLocation E = SM.getExpansionLoc(DS->getEndLoc()).getLocWithOffset(1);
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(B));
  unsigned BO = SM.getFileOffset(B), EO = SM.getFileOffset(E);
  unsigned LineStart = BO;
  while (LineStart > 0 && (Buffer[LineStart - 1] == ' ' || Buffer[LineStart - 1] == '\t'))
    --LineStart;
  unsigned LineEnd = EO;
  while (LineEnd < Buffer.size() && (Buffer[LineEnd] == ' ' || Buffer[LineEnd] == '\t'))
    ++LineEnd;
  if ((LineStart == 0 || Buffer[LineStart - 1] == '\n') && LineEnd < Buffer.size() && Buffer[LineEnd] == '\n') {
    BO = LineStart;
    EO = LineEnd + 1;
  }
  const int Base = static_cast<int>(SM.getFileOffset(B));
  transformer::Edit Remove;
  Remove.Range = CharSourceRange::getCharRange(B.getLocWithOffset(static_cast<int>(BO) - Base),
                                               B.getLocWithOffset(static_cast<int>(EO) - Base));
  Remove.Replacement = "";
  return Remove;
}

const Expr *throughSameElements(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  for (int Depth = 0; Depth < 8; ++Depth) {
    const Expr *Obj = callObject(E);
    if (!Obj || !isa<CXXMemberCallExpr>(E) || !Api.callHasTag(E, "same_elements"))
      break;
    E = stripAll(Obj);
  }
  return E;
}

} // namespace graphify::rewriter
