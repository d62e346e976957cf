// Side-effect freedom of a where() arm. A where() evaluates both arms, so anything an arm does
// besides computing its value would now happen on the side not taken. The walk accepts only
// what is known to compute a value: literals, variables, arithmetic, calls tagged `pure` in the
// rule packs, const tensor methods that are not mutators, std arithmetic helpers, and calls of
// the user's own functions and modules whose bodies are pure by the same walk (a purity summary:
// locals may be written inside the callee, nothing else). Anything else is a reason to refuse —
// naming the first offending call or statement and its line.
#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/Path.h>
#include <clang/Basic/SourceManager.h>

using namespace clang;

namespace graphify::rewriter {

static bool inNamespace(const Decl *D, llvm::StringRef NS) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC))
      if (N->getName() == NS && isa<TranslationUnitDecl>(N->getParent()))
        return true;
  return false;
}

static bool isValueLibraryType(const CXXRecordDecl *RD) {
  if (!RD)
    return true;
  for (llvm::StringRef NS : {"std", "at", "c10", "torch", "gfy"})
    if (inNamespace(RD, NS))
      return true;
  return false;
}

/// The call a call operator forwards to when its body is `{ return f(...); }` (a module
/// holder's `block(x)` calls the module's forward()), or null. Messages name that call.
const CallExpr *forwardedCall(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || MD->getOverloadedOperator() != OO_Call || MD->getParent()->isLambda() || !FD->hasBody())
    return nullptr;
  const auto *CS = dyn_cast<CompoundStmt>(FD->getBody());
  if (!CS || CS->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(CS->body_front());
  if (!Ret || !Ret->getRetValue())
    return nullptr;
  return dyn_cast<CallExpr>(stripAll(Ret->getRetValue()));
}

namespace {

/// The first side effect found under a statement: why, and where.
struct SideEffect {
  std::string Reason;
  const Stmt *Where;
  bool Located = false; ///< the reason already names the line of `Where`
};

/// Walks a statement for side effects. With `Owner` set, the statement is the body of that
/// function and writes to its own by-value locals and parameters are allowed (nobody outside
/// sees them), as are control flow and declarations.
class SideEffectWalker {
public:
  SideEffectWalker(const ApiModel &Api, bool AllowHostReads, Evaluation Ran, const FunctionDecl *Owner = nullptr,
                   unsigned Depth = 0)
      : Api(Api), AllowHostReads(AllowHostReads), Ran(Ran), Owner(Owner), Depth(Depth) {}

  std::optional<SideEffect> walk(const Stmt *S) const;

private:
  /// Why the call is not pure; `Line` (" (line 12)") is put after the callee's name when the
  /// reason goes on to say what the callee does.
  std::optional<std::string> checkCall(const CallExpr *C, const std::string &Line, bool &Located) const;
  std::optional<std::string> checkAssignmentTarget(const Expr *Lhs) const;
  bool isOwnLocal(const VarDecl *V) const;

  const ApiModel &Api;
  bool AllowHostReads;
  Evaluation Ran;
  const FunctionDecl *Owner;
  unsigned Depth;
};

std::string atLine(const Stmt *S, const ApiModel &Api) {
  const ASTContext *Ctx = Api.context();
  if (!Ctx || !S)
    return "";
  const SourceManager &SM = Ctx->getSourceManager();
  SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
  if (L.isInvalid())
    return "";
  std::string Line = std::to_string(SM.getExpansionLineNumber(L));
  if (SM.isInMainFile(L))
    return " (line " + Line + ")";
  return " (" + llvm::sys::path::filename(SM.getFilename(L)).str() + ":" + Line + ")";
}


bool SideEffectWalker::isOwnLocal(const VarDecl *V) const {
  return Owner && V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
         V->getDeclContext() == Owner;
}

/// The local a write through element accesses lands in (`p[b][0] = v` writes into p), or null.
static const VarDecl *elementWriteRoot(const Expr *Lhs, const ApiModel &Api) {
  const Expr *E = stripAll(Lhs);
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
    if (!OC || OC->getOperator() != OO_Subscript || !Api.isTensor(OC->getArg(0)->getType()))
      break;
    E = stripAll(OC->getArg(0));
  }
  return E == stripAll(Lhs) ? nullptr : referencedVar(E);
}

std::optional<std::string> SideEffectWalker::checkAssignmentTarget(const Expr *Lhs) const {
  const VarDecl *V = referencedVar(Lhs);
  if (isOwnLocal(V))
    return std::nullopt;
  // An element of a tensor the function made itself (`auto p = torch::zeros(...); p[b][0] = v;`):
  // a tensor shares storage with what it was assigned from, so only a factory's that allocates
  // (pure: not from_blob, which wraps the caller's memory) is its own.
  if (const VarDecl *Root = elementWriteRoot(Lhs, Api); isOwnLocal(Root) && Root->getInit()) {
    const Expr *Init = stripAll(Root->getInit());
    if (Api.callHasTag(Init, "host_factory") && Api.callHasTag(Init, "pure"))
      return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(stripAll(Lhs)))
    return "writes the field '" + ME->getMemberDecl()->getNameAsString() + "'";
  return "assigns to" + (V ? " '" + V->getNameAsString() + "'" : std::string(" a variable"));
}

/// Only `std::move` / `std::forward`-like casts and the dereferencing operators of library value
/// types (a shared_ptr's `->`, a module holder's `->`): they name an object without touching it.
bool isNamingOnly(const FunctionDecl *FD) {
  if (unsigned Id = FD->getBuiltinID(); Id == Builtin::BImove || Id == Builtin::BIforward)
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !isValueLibraryType(MD->getParent()))
    return false;
  OverloadedOperatorKind Op = MD->getOverloadedOperator();
  return Op == OO_Arrow || (Op == OO_Star && MD->getNumParams() == 0);
}

/// An arithmetic type, or the std::initializer_list of one that `std::max({a, b, c})` takes.
bool isArithmeticOrListOfIt(QualType T) {
  if (T->isArithmeticType())
    return true;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "initializer_list" || !inNamespace(Spec, "std"))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() == 1 && Args[0].getKind() == TemplateArgument::Type &&
         Args[0].getAsType()->isArithmeticType();
}

std::optional<std::string> SideEffectWalker::checkCall(const CallExpr *C, const std::string &Line,
                                                      bool &Located) const {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD)
    return std::string("calls a function through a pointer, which is not known to be pure");
  std::string Name = FD->getNameAsString();
  for (unsigned I = 0; I < C->getNumArgs(); ++I)
    if (isOutputStreamType(C->getArg(I)->getType()))
      return std::string("writes output");
  if (Name == "printf" || Name == "puts" || Name == "fprintf" || Name == "putchar" || Name == "print")
    return std::string("writes output");
  if (Api.callHasTag(C, "in_place"))
    return "calls '" + Name + "', which changes state";
  // A read and the Scalar conversion that completes it (`x.item().toBool()`) are one host read.
  if (AllowHostReads && (Api.callHasTag(C, "data_dependent_output") || Api.callHasTag(C, "scalar_conversion")))
    return std::nullopt;
  // A draw that runs where and as often as before draws the same numbers, and the check some
  // draws read back first (`torch::multinomial(p, 1)`) fails where it failed before.
  if (Ran == Evaluation::AsBefore && Api.callHasTag(C, "random"))
    return std::nullopt;
  if (Api.callHasTag(C, "host_sync"))
    return "calls '" + Name + "', which reads the tensor on the host and may fail on the side not taken";
  if (Ran == Evaluation::Conditional)
    if (auto Why = valueHazard(C, Api))
      return Why;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator() ||
        MD->getOverloadedOperator() == OO_Equal)
      return std::string("assigns to a variable");
  }
  if (Api.callHasTag(C, "pure") || isNamingOnly(FD))
    return std::nullopt;
  // `block(x)` through a module holder: what matters is the forward() it calls.
  if (const CallExpr *Inner = forwardedCall(FD); Inner && Depth < 4) {
    SideEffectWalker Through(Api, AllowHostReads, Ran, Owner, Depth + 1);
    for (const Expr *Arg : Inner->arguments())
      if (auto Effect = Through.walk(Arg))
        return "calls '" + Name + "'" + Line + ", which " + Effect->Reason;
    return Through.checkCall(Inner, Line, Located);
  }
  const Expr *Object = callObject(C);
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && Object && Api.isTensor(Object->getType())) {
    // In-place ops by LibTorch's naming convention; the pack lists the mutators without it.
    if (llvm::StringRef(Name).ends_with("_"))
      return "calls '" + Name + "', which changes state";
    if (MD->isConst())
      return std::nullopt;
  }
  // An element of a standard sequence (`parts[1]` of a vector of tensors): it names the element
  // without touching it; an assignment through it is a write, checked as such.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && inNamespace(MD->getParent(), "std") &&
                                                    (MD->getOverloadedOperator() == OO_Subscript ||
                                                     (MD->getIdentifier() && MD->getName() == "at"))) {
    const llvm::StringRef Container = MD->getParent()->getName();
    if (Container == "vector" || Container == "array")
      return std::nullopt;
  }
  // Arithmetic helpers of the standard library on host values (std::exp, and std::max, which
  // returns a const reference to one of its arguments).
  if (inNamespace(FD, "std") && FD->getReturnType().getNonReferenceType()->isArithmeticType()) {
    bool AllArithmetic = true;
    for (const ParmVarDecl *P : FD->parameters())
      AllArithmetic &= isArithmeticOrListOfIt(P->getType().getNonReferenceType());
    if (AllArithmetic)
      return std::nullopt;
  }
  // The user's own functions and modules (and library forwarders such as a module holder's
  // operator()): pure when their bodies are.
  if (auto Summary = calleeImpurity(FD, Api); !Summary)
    return std::nullopt;
  else if (!Summary->empty()) {
    Located = true;
    return "calls '" + Name + "'" + Line + ", which " + *Summary;
  }
  return "calls '" + Name + "', which is not known to be pure";
}

std::optional<SideEffect> SideEffectWalker::walk(const Stmt *S) const {
  if (!S)
    return std::nullopt;
  auto Found = [&](std::string Why) { return SideEffect{std::move(Why), S}; };
  if (isa<CXXThrowExpr>(S))
    return Found("throws an exception");
  if (isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return Found("contains a lambda");
  if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
    return Found("allocates or frees memory");
  if (isa<StmtExpr>(S) || isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S))
    return Found("contains a statement expression or assembly");
  if (!Owner && (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S)))
    return Found("changes control flow");
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<CXXTryStmt>(S))
    return Found("changes control flow");
  if (!Owner && isa<DeclStmt>(S))
    return Found("declares a variable");
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && (V->isStaticLocal() || V->getType()->isReferenceType()))
        return Found("declares the " + std::string(V->isStaticLocal() ? "static" : "reference") + " '" +
                     V->getNameAsString() + "'");
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    if (auto Why = checkAssignmentTarget(BO->getLHS()))
      return Found(*Why);
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
    if (!isOwnLocal(referencedVar(UO->getSubExpr())))
      return Found("increments or decrements a variable");
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    if (!isValueLibraryType(CE->getConstructor()->getParent()))
      return Found("constructs '" + CE->getConstructor()->getParent()->getNameAsString() +
                   "', which is not known to be pure");
  }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C); OC && OC->isAssignmentOp()) {
      // Compound assignments on tensors are in-place ops; plain ones rebind a variable.
      if (OC->getOperator() != OO_Equal && Api.isTensor(OC->getArg(0)->getType()))
        return Found("calls '" + C->getDirectCallee()->getNameAsString() + "', which changes state");
      if (auto Why = checkAssignmentTarget(OC->getArg(0)))
        return Found(*Why);
      // An assignment to an own local: only the right-hand side can have effects.
      return walk(OC->getArg(1));
    }
    bool Located = false;
    if (auto Why = checkCall(C, atLine(S, Api), Located))
      return SideEffect{*Why, S, Located};
  }
  for (const Stmt *Child : S->children())
    if (auto Effect = walk(Child))
      return Effect;
  return std::nullopt;
}

} // namespace

std::optional<std::string> calleeImpurity(const FunctionDecl *FD, const ApiModel &Api) {
  const FunctionDecl *Def = FD->getDefinition();
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern(); !Def && Pattern)
    Def = Pattern->getDefinition();
  if (!Def || !Def->hasBody())
    return std::string();
  const ASTContext &Ctx = Def->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = Def->getBody();
  // Library code in system headers is opaque.
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return std::string();
  if (auto Known = Api.purityCache().find(Def); Known != Api.purityCache().end())
    return Known->second;
  // In progress: a recursive call is assumed impure, and so is a summary past the depth limit.
  Api.purityCache()[Def] = std::string("is recursive");
  std::optional<std::string> Result;
  if (Api.purityCache().size() > 256) {
    Result = std::string();
  } else if (auto Effect = SideEffectWalker(Api, /*AllowHostReads=*/false, Evaluation::Conditional, Def).walk(Body)) {
    Result = Effect->Located ? Effect->Reason : Effect->Reason + atLine(Effect->Where, Api);
  }
  Api.purityCache()[Def] = Result;
  return Result;
}

std::optional<std::string> findSideEffect(const Stmt *S, const ApiModel &Api, bool AllowHostReads, Evaluation Ran) {
  if (auto Effect = SideEffectWalker(Api, AllowHostReads, Ran).walk(S))
    return Effect->Located ? Effect->Reason : Effect->Reason + atLine(Effect->Where, Api);
  return std::nullopt;
}

} // namespace graphify::rewriter
