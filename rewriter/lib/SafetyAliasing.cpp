// Storage sharing across a where() rewrite. `if (c) v = y * 2;` leaves v the very tensor it was
// on the path that does not assign it — `auto v = x;` makes v and x one tensor, and an in-place
// write through either reaches both. `v = torch::where(c, y * 2, v)` is a new tensor on every
// path, so after the rewrite that write reaches only one of them. The rewrite is exact when v
// holds a new tensor on every path of the original, or when nothing the function does later
// writes in place into what v may share.
//
// The analysis is flow-insensitive and conservative. The storage roots of a value are the
// variables, parameters and fields it may share storage with: a variable names itself and, for a
// local, the roots of every value it is ever given; calls the rule packs tag `shares_storage`
// (views, and calls that may return self: contiguous, to) share with their tensor operands;
// other calls the packs describe, tensor operators and the user's functions whose returns are new
// tensors share nothing. A call it cannot see into may share anything. Distinct parameters and
// fields are assumed not to share storage with each other (docs/rewrites.md, known limits).
#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallPtrSet.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// What a tensor value may share storage with.
struct StorageRoots {
  llvm::SmallPtrSet<const ValueDecl *, 4> Decls;
  /// A call the analysis cannot see into: it may share storage with anything.
  const Expr *Unknown = nullptr;

  bool empty() const { return Decls.empty() && !Unknown; }
  void add(const StorageRoots &O) {
    Decls.insert(O.Decls.begin(), O.Decls.end());
    if (!Unknown)
      Unknown = O.Unknown;
  }
};

/// An in-place write: the statement, and what the storage it writes may be shared with.
struct InPlaceWrite {
  const Stmt *Where;
  std::string What; ///< the write as written, for messages
  StorageRoots Target;
};

constexpr int MaxDepth = 6;

class StorageSharing {
public:
  StorageSharing(const ApiModel &Api, const ASTContext &Ctx) : Api(Api), Ctx(Ctx) {}

  StorageRoots rootsOf(const Expr *E, const Stmt *Body, int Depth) const;
  /// Every value the local `V` is given in `Body` (its initialiser, assignments).
  StorageRoots rootsOfLocal(const VarDecl *V, const Stmt *Body, int Depth) const;
  /// The in-place writes under `S`; those of the user's callees appear at the call.
  void inPlaceWrites(const Stmt *S, const Stmt *Body, llvm::SmallVectorImpl<InPlaceWrite> &Out, int Depth) const;

private:
  StorageRoots rootsOfCall(const Expr *E, const Stmt *Body, int Depth) const;
  StorageRoots operandRoots(const Expr *E, const Stmt *Body, int Depth) const;
  std::optional<StorageRoots> calleeReturnRoots(const CallExpr *C, const Stmt *Body, int Depth) const;
  bool calleeWritesInPlace(const FunctionDecl *FD, int Depth) const;

  const ApiModel &Api;
  const ASTContext &Ctx;
  mutable llvm::SmallPtrSet<const VarDecl *, 8> Visiting;
};

const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern(); !Def && Pattern)
    Def = Pattern->getDefinition();
  if (!Def || !Def->hasBody())
    return nullptr;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return nullptr;
  return Def;
}

/// Whether `D` is declared in namespace std (a member of std::vector included).
bool inStandardLibrary(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && !DC->isFileContext())
    DC = DC->getParent();
  for (; DC; DC = DC->getParent())
    if (DC->isStdNamespace())
      return true;
  return false;
}

/// The value of `V = e` or `V op= e` statements: the assigned expression when `E` assigns `V`.
const Expr *valueAssignedTo(const Expr *E, const VarDecl *V) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign &&
                                                    referencedVar(BO->getLHS()) == V)
    return BO->getRHS();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && referencedVar(OC->getArg(0)) == V)
    return OC->getArg(1);
  return nullptr;
}

/// Whether `S` binds `V` to a reference or takes its address (after which the analysis no
/// longer sees what is stored in it).
bool bindsReference(const VarDecl *D, const VarDecl *V) {
  return D->getType()->isReferenceType() && !D->getType().getNonReferenceType().isConstQualified() &&
         D->getInit() && referencedVar(D->getInit()) == V;
}

const Expr *escapes(const Stmt *S, const VarDecl *V) {
  if (!S)
    return nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf &&
                                                  referencedVar(UO->getSubExpr()) == V)
    return UO;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && bindsReference(VD, V))
        return VD->getInit();
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
      const bool Assigns = OC && OC->isAssignmentOp();
      unsigned Offset = OC && isa<CXXMethodDecl>(FD) ? 1 : 0;
      for (unsigned I = Offset; I < C->getNumArgs() && I - Offset < FD->getNumParams() && !Assigns; ++I) {
        QualType P = FD->getParamDecl(I - Offset)->getType();
        if (P->isReferenceType() && !P.getNonReferenceType().isConstQualified() && referencedVar(C->getArg(I)) == V)
          return C->getArg(I);
      }
    }
  for (const Stmt *Child : S->children())
    if (const Expr *E = escapes(Child, V))
      return E;
  return nullptr;
}

StorageRoots StorageSharing::rootsOfLocal(const VarDecl *V, const Stmt *Body, int Depth) const {
  StorageRoots R;
  if (Depth > MaxDepth || Visiting.contains(V))
    return R; // a cycle adds nothing new; the depth limit is checked by the caller
  Visiting.insert(V);
  if (const Expr *Init = V->getInit())
    R.add(rootsOf(Init, Body, Depth + 1));
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S))
      if (const Expr *Value = valueAssignedTo(E, V))
        R.add(rootsOf(Value, Body, Depth + 1));
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  // A reference or pointer to V may store anything in it (even when V has no initialiser).
  if (const Expr *Escape = escapes(Body, V); Escape && !R.Unknown)
    R.Unknown = Escape;
  Visiting.erase(V);
  return R;
}

StorageRoots StorageSharing::rootsOf(const Expr *E, const Stmt *Body, int Depth) const {
  StorageRoots R;
  E = stripAll(E);
  if (!E || !Api.isTensorExpr(E))
    return R;
  if (Depth > MaxDepth) {
    R.Unknown = E;
    return R;
  }
  if (const VarDecl *V = referencedVar(E)) {
    R.Decls.insert(V);
    if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && !V->getType()->isReferenceType())
      R.add(rootsOfLocal(V, Body, Depth));
    return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    R.Decls.insert(ME->getMemberDecl());
    return R;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    R.add(rootsOf(CO->getTrueExpr(), Body, Depth + 1));
    R.add(rootsOf(CO->getFalseExpr(), Body, Depth + 1));
    return R;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 0)
      return R; // an undefined tensor
    R.Unknown = E;
    return R;
  }
  if (isa<CallExpr>(E))
    return rootsOfCall(E, Body, Depth);
  R.Unknown = E;
  return R;
}

StorageRoots StorageSharing::operandRoots(const Expr *E, const Stmt *Body, int Depth) const {
  StorageRoots R;
  for (const Expr *Op : callOperands(E))
    R.add(rootsOf(Op, Body, Depth + 1));
  return R;
}

StorageRoots StorageSharing::rootsOfCall(const Expr *E, const Stmt *Body, int Depth) const {
  const auto *C = cast<CallExpr>(E);
  if (Api.callHasTag(E, "shares_storage") || Api.callHasTag(E, "in_place"))
    return operandRoots(E, Body, Depth);
  if (!Api.entriesFor(E).empty())
    return {}; // a call the packs describe returns a new tensor unless tagged above
  const FunctionDecl *FD = C->getDirectCallee();
  // Module holders forward `block(x)` to the module's forward().
  if (FD)
    if (const CallExpr *Inner = forwardedCall(FD))
      if (!Api.entriesFor(Inner).empty() && !Api.callHasTag(Inner, "shares_storage"))
        return {};
  if (auto Returned = calleeReturnRoots(C, Body, Depth))
    return *Returned;
  // A tensor method or function the packs do not list returns a new tensor or a view of its
  // operands (LibTorch's functions never hand out unrelated storage).
  if (FD && Api.isLibraryDecl(FD))
    return operandRoots(E, Body, Depth);
  StorageRoots R;
  R.Unknown = E;
  return R;
}

/// The roots of what a user function returns, its parameters replaced by the arguments' roots.
std::optional<StorageRoots> StorageSharing::calleeReturnRoots(const CallExpr *C, const Stmt *Body, int Depth) const {
  const FunctionDecl *Def = definitionOf(C->getDirectCallee());
  if (!Def || Depth > MaxDepth)
    return std::nullopt;
  StorageRoots Inside;
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S); Ret && Ret->getRetValue())
      Inside.add(rootsOf(Ret->getRetValue(), Def->getBody(), Depth + 1));
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  StorageRoots R;
  R.Unknown = Inside.Unknown ? C : nullptr;
  const unsigned Offset = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Def) ? 1 : 0;
  for (const ValueDecl *D : Inside.Decls) {
    const auto *P = dyn_cast<ParmVarDecl>(D);
    if (!P || P->getDeclContext() != Def) {
      // The callee's locals are followed to their values; its fields and globals stay.
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasLocalStorage())
        continue;
      R.Decls.insert(D);
      continue;
    }
    unsigned Arg = P->getFunctionScopeIndex() + Offset;
    if (Arg < C->getNumArgs())
      R.add(rootsOf(C->getArg(Arg), Body, Depth + 1));
  }
  return R;
}

bool StorageSharing::calleeWritesInPlace(const FunctionDecl *FD, int Depth) const {
  const FunctionDecl *Def = definitionOf(FD);
  if (!Def || Depth > MaxDepth)
    return true;
  llvm::SmallVector<InPlaceWrite, 2> Writes;
  inPlaceWrites(Def->getBody(), Def->getBody(), Writes, Depth + 1);
  return !Writes.empty();
}

void StorageSharing::inPlaceWrites(const Stmt *S, const Stmt *Body, llvm::SmallVectorImpl<InPlaceWrite> &Out,
                                   int Depth) const {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    // `out[t] = e` (a tensor's operator= on a view copies into it) and `x += e`.
    const Expr *Lhs = OC->getNumArgs() == 2 ? OC->getArg(0) : nullptr;
    const bool Compound = OC->isAssignmentOp() && OC->getOperator() != OO_Equal;
    if (Lhs && Api.isTensorExpr(Lhs) && OC->isAssignmentOp() && (Compound || !referencedVar(Lhs)))
      Out.push_back({S, sourceText(OC, Ctx), rootsOf(Lhs, Body, Depth)});
  } else if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = C->getDirectCallee();
    const Expr *Object = callObject(C);
    const bool TensorMethod = Object && isa<CXXMemberCallExpr>(C) && Api.isTensorExpr(Object);
    const bool Library = FD && Api.isLibraryDecl(FD);
    const std::string Name = FD ? FD->getNameAsString() : "";
    bool TakesTensor = TensorMethod;
    for (const Expr *Arg : C->arguments())
      TakesTensor |= Api.isTensorExpr(Arg);
    if (Api.callHasTag(C, "in_place") ||
        ((TensorMethod || (Library && TakesTensor)) && llvm::StringRef(Name).ends_with("_"))) {
      // LibTorch's convention: a trailing underscore writes into self (the first argument).
      if (const Expr *Receiver = Object ? Object : (C->getNumArgs() ? C->getArg(0) : nullptr))
        Out.push_back({S, sourceText(S, Ctx), rootsOf(Receiver, Body, Depth)});
    } else if (FD && Api.entriesFor(C).empty() && !Library && !inStandardLibrary(FD)) {
      const CallExpr *Forwarded = forwardedCall(FD);
      const bool DescribedModule = Forwarded && !Api.entriesFor(Forwarded).empty();
      const FunctionDecl *Def = definitionOf(FD);
      const bool Writes = Def ? calleeWritesInPlace(Def, Depth) : (TakesTensor || isa<CXXMethodDecl>(FD));
      if (!DescribedModule && Writes) {
        StorageRoots Anything;
        Anything.Unknown = C;
        Out.push_back({S, sourceText(S, Ctx), Anything});
      }
    }
  }
  for (const Stmt *Child : S->children())
    inPlaceWrites(Child, Body, Out, Depth);
}

std::string describeRoots(const StorageRoots &R, const VarDecl *Except, const ASTContext &Ctx) {
  std::vector<std::string> Names;
  for (const ValueDecl *D : R.Decls)
    if (D != Except)
      Names.push_back("'" + D->getNameAsString() + "'");
  llvm::sort(Names);
  if (R.Unknown)
    Names.push_back("what '" + sourceText(R.Unknown, Ctx) + "' returns");
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Names.size() ? " or " : ", ") + Names[I];
  return Out;
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
}

} // namespace

namespace {

/// The first in-place write that can run after `At` (later in the function, or anywhere in a
/// loop around it) and reach `Reach`, or null.
const InPlaceWrite *firstWriteAfter(const StorageRoots &Reach, const Stmt *At, const Stmt *Body,
                                    llvm::ArrayRef<InPlaceWrite> Writes, const SourceManager &SM) {
  llvm::SmallVector<const Stmt *, 4> Loops;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (isLoop(S) && S->getSourceRange().fullyContains(At->getSourceRange()))
      Loops.push_back(S);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  for (const InPlaceWrite &W : Writes) {
    bool After = SM.isBeforeInTranslationUnit(At->getEndLoc(), W.Where->getBeginLoc());
    for (const Stmt *L : Loops)
      After |= L->getSourceRange().fullyContains(W.Where->getSourceRange());
    if (!After)
      continue;
    bool Reaches = W.Target.Unknown != nullptr || Reach.Unknown != nullptr;
    for (const ValueDecl *D : W.Target.Decls)
      Reaches |= Reach.Decls.contains(D);
    if (Reaches)
      return &W;
  }
  return nullptr;
}

std::string writeClause(const InPlaceWrite &W, const SourceManager &SM) {
  return "the in-place write '" + W.What + "' (line " +
         std::to_string(SM.getExpansionLineNumber(W.Where->getBeginLoc())) + ") would no longer reach both";
}

/// Where the value of `E` goes: the variable it initialises or is assigned to (`Dest`), nowhere
/// that can keep it (a return, an operand of a call the packs describe that makes a new tensor:
/// returns false), or somewhere unknown (`Escapes`).
bool valueIsKept(const Expr *E, const ApiModel &Api, ASTContext &Ctx, const VarDecl *&Dest, bool &Escapes) {
  DynTypedNode N = DynTypedNode::create(*E);
  const Expr *Child = E;
  for (int Depth = 0; Depth < 12; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      break;
    N = Parents[0];
    if (const auto *VD = N.get<VarDecl>()) {
      Dest = VD;
      return true;
    }
    if (N.get<ReturnStmt>())
      return false; // what the caller does with an alias is a documented limit
    const auto *P = N.get<Expr>();
    if (!P)
      break;
    if (isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) || isa<CXXBindTemporaryExpr>(P) ||
        isa<ExprWithCleanups>(P) || isa<ParenExpr>(P) || (isa<CXXConstructExpr>(P) && stripAll(P) == stripAll(Child))) {
      Child = P;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Child) {
      Dest = referencedVar(BO->getLHS());
      Escapes = !Dest;
      return true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && stripAll(OC->getArg(1)) == stripAll(Child)) {
      Dest = referencedVar(OC->getArg(0));
      Escapes = !Dest;
      return true;
    }
    if (isa<CallExpr>(P) && !Api.entriesFor(P).empty() && !Api.callHasTag(P, "shares_storage") &&
        !Api.callHasTag(P, "in_place"))
      return false; // consumed by an op that makes a new tensor
    break;
  }
  Escapes = true;
  return true;
}

} // namespace

std::optional<std::string> storageSharingLostByValue(const Expr *Value, const Stmt *Body, const ApiModel &Api,
                                                     ASTContext &Ctx) {
  StorageSharing Sharing(Api, Ctx);
  StorageRoots Shared = Sharing.rootsOf(Value, Body, 0);
  const VarDecl *Dest = nullptr;
  bool Escapes = false;
  if (Shared.empty() || !valueIsKept(Value, Api, Ctx, Dest, Escapes))
    return std::nullopt;
  StorageRoots Reach = Shared;
  if (Dest)
    Reach.Decls.insert(Dest);
  if (Escapes && !Reach.Unknown)
    Reach.Unknown = Value;
  llvm::SmallVector<InPlaceWrite, 8> Writes;
  Sharing.inPlaceWrites(Body, Body, Writes, 0);
  const SourceManager &SM = Ctx.getSourceManager();
  if (const InPlaceWrite *W = firstWriteAfter(Reach, Value, Body, Writes, SM))
    return "the selected value may share storage with " + describeRoots(Shared, nullptr, Ctx) +
           ", but where() would make it a new tensor: " + writeClause(*W, SM);
  return std::nullopt;
}

std::optional<std::string> storageSharingLost(const VarDecl *V, const Stmt *At, const Stmt *Body,
                                              const ApiModel &Api, ASTContext &Ctx) {
  StorageSharing Sharing(Api, Ctx);
  // What V may share storage with after `At` in the original: the caller's tensor for a
  // parameter, what a local is ever given, anything for what outlives the function.
  StorageRoots Shared;
  if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && !V->getType()->isReferenceType()) {
    Shared = Sharing.rootsOfLocal(V, Body, 0);
    Shared.Decls.erase(V);
  } else {
    Shared.Decls.insert(V);
  }
  if (Shared.empty())
    return std::nullopt;
  StorageRoots Reach = Shared;
  Reach.Decls.insert(V);
  llvm::SmallVector<InPlaceWrite, 8> Writes;
  Sharing.inPlaceWrites(Body, Body, Writes, 0);
  const SourceManager &SM = Ctx.getSourceManager();
  if (const InPlaceWrite *W = firstWriteAfter(Reach, At, Body, Writes, SM))
    return "'" + V->getNameAsString() + "' may share storage with " +
           (isa<ParmVarDecl>(V) && Shared.Decls.size() == 1 && !Shared.Unknown ? "the caller's tensor"
                                                                                : describeRoots(Shared, V, Ctx)) +
           " after the " + (isLoop(At) ? "loop" : "if") + ", but where() would make it a new tensor: " +
           writeClause(*W, SM);
  return std::nullopt;
}

} // namespace graphify::rewriter
