// Relaxed capture mode switched per thread. Invariant: a statement counts as relaxed only when an
// exchange call that provably selects relaxed mode dominates it within its own blocks; anything
// less certain leaves it in the global mode, where capture_relaxed_ok calls are still reported.
#include "RelaxedThreadMode.h"

#include "lib/StatementParents.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

namespace graphify {

using namespace clang;

namespace {

/// The local variable `Arg` points to (`&mode`), if any.
const VarDecl *pointee(const Expr *Arg) {
  const auto *UO = Arg ? dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()) : nullptr;
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && V->isLocalVarDecl() ? V : nullptr;
}

/// Every use of `V` in `S`, and whether one of them is something else than `&V` given to a call
/// (an assignment, a reference bound to it, a read that may be followed by a write).
void usesOf(const Stmt *S, const VarDecl *V, ASTContext &Ast, unsigned &AddressTaken, bool &Other) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == V) {
    DynTypedNodeList Parents = Ast.getParents(*DRE);
    const auto *UO = Parents.empty() ? nullptr : Parents[0].get<UnaryOperator>();
    if (UO && UO->getOpcode() == UO_AddrOf)
      ++AddressTaken;
    else
      Other = true;
  }
  for (const Stmt *C : S->children())
    usesOf(C, V, Ast, AddressTaken, Other);
}

/// The exchange calls on `V` in `S` written before `Before` (all of them when it is null).
unsigned exchangesBefore(const Stmt *S, const VarDecl *V, const CallExpr *Before, const ApiResolver &Api,
                         const SourceManager &SM) {
  if (!S || isa<LambdaExpr>(S))
    return 0;
  unsigned N = 0;
  if (const auto *CE = dyn_cast<CallExpr>(S);
      CE && CE != Before &&
      (!Before || SM.isBeforeInTranslationUnit(SM.getExpansionLoc(CE->getBeginLoc()),
                                               SM.getExpansionLoc(Before->getBeginLoc()))))
    if (auto C = Api.resolve(CE); C && C->hasTag("capture_mode_exchange"))
      if (const ApiEntry *E = C->entryWithTag("capture_mode_exchange"); E && E->ModeArg && pointee(C->arg(*E->ModeArg)) == V)
        ++N;
  for (const Stmt *C : S->children())
    N += exchangesBefore(C, V, Before, Api, SM);
  return N;
}

/// The field of `*this` that `Arg` points to (`&mode_`), if any.
const FieldDecl *thisFieldPointee(const Expr *Arg) {
  const auto *UO = Arg ? dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()) : nullptr;
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

/// How many times `S` names field `F` of `*this`.
unsigned mentionsOf(const Stmt *S, const FieldDecl *F) {
  if (!S)
    return 0;
  unsigned N = 0;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() == F)
    ++N;
  for (const Stmt *C : S->children())
    N += mentionsOf(C, F);
  return N;
}

/// The calls in `S` that run whenever `S` runs to its end: not in a branch, a loop or a lambda
/// (a checking macro's `do { ... } while (0)` runs once).
void unconditionalCalls(const Stmt *S, ASTContext &Ast, llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<LambdaExpr, IfStmt, ForStmt, WhileStmt, CXXForRangeStmt, SwitchStmt, ConditionalOperator,
                BinaryConditionalOperator, CXXTryStmt>(S))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    unconditionalCalls(BO->getLHS(), Ast, Out); // the right side may not run
    return;
  }
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    const Expr *Cond = Do->getCond();
    if (!Cond || !Cond->isIntegerConstantExpr(Ast) || Cond->EvaluateKnownConstInt(Ast) != 0)
      return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S))
    Out.push_back(CE);
  for (const Stmt *C : S->children())
    unconditionalCalls(C, Ast, Out);
}

} // namespace

std::optional<bool> RelaxedThreadMode::projectGuardMode(const CXXConstructExpr &Construct) const {
  const CXXConstructorDecl *Ctor = Construct.getConstructor();
  const FunctionDecl *Def = nullptr;
  if (!Ctor || !Ctor->hasBody(Def))
    return std::nullopt;
  const auto *CtorDef = dyn_cast<CXXConstructorDecl>(Def);
  if (!CtorDef)
    return std::nullopt;
  ASTContext &Ast = CtorDef->getASTContext();
  llvm::SmallVector<const CallExpr *, 8> Calls;
  unconditionalCalls(CtorDef->getBody(), Ast, Calls);
  const CallExpr *Exchange = nullptr;
  const ApiEntry *Entry = nullptr;
  std::optional<ApiCall> Resolved;
  for (const CallExpr *CE : Calls)
    if (auto C = Api.resolve(CE); C && C->hasTag("capture_mode_exchange")) {
      if (Exchange)
        return false; // two switches in one constructor: no single mode to name
      Exchange = CE;
      Resolved = C;
      Entry = C->entryWithTag("capture_mode_exchange");
    }
  if (!Exchange || !Entry || !Entry->ModeArg)
    return std::nullopt; // not a mode guard: its constructor switches nothing for sure
  const FieldDecl *Field = thisFieldPointee(Resolved->arg(*Entry->ModeArg));
  // The field must reach the exchange untouched: written by its initialiser only.
  if (!Field || mentionsOf(CtorDef->getBody(), Field) != 1)
    return false;
  const Expr *Mode = Field->getInClassInitializer();
  for (const CXXCtorInitializer *Init : CtorDef->inits())
    if (Init->getMember() == Field)
      Mode = Init->getInit();
  if (Mode) // `mode_(desired)`: the argument the guard was constructed with
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Mode->IgnoreImplicit()))
      if (const auto *Param = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        Mode = Param->getFunctionScopeIndex() < Construct.getNumArgs()
                   ? Construct.getArg(Param->getFunctionScopeIndex())
                   : nullptr;
  return Mode && llvm::any_of(Entry->RelaxedModes, [&](const std::string &Name) {
           return ApiResolver::mentionsConstant(Mode, Name, /*StringPrefix=*/"");
         });
}

const CallExpr *RelaxedThreadMode::exchangeIn(const Stmt *S, bool &Several) const {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  const CallExpr *Found = nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (auto C = Api.resolve(CE); C && C->hasTag("capture_mode_exchange"))
      Found = CE;
  for (const Stmt *C : S->children())
    if (const CallExpr *Inner = exchangeIn(C, Several)) {
      Several = Several || Found;
      Found = Inner;
    }
  return Found;
}

std::optional<bool> RelaxedThreadMode::guardIn(const Stmt *S) const {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S);
  if (!DS)
    return std::nullopt;
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    const Expr *Init = V && V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr;
    if (const auto *Cast = dyn_cast_or_null<CXXFunctionalCastExpr>(Init)) // auto g = Guard(mode);
      Init = Cast->getSubExpr()->IgnoreImplicit();
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
    auto C = Construct ? Api.resolve(Construct) : std::nullopt;
    const ApiEntry *E = C ? C->entryWithTag("capture_mode_guard") : nullptr;
    if (!E && Construct)
      if (std::optional<bool> Project = projectGuardMode(*Construct))
        return Project; // the project's own guard class, read from its constructor
    if (!E || !E->ModeArg)
      continue;
    const Expr *Mode = C->arg(*E->ModeArg);
    return Mode && llvm::any_of(E->RelaxedModes, [&](const std::string &Name) {
             return ApiResolver::mentionsConstant(Mode, Name, /*StringPrefix=*/"");
           });
  }
  return std::nullopt;
}

bool RelaxedThreadMode::switchesToRelaxed(const CallExpr &Call, const Stmt *Body) const {
  auto C = Api.resolve(&Call);
  const ApiEntry *E = C ? C->entryWithTag("capture_mode_exchange") : nullptr;
  const VarDecl *V = E && E->ModeArg ? pointee(C->arg(*E->ModeArg)) : nullptr;
  if (!V || !V->getInit() || !Body)
    return false;
  if (!llvm::any_of(E->RelaxedModes, [&](const std::string &Mode) {
        return ApiResolver::mentionsConstant(V->getInit(), Mode, /*StringPrefix=*/"");
      }))
    return false;
  ASTContext &Ast = V->getASTContext();
  unsigned AddressTaken = 0;
  bool Other = false;
  usesOf(Body, V, Ast, AddressTaken, Other);
  const SourceManager &SM = Ast.getSourceManager();
  // Only exchange calls may take its address: anything else given `&m` may write another mode.
  if (Other || AddressTaken != exchangesBefore(Body, V, nullptr, Api, SM))
    return false;
  // Each exchange swaps: the first installs the initial value, the second restores the old mode.
  return exchangesBefore(Body, V, &Call, Api, SM) % 2 == 0;
}

bool RelaxedThreadMode::covers(const Stmt &S, ASTContext &Ast) const {
  // The function body the statement is in: where the mode variable lives.
  const Stmt *Body = enclosingBody(S, Ast);
  DynTypedNode Child = DynTypedNode::create(S);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto ParentNode = statementParent(Child, Ast);
    const Stmt *Parent = ParentNode ? ParentNode->get<Stmt>() : nullptr;
    if (!Parent || isa<LambdaExpr>(Parent))
      return false;
    const Stmt *Came = Child.get<Stmt>();
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
      // The nearest statement before `Came` in this block that holds an exchange call or
      // declares a mode guard decides.
      const Stmt *Decider = nullptr;
      for (const Stmt *Prior : Block->body()) {
        if (Prior == Came)
          break;
        bool Several = false;
        if (exchangeIn(Prior, Several) || guardIn(Prior))
          Decider = Prior;
      }
      if (std::optional<bool> Guard = guardIn(Decider))
        return *Guard;
      if (Decider) {
        bool Several = false;
        const CallExpr *Call = exchangeIn(Decider, Several);
        // Only a call made as a statement of its own (or wrapped in a checking macro's call)
        // runs whenever the block goes on; one in a branch may not have run.
        const auto *Do = dyn_cast<DoStmt>(Decider);
        const bool Once = Do && Do->getCond() && Do->getCond()->isIntegerConstantExpr(Ast) &&
                          Do->getCond()->EvaluateKnownConstInt(Ast) == 0; // CHECK(x): do { ... } while (0)
        const bool Direct =
            !Several && (Once || !isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CompoundStmt>(Decider));
        return Direct && switchesToRelaxed(*Call, Body);
      }
    }
    Child = *ParentNode;
  }
  return false;
}

} // namespace graphify
