#include "PaddedSplitShapes.h"
#include "ExprUtil.h"
#include "HostRead.h"
#include "HostWork.h"
#include "IfChain.h"
#include "Outlining.h"
#include "PaddedSelection.h"
#include "Predication.h"
#include "RuleSupport.h"
#include "Safety.h"
#include "SettledParameters.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <map>
#include <optional>
#include <set>

using namespace clang;
using namespace clang::transformer;

namespace graphify::rewriter::padded_split {

const Stmt *soleThen(const IfStmt *If) {
  if (If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
    Then = CS->body_front();
  return Then;
}

const ReturnStmt *guardReturn(const IfStmt *If) { return dyn_cast_or_null<ReturnStmt>(soleThen(If)); }

std::vector<const DeclRefExpr *> firstReferences(const Stmt *const *It, const Stmt *const *End) {
  std::vector<const DeclRefExpr *> Found;
  std::set<const ValueDecl *> Seen;
  for (; It != End; ++It) {
    llvm::SmallVector<const Stmt *, 32> Work{*It};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      for (const Stmt *C : S->children())
        Work.push_back(C);
      if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && Seen.insert(DR->getDecl()).second)
        Found.push_back(DR);
    }
  }
  return Found;
}

bool isContinueGuard(const IfStmt *If) { return isa_and_nonnull<ContinueStmt>(soleThen(If)); }

const VarDecl *pushInto(const Stmt *S, const Expr *&Value, std::string &Method) {
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || (MD->getName() != "push_back" && MD->getName() != "emplace_back") ||
      Call->getNumArgs() != 1)
    return nullptr;
  const auto *Obj = dyn_cast<DeclRefExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *V = Obj ? dyn_cast<VarDecl>(Obj->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return nullptr;
  Value = Call->getArg(0);
  Method = MD->getName().str();
  return V;
}

QualType vectorElementType(QualType T) {
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!RD || !RD->isInStdNamespace() || RD->getName() != "vector" || RD->getTemplateArgs().size() == 0 ||
      RD->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return RD->getTemplateArgs()[0].getAsType();
}

const VarDecl *slotInto(const Stmt *S, const VarDecl *Index, const Expr *&Value) {
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const auto *Assign = dyn_cast<CXXOperatorCallExpr>(S);
  if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2)
    return nullptr;
  const auto *Element = dyn_cast<CXXOperatorCallExpr>(Assign->getArg(0)->IgnoreParenImpCasts());
  if (!Element || Element->getOperator() != OO_Subscript || Element->getNumArgs() != 2 ||
      referencedVar(Element->getArg(1)->IgnoreParenImpCasts()) != Index || !Index)
    return nullptr;
  const VarDecl *V = referencedVar(Element->getArg(0)->IgnoreParenImpCasts());
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() || vectorElementType(V->getType()).isNull())
    return nullptr;
  Value = Assign->getArg(1);
  return V;
}

const VarDecl *loopCounter(const ForStmt *For) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Index = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
  return Index && Index->getType()->isIntegerType() ? Index : nullptr;
}

std::optional<std::string> readsBodyState(const Stmt *E, const Stmt *Body,
                                          const std::map<const ValueDecl *, unsigned> &Allowed) {
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && !Allowed.count(DR->getDecl())) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if ((V && V->hasLocalStorage() && !isa<ParmVarDecl>(V)) || isa<BindingDecl>(DR->getDecl()))
        return "reads '" + DR->getDecl()->getNameAsString() + "', which the function computes";
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(V); P && isReassigned(P, Body))
        return "reads the parameter '" + P->getNameAsString() + "', which the function assigns";
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return std::nullopt;
}

const VarDecl *assignedLocal(const Stmt *S, const Expr *&Value) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    OC = dyn_cast<CXXOperatorCallExpr>(EWC->getSubExpr());
  if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
    return nullptr;
  const VarDecl *V = referencedVar(OC->getArg(0));
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return nullptr;
  Value = OC->getArg(1);
  return V;
}

bool isTensorAggregate(QualType T, const ApiModel &Api) {
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!RD || !RD->isInStdNamespace())
    return false;
  const TemplateArgumentList &Args = RD->getTemplateArgs();
  llvm::SmallVector<TemplateArgument, 4> Types;
  for (const TemplateArgument &A : Args.asArray()) {
    if (A.getKind() == TemplateArgument::Pack)
      Types.append(A.pack_begin(), A.pack_end());
    else
      Types.push_back(A);
  }
  auto IsTensor = [&](const TemplateArgument &A) {
    return A.getKind() == TemplateArgument::Type && Api.isTensor(A.getAsType());
  };
  if (RD->getName() == "vector")
    return !Types.empty() && IsTensor(Types.front());
  if (RD->getName() == "tuple" || RD->getName() == "pair")
    return !Types.empty() && llvm::all_of(Types, IsTensor);
  return false;
}

llvm::SmallVector<const Expr *, 4> returnedElements(const Expr *V) {
  V = V->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(V))
    V = Cast->getSubExpr()->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(V))
    return {List->inits().begin(), List->inits().end()};
  if (const auto *CE = dyn_cast<CXXConstructExpr>(V)) {
    const bool RestDefaulted = llvm::all_of(llvm::drop_begin(CE->arguments()),
                                            [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); });
    if (CE->getNumArgs() >= 1 && RestDefaulted)
      if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(CE->getArg(0)->IgnoreImplicit()))
        if (const auto *List = dyn_cast<InitListExpr>(IL->getSubExpr()->IgnoreImplicit()))
          return {List->inits().begin(), List->inits().end()};
    if (CE->isListInitialization() || isa<CXXTemporaryObjectExpr>(CE))
      return {CE->arg_begin(), CE->arg_end()};
    return {};
  }
  if (const auto *Call = dyn_cast<CallExpr>(V))
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->isInStdNamespace() && !isa<CXXMethodDecl>(FD))
      return {Call->arg_begin(), Call->arg_end()};
  return {};
}

std::string statementText(const Stmt *S, const ASTContext &Ctx) {
  std::string Text = sourceText(S, Ctx);
  if (Text.empty() || (Text.back() != ';' && Text.back() != '}'))
    Text += ";";
  return Text;
}

std::string textBetween(SourceLocation B, SourceLocation E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  B = SM.getExpansionLoc(B);
  E = SM.getExpansionLoc(E);
  unsigned Begin = SM.getFileOffset(B), End = SM.getFileOffset(E);
  if (SM.getFileID(B) != SM.getFileID(E) || End < Begin)
    return "";
  return SM.getBufferData(SM.getFileID(B)).substr(Begin, End - Begin).str();
}

} // namespace graphify::rewriter::padded_split
