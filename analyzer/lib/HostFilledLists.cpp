// Lists of tensors whose elements stay in host memory (HostOrigin.h): a local list only read by
// element, one filled only with tensors built or copied into host memory, or one stored into only
// where a flow-sensitive walk sees each store; the same for a private field of a class. Each use
// of the list is classified by what it does to it (listUse, readsOrStoresVisibly).
#include "graphify/analyzer/HostOrigin.h"

#include "RangeForLists.h"
#include "TensorLists.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMapContext.h>

namespace graphify {

using namespace clang;

bool elementsOnlyRead(const VarDecl *VD, const ApiResolver &Api) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return false;
  // Each statement with the chain of its ancestors (innermost last), skipping implicit nodes.
  struct Visit {
    const Stmt *S;
    const Stmt *Parent;
    const Stmt *GrandParent;
  };
  llvm::SmallVector<Visit, 64> Work{{FD->getBody(), nullptr, nullptr}};
  while (!Work.empty()) {
    auto [S, Parent, GrandParent] = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD) {
      // Read: `grid[i]`, `grid.at(i)` or `std::get<0>(best)`, not assigned to (`grid[0] =
      // x.cuda()` moves it).
      const auto *Element = dyn_cast_or_null<Expr>(Parent);
      if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Element); MC && MC->getMethodDecl() &&
                                                                        MC->getMethodDecl()->isConst())
        continue; // size(), empty()
      if (!Element || (listIndexed(Element, Api) == nullptr && tupleElementOf(Element) == nullptr))
        return false;
      if (const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(GrandParent);
          Assign && Assign->isAssignmentOp() && Assign->getArg(0)->IgnoreImplicit() == Element)
        return false;
      continue;
    }
    const bool Implicit = isa<ImplicitCastExpr>(S) || isa<ParenExpr>(S) || isa<MaterializeTemporaryExpr>(S) ||
                          isa<CXXBindTemporaryExpr>(S) || isa<MemberExpr>(S);
    for (const Stmt *C : S->children())
      Work.push_back(Implicit ? Visit{C, Parent, GrandParent} : Visit{C, S, Parent});
  }
  return true;
}

namespace {

/// The first ancestor of `E` that is not an implicit node, a conversion clang inserts (a
/// `std::vector<Tensor>` passed as a TensorList is wrapped in an ArrayRef construction) or the
/// member named on it (`parts.push_back` of `parts.push_back(t)`), or null.
const Stmt *explicitParent(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child = E;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!P)
      return nullptr;
    const auto *Ctor = dyn_cast<CXXConstructExpr>(P);
    if (!isa<ImplicitCastExpr>(P) && !isa<MaterializeTemporaryExpr>(P) && !isa<CXXBindTemporaryExpr>(P) &&
        !isa<ParenExpr>(P) && !isa<MemberExpr>(P) && !(Ctor && Ctor->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(Ctor)))
      return P;
    Child = P;
  }
  return nullptr;
}

/// Where the tensor stored into a list was put in host memory, as a walk that does not follow the
/// order of statements knows it: a factory given no device (not pinned), a copy to the CPU stored
/// as it is made (`dets.emplace_back(kept.to(torch::kCPU))`), or a local initialised with one and
/// never assigned after (`auto probs = out.to(torch::kCPU); cache[key] = probs;`). Null otherwise.
const Expr *hostStoredTensor(const Expr *Value, const ApiResolver &Api, unsigned Depth = 0) {
  if (auto Origin = findHostOrigin(Value, Api))
    return Origin->Pinned ? nullptr : Origin->Factory;
  return findHostResidentOrigin(Value, Api, [&](const Expr *Read) -> const Expr * {
    const auto *DRE = dyn_cast<DeclRefExpr>(Read);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || Depth > 4 || !VD->isLocalVarDecl() || VD->getType()->isReferenceType() || !VD->getInit() ||
        isAssignedAfterDeclaration(VD))
      return nullptr;
    return hostStoredTensor(VD->getInit(), Api, Depth + 1);
  });
}

/// How one use of a list of tensors treats it: reads it, adds a tensor built in host memory
/// (`Added`), or may put anything in it (nullopt).
std::optional<const Expr *> listUse(const Expr *Use, const ApiResolver &Api, ASTContext &Ctx) {
  // `for (const auto &d : parts)` reads each element; a loop variable that rebinds one may not.
  if (const CXXForRangeStmt *For = rangeForWalking(Use, Ctx))
    return loopVariableKeepsElements(*For) ? std::optional<const Expr *>(nullptr) : std::nullopt;
  const Stmt *P = explicitParent(Use, Ctx);
  if (isa_and_nonnull<ReturnStmt>(P)) // returned whole: the caller reads what it holds here
    return nullptr;
  // `parts[i]`, `parts.at(i)` read, not assigned to (`parts[0] = x.cuda()` moves it).
  if (const auto *Element = dyn_cast_or_null<Expr>(P); Element && listIndexed(Element, Api) &&
                                                       skipValueWrappers(listIndexed(Element, Api)) == Use) {
    // `cache[key] = probs`: stores that tensor.
    const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(explicitParent(Element, Ctx));
    if (Assign && Assign->isAssignmentOp() && skipValueWrappers(Assign->getArg(0)) == Element) {
      const Expr *Stored = Assign->getOperator() == OO_Equal ? hostStoredTensor(Assign->getArg(1), Api) : nullptr;
      return Stored ? std::optional<const Expr *>(Stored) : std::nullopt;
    }
    return nullptr;
  }
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(P);
      MC && skipValueWrappers(MC->getImplicitObjectArgument()) == Use) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || MD->isConst())
      return nullptr; // size(), empty()
    // `push_back(t)`, `emplace_back(t)` (which returns the new element since C++17),
    // `reserve(n)`, `pop_back()`: stores its tensor arguments, if any. A method given anything
    // else (an iterator to `insert` at, another list to `swap` with) may bring other tensors.
    const Expr *Added = nullptr;
    for (const Expr *Arg : MC->arguments()) {
      if (Api.isTensor(skipValueWrappers(Arg)->getType())) {
        const Expr *Stored = hostStoredTensor(Arg, Api);
        if (!Stored)
          return std::nullopt;
        Added = Added ? Added : Stored;
      } else if (!Arg->getType()->isIntegralOrEnumerationType()) {
        return std::nullopt;
      }
    }
    return Added;
  }
  // An argument of the tensor library (`torch::stack(parts)`, `torch::cat(parts, 0)`), which
  // reads the list it is given.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
    if (auto Resolved = Api.resolve(Call); Resolved && !Resolved->Entries.empty())
      return nullptr;
  return std::nullopt;
}

} // namespace

namespace {

/// Whether one use of a list of tensors reads it or stores one tensor into it where a
/// flow-sensitive analysis sees the store (storedTensor); false when it may put tensors there
/// unseen (handed to user code, `insert`, `swap`).
bool readsOrStoresVisibly(const DeclRefExpr *Use, const ApiResolver &Api, ASTContext &Ctx) {
  if (const CXXForRangeStmt *For = rangeForWalking(Use, Ctx))
    return loopVariableKeepsElements(*For);
  const Stmt *P = explicitParent(Use, Ctx);
  if (isa_and_nonnull<ReturnStmt>(P) ||
      (isa_and_nonnull<Expr>(P) && listIndexed(cast<Expr>(P), Api) && skipValueWrappers(listIndexed(cast<Expr>(P), Api)) == Use))
    return true; // returned, read, or assigned (`parts[i] = t`: storedTensor)
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(P);
      MC && skipValueWrappers(MC->getImplicitObjectArgument()) == Use) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || MD->isConst())
      return true;
    return llvm::all_of(MC->arguments(), [&](const Expr *Arg) {
      return Arg->getType()->isIntegralOrEnumerationType() || Api.isTensor(skipValueWrappers(Arg)->getType());
    });
  }
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
    if (auto Resolved = Api.resolve(Call); Resolved && !Resolved->Entries.empty())
      return true;
  return false;
}

} // namespace

/// Calls `Visit` on every use of the local list of tensors `VD` that starts empty, in its
/// function, until it answers false; false when `VD` is not such a list or `Visit` said so.
static bool forEachUseOfFreshList(const VarDecl *VD, llvm::function_ref<bool(const DeclRefExpr &)> Visit,
                                  const ApiResolver &Api, bool Braced = false) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(VD->getInit() ? skipValueWrappers(VD->getInit()) : nullptr);
  if (!FD || !FD->getBody() || !VD->isLocalVarDecl() || VD->getType()->isReferenceType() ||
      !isListOfTensors(VD->getType(), Api) || !Init ||
      (Init->getNumArgs() != 0 && !(Braced && initialTensors(VD, Api))))
    return false;
  llvm::SmallVector<const Stmt *, 64> Work{FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD) {
      if (!Visit(*DRE))
        return false;
      continue;
    }
    Work.append(S->child_begin(), S->child_end());
  }
  return true;
}

bool storedOnlyVisibly(const VarDecl *VD, const ApiResolver &Api) {
  ASTContext &Ctx = VD->getASTContext();
  return forEachUseOfFreshList(
      VD, [&](const DeclRefExpr &Use) { return readsOrStoresVisibly(&Use, Api, Ctx); }, Api, /*Braced=*/true);
}

std::optional<llvm::ArrayRef<const Expr *>> initialTensors(const VarDecl *VD, const ApiResolver &Api) {
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(VD->getInit() ? skipValueWrappers(VD->getInit()) : nullptr);
  if (!Init || !isListOfTensors(VD->getType(), Api))
    return std::nullopt;
  if (Init->getNumArgs() == 0)
    return llvm::ArrayRef<const Expr *>();
  // The initializer_list constructor, its allocator left to its default.
  const bool OneList = llvm::all_of(llvm::drop_begin(Init->arguments()),
                                    [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); });
  const InitListExpr *IL = OneList ? bracedList(Init->getArg(0)) : nullptr;
  if (!IL || !llvm::all_of(IL->inits(), [&](const Expr *E) { return Api.isTensor(skipValueWrappers(E)->getType()); }))
    return std::nullopt;
  return llvm::ArrayRef<const Expr *>(IL->getInits(), IL->getNumInits());
}

const VarDecl *storingList(const Expr *Target, const ApiResolver &Api) {
  const Expr *List = listIndexed(skipValueWrappers(Target), Api);
  const auto *DRE = List ? dyn_cast<DeclRefExpr>(skipValueWrappers(List)) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const Expr *hostFilledList(const VarDecl *VD, const ApiResolver &Api) {
  ASTContext &Ctx = VD->getASTContext();
  const Expr *First = nullptr;
  bool Host = forEachUseOfFreshList(
      VD,
      [&](const DeclRefExpr &Use) {
        std::optional<const Expr *> Added = listUse(&Use, Api, Ctx);
        if (!Added)
          return false;
        First = First ? First : *Added;
        return true;
      },
      Api);
  return Host ? First : nullptr;
}

const Expr *hostFilledFieldList(const FieldDecl *F, const ApiResolver &Api) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!RD || F->getAccess() == AS_public || !isListOfTensors(F->getType(), Api))
    return nullptr;
  ASTContext &Ctx = F->getASTContext();
  const Expr *First = nullptr;
  bool Host = true;
  for (const CXXMethodDecl *MD : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def))
      continue;
    llvm::SmallVector<const Stmt *, 64> Work{Def->getBody()};
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() == F && Init->isWritten())
          return nullptr; // initialised with tensors this walk does not classify (not the implicit empty list)
    while (Host && !Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() == F) {
        std::optional<const Expr *> Added;
        if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
          Added = listUse(ME, Api, Ctx);
        Host = Added.has_value();
        First = First ? First : (Added ? *Added : nullptr);
        continue;
      }
      if (isa<LambdaExpr>(S)) {
        Host = false; // a closure may run elsewhere, after the method returned
        break;
      }
      Work.append(S->child_begin(), S->child_end());
    }
    if (!Host)
      return nullptr;
  }
  return First;
}

} // namespace graphify
