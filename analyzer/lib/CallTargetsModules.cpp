// The modules a module holder runs. Invariant: as for callables (CallTargets.cpp), a holder's
// modules are only those graphify saw given to it; anything else makes it unseen, never empty.
#include "CallTargets.h"
#include "CallTargetsDetail.h"

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/DenseSet.h>

namespace graphify {

using namespace clang;
using namespace calltargets;

std::vector<const CXXMethodDecl *> CallTargets::forwardsOf(const CXXRecordDecl *Module) {
  std::vector<const CXXMethodDecl *> Out;
  if (!Module || !Module->hasDefinition())
    return Out;
  Module = Module->getDefinition();
  for (const NamedDecl *ND : Module->lookup(&Module->getASTContext().Idents.get("forward"))) {
    if (const auto *TD = dyn_cast<FunctionTemplateDecl>(ND))
      ND = TD->getTemplatedDecl();
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ND); MD && MD->isInstance())
      Out.push_back(MD);
  }
  if (Out.empty())
    for (const CXXBaseSpecifier &B : Module->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl()) {
        Out = forwardsOf(Base);
        if (!Out.empty())
          break;
      }
  return Out;
}

namespace {

/// The module class values of `T` are or point to: a module, a `ModuleHolder<Impl>` or a
/// `std::shared_ptr<Impl>` of one.
const CXXRecordDecl *moduleOf(QualType T, const ApiResolver &Api) {
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  if (Api.moduleFlavor(RD))
    return RD;
  // `TORCH_MODULE(Block)` declares `class Block : public ModuleHolder<BlockImpl>`.
  for (unsigned Depth = 0; RD && Depth < 3; ++Depth) {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
        if (A.getKind() == TemplateArgument::Type)
          if (const CXXRecordDecl *Inner = A.getAsType()->getAsCXXRecordDecl();
              Inner && Inner->hasDefinition() && Api.moduleFlavor(Inner))
            return Inner;
    RD = RD->getNumBases() == 1 ? RD->bases_begin()->getType()->getAsCXXRecordDecl() : nullptr;
    if (RD && !RD->hasDefinition())
      return nullptr;
  }
  return nullptr;
}

/// Whether a call of `M` runs the modules its object holds: a packs' `runs_held_modules` entry.
bool runsHeld(const CXXMethodDecl &M, const ApiResolver &Api) {
  return llvm::any_of(Api.memberEntries(M, M.getNumParams() + 1),
                      [](const ApiEntry *E) { return E->hasTag("runs_held_modules"); });
}

} // namespace

bool calltargets::mayHoldModules(QualType T, const ApiResolver &Api) {
  // Tensors are most of what library objects' methods are given: answer them without walking
  // the thousand methods of the tensor class.
  if (Api.isTensor(T.getNonReferenceType()))
    return false;
  if (moduleOf(T, Api))
    return true;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || !isLibraryObject(T, Api))
    return false;
  // `AnyModule::forward` is a member template.
  return llvm::any_of(RD->decls(), [&](const Decl *D) {
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      D = FT->getTemplatedDecl();
    const auto *M = dyn_cast<CXXMethodDecl>(D);
    return M && runsHeld(*M, Api);
  });
}

namespace {

/// Whether a module runs the modules it holds rather than its own computation (a `Sequential`):
/// its `forward` is a packs' `runs_held_modules` entry.
bool runsHeldModules(const CXXRecordDecl *Module, const ApiResolver &Api) {
  return llvm::any_of(CallTargets::forwardsOf(Module), [&](const CXXMethodDecl *F) { return runsHeld(*F, Api); });
}

/// What one value given to a module holder puts in it: modules (`Block(...)`, also inside
/// `AnyModule(...)`, `Sequential(a, b)`, `register_module("b", Block())`), other holders it
/// copies (`seq_ = seq`), or something graphify cannot follow (Opaque).
struct ModuleValue {
  const ApiResolver &Api;
  llvm::SmallVector<const CXXRecordDecl *, 4> Modules;
  llvm::SmallVector<const Decl *, 2> Holders;
  bool Opaque = false;

  void add(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return;
    E = skipValueWrappers(E);
    if (const CXXRecordDecl *M = moduleOf(E->getType(), Api); M && !runsHeldModules(M, Api)) {
      // `Block()` constructs a module; `Block(nullptr)` (an empty holder) holds none.
      const auto *CE = dyn_cast<CXXConstructExpr>(E);
      if (!CE || CE->getNumArgs() != 1 || !isa<CXXNullPtrLiteralExpr>(skipValueWrappers(CE->getArg(0))))
        Modules.push_back(M);
      return;
    }
    if (isEmptyCallable(E))
      return;
    if (const ValueDecl *H = namedHolder(E); H && mayHoldModules(H->getType(), Api)) {
      Holders.push_back(H->getCanonicalDecl());
      return;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      for (const Expr *Arg : CE->arguments())
        add(Arg, Depth + 1);
      return;
    }
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) { // `AnyModule(Block())`
      add(Cast->getSubExpr(), Depth + 1);
      return;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      for (const Expr *Init : IL->inits())
        add(Init, Depth + 1);
      return;
    }
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
      add(SIL->getSubExpr(), Depth + 1);
      return;
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      add(MT->getSubExpr(), Depth + 1);
      return;
    }
    // `register_module("seq", Sequential(...))` returns the holder it is given.
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      size_t Before = Modules.size() + Holders.size();
      for (const Expr *Arg : Call->arguments())
        if (mayHoldModules(Arg->getType(), Api))
          add(Arg, Depth + 1);
      Opaque |= Modules.size() + Holders.size() == Before;
      return;
    }
    // A literal, a name, a string: nothing a module runs, unless it has a module's type.
    if (moduleOf(E->getType(), Api))
      Opaque = true;
  }
};

} // namespace

CallTargets::HeldModules CallTargets::modulesRunBy(const Expr *Object) const {
  HeldModules Out;
  if (!Object)
    return Out;
  Object = throughAccess(Object);
  if (const CXXRecordDecl *M = moduleOf(Object->getType(), Api); M && !runsHeldModules(M, Api)) {
    Out.Modules.push_back(M);
    return Out;
  }
  const ValueDecl *Holder = namedHolder(Object);
  if (!Holder) {
    Out.Unseen = "unnamed";
    return Out;
  }
  scan();
  ModuleValue Values{Api};
  llvm::DenseSet<const Decl *> Seen;
  llvm::SmallVector<const Decl *, 4> Work{canon(Holder)};
  while (!Work.empty()) {
    const Decl *H = Work.pop_back_val();
    if (!Seen.insert(H).second)
      continue;
    size_t Known = Values.Holders.size();
    Values.add(declaredInit(H));
    if (auto It = Given.find(H); It != Given.end())
      for (const Expr *V : It->second)
        Values.add(V);
    Work.append(Values.Holders.begin() + Known, Values.Holders.end());
  }
  llvm::sort(Values.Modules);
  Out.Modules.assign(Values.Modules.begin(), std::unique(Values.Modules.begin(), Values.Modules.end()));
  if (Values.Opaque)
    Out.Unseen = "it is given a module graphify cannot follow";
  else if (Out.Modules.empty())
    Out.Unseen = "no module is given to it in the checked files";
  if (!Out.Unseen.empty())
    Out.Modules.clear();
  return Out;
}

} // namespace graphify
