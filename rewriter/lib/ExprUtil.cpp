// Why these helpers exist: LibTorch's API is written with value types (Tensor, Scalar,
// TensorIndex, IListRef) whose implicit constructors wrap every interesting expression in several
// layers of temporaries. Rules and predicates reason about what the user wrote, so they look
// through those layers in one place.
#include "ExprUtil.h"
#include "Refusal.h"

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/OutputStreams.h"

#include <clang/Basic/SourceManager.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Transformer/SourceCode.h>

using namespace clang;

namespace graphify::rewriter {

char RefusalError::ID;

static const Expr *stripOnce(const Expr *E, bool Parens) {
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
    return C->getSubExpr();
  if (const auto *C = dyn_cast<ExprWithCleanups>(E))
    return C->getSubExpr();
  if (const auto *C = dyn_cast<MaterializeTemporaryExpr>(E))
    return C->getSubExpr();
  if (const auto *C = dyn_cast<CXXBindTemporaryExpr>(E))
    return C->getSubExpr();
  if (const auto *C = dyn_cast<CXXFunctionalCastExpr>(E); C && C->getCastKind() == CK_ConstructorConversion)
    return C->getSubExpr();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    // Implicit conversions and copies only: an explicit `torch::Tensor(x)` or a list
    // initialisation is something the user wrote.
    bool RestDefaulted = true;
    for (unsigned I = 1; I < C->getNumArgs(); ++I)
      RestDefaulted &= isa<CXXDefaultArgExpr>(C->getArg(I));
    if (!isa<CXXTemporaryObjectExpr>(C) && !C->isListInitialization() && C->getNumArgs() >= 1 &&
        RestDefaulted)
      return C->getArg(0);
  }
  if (Parens)
    if (const auto *P = dyn_cast<ParenExpr>(E))
      return P->getSubExpr();
  return E;
}

static const Expr *strip(const Expr *E, bool Parens) {
  while (E) {
    const Expr *N = stripOnce(E, Parens);
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

const Expr *stripImplicit(const Expr *E) { return strip(E, false); }
const Expr *stripAll(const Expr *E) { return strip(E, true); }

std::string lineOf(const Stmt *S, const ASTContext &Ctx) {
  return std::to_string(Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc()));
}

std::string quotedSource(const Stmt *S, const ASTContext &Ctx) { return "'" + sourceText(S, Ctx) + "'"; }

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return "";
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange File = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  if (File.isValid())
    return Lexer::getSourceText(File, SM, Ctx.getLangOpts()).str();
  // An expression passed as one macro argument (`PICK(c, a + 1, b)`) was written by the user at
  // its spelling; anything else inside a macro has no text of its own in the file.
  // The parentheses a macro body puts around its argument (`((c) ? (t) : (f))`) are not the user's.
  if (const auto *E = dyn_cast<Expr>(S)) {
    const Expr *Inner = E->IgnoreUnlessSpelledInSource();
    if (const auto *P = dyn_cast<ParenExpr>(Inner); P && P->getLParen().isMacroID())
      return sourceText(P->getSubExpr(), Ctx);
    if (Inner != E)
      return sourceText(Inner, Ctx);
  }
  const SourceLocation B = S->getBeginLoc(), E = S->getEndLoc();
  if (!SM.isMacroArgExpansion(B) || !SM.isMacroArgExpansion(E))
    return "";
  CharSourceRange Spelled = CharSourceRange::getTokenRange(SM.getSpellingLoc(B), SM.getSpellingLoc(E));
  if (SM.getFileID(Spelled.getBegin()) != SM.getFileID(Spelled.getEnd()) ||
      SM.isBeforeInTranslationUnit(Spelled.getEnd(), Spelled.getBegin()))
    return "";
  return Lexer::getSourceText(Spelled, SM, Ctx.getLangOpts()).str();
}

llvm::SmallVector<const Expr *, 4> bracedListElements(const Expr *E) {
  llvm::SmallVector<const Expr *, 4> Out;
  // Walk down through IListRef/ArrayRef constructors and std::initializer_list to the braces.
  for (int Depth = 0; E && Depth < 12; ++Depth) {
    E = stripAll(E);
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      if (IL->isSemanticForm() && IL->getSyntacticForm())
        IL = IL->getSyntacticForm();
      for (const Expr *Init : IL->inits())
        Out.push_back(stripAll(Init));
      return Out;
    }
    if (const auto *L = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = L->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() >= 1) {
      E = C->getArg(0);
      continue;
    }
    return Out;
  }
  return Out;
}

const VarDecl *referencedVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(stripAll(E)))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

std::optional<std::pair<const Expr *, const Expr *>> asAssignment(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  E = stripAll(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign)
    return std::make_pair(BO->getLHS(), BO->getRHS());
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    return std::make_pair(static_cast<const Expr *>(OC->getArg(0)), static_cast<const Expr *>(OC->getArg(1)));
  return std::nullopt;
}

std::string calleeName(const Expr *E) {
  E = stripAll(E);
  const FunctionDecl *FD = nullptr;
  if (const auto *C = dyn_cast<CallExpr>(E))
    FD = C->getDirectCallee();
  if (!FD)
    return "";
  if (FD->getDeclName().isIdentifier())
    return FD->getName().str();
  return FD->getNameAsString(); // operator>, operator*, ...
}

const Expr *callObject(const Expr *E) {
  E = stripAll(E);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return MC->getImplicitObjectArgument();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() >= 1)
    return OC->getArg(0);
  return nullptr;
}

llvm::SmallVector<const Expr *, 4> callArgs(const Expr *E) {
  llvm::SmallVector<const Expr *, 4> Out;
  E = stripAll(E);
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    unsigned First = isa<CXXOperatorCallExpr>(C) ? 1 : 0;
    for (unsigned I = First; I < C->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(C->getArg(I)))
        Out.push_back(C->getArg(I));
  }
  return Out;
}

llvm::SmallVector<const Expr *, 4> callOperands(const Expr *E) {
  llvm::SmallVector<const Expr *, 4> Out;
  if (const Expr *Obj = callObject(E))
    Out.push_back(Obj);
  for (const Expr *A : callArgs(E))
    Out.push_back(A);
  return Out;
}

const Decl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *L = P.get<LambdaExpr>())
      return L->getCallOperator();
    if (const auto *FD = P.get<FunctionDecl>())
      return FD;
    Parents = Ctx.getParents(P);
  }
  return nullptr;
}

const Expr *findExpr(const Stmt *S, llvm::function_ref<bool(const Expr *)> Pred) {
  if (!S)
    return nullptr;
  if (const auto *E = dyn_cast<Expr>(S); E && Pred(E))
    return E;
  for (const Stmt *C : S->children())
    if (const Expr *Found = findExpr(C, Pred))
      return Found;
  return nullptr;
}

const FunctionDecl *functionWithBody(const Stmt *Body, ASTContext &Ctx) {
  for (const DynTypedNode &P : Ctx.getParents(*Body))
    if (const auto *FD = P.get<FunctionDecl>(); FD && FD->getBody() == Body)
      return FD;
  return nullptr;
}

std::string declText(const Decl &D, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(D.getSourceRange()), SM, Ctx.getLangOpts());
  return R.isValid() ? Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str() : "";
}

const Stmt *functionBody(const Decl *D) {
  if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D))
    return FD->getBody();
  return nullptr;
}

bool isOutputStreamType(QualType T) { return graphify::isOutputStreamType(T); }

DynTypedNode userPastValueWrappers(const Expr *E, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 6; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return DynTypedNode();
    N = Parents[0];
    const Expr *P = N.get<Expr>();
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) || isa<CXXBindTemporaryExpr>(P) ||
                isa<ParenExpr>(P) || isa<CXXConstructExpr>(P) || isa<ExprWithCleanups>(P)))
      return N;
  }
  return DynTypedNode();
}

const VarDecl *localInitialisedBy(const Expr *E, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    N = Parents[0];
    if (const auto *V = N.get<VarDecl>())
      return V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() ? V : nullptr;
    const auto *P = N.get<Expr>();
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<CXXStaticCastExpr>(P) || isa<ExprWithCleanups>(P)))
      return nullptr;
  }
  return nullptr;
}

std::pair<const Stmt *, const CompoundStmt *> enclosingBlockStatement(const Stmt *S, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*S);
  const Stmt *Child = S;
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return {nullptr, nullptr};
    if (const auto *CS = Parents[0].get<CompoundStmt>())
      return {Child, CS};
    N = Parents[0];
    if (const Stmt *P = N.get<Stmt>())
      Child = P;
    else if (!N.get<VarDecl>())
      return {nullptr, nullptr};
  }
  return {nullptr, nullptr};
}

const IfStmt *ifTesting(const Expr *E, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*E);
  const Stmt *Child = E;
  for (int Depth = 0; Depth < 16; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    N = Parents[0];
    const Stmt *S = N.get<Stmt>();
    if (!S)
      return nullptr;
    if (const auto *If = dyn_cast<IfStmt>(S))
      return If->getCond() == Child ? If : nullptr;
    if (!isa<Expr>(S))
      return nullptr;
    Child = S;
  }
  return nullptr;
}

bool isIntegerConstant(const Expr *E, int64_t Value, const ASTContext &Ctx) {
  if (!E)
    return false;
  auto V = stripAll(E)->getIntegerConstantExpr(Ctx);
  return V && *V == Value;
}

const Stmt *loopBody(const Stmt *S) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    return F->getBody();
  if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(S))
    return R->getBody();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(S))
    return W->getBody();
  if (const auto *D = dyn_cast_or_null<DoStmt>(S))
    return D->getBody();
  return nullptr;
}

bool isIterableContainer(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return isHostContainerType(T) && RD && RD->hasDefinition() &&
         !RD->lookup(&RD->getASTContext().Idents.get("begin")).empty();
}

bool isPlainName(const Expr *E) {
  const Expr *S = stripAll(E);
  if (isa<DeclRefExpr>(S))
    return true;
  const auto *ME = dyn_cast<MemberExpr>(S);
  return ME && isa<FieldDecl>(ME->getMemberDecl()) &&
         isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
}


bool isAbsent(const Expr *A) {
  if (!A || isa<CXXDefaultArgExpr>(A))
    return true;
  const auto *RD = stripAll(A)->getType()->getAsCXXRecordDecl();
  return RD && RD->getName().ends_with("nullopt_t");
}

} // namespace graphify::rewriter
