// The taint interpreter. Invariant: after run(), every host expression of every analyzed body
// that may depend on a value read from a tensor has an origin in TaintFacts, and every tensor
// expression that is provably a boolean mask is recorded as one. Tensor-typed values themselves
// are never tainted: they are device values and stay in the graph; only their boolean-ness is
// tracked. Shapes (`size`, `sizes`, `dim`, `numel`) come from tensor methods that are not
// `data_dependent_output` and so stay clean.
//
// The interpreter walks statements in order (not a CFG): structured control flow is joined
// explicitly, loops iterate to a fixpoint, and `break`/`continue`/`return` hand their states to
// the enclosing construct. That is exact for the structured code model authors write; `goto`
// is treated as falling through (FIXME: no CFG edge for goto; it is absent from model code).
#include "graphify/analyzer/TaintAnalysis.h"

#include "TaintState.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <map>
#include <optional>
#include <tuple>

namespace graphify {

using namespace clang;

namespace {

/// What a caller needs to know about a function body.
struct FunctionSummary {
  TaintValue Return;       ///< taint of the returned value (Params: which parameters flow to it)
  /// Whether the returned tensor's shape follows tensor values (Params: the shapes of which
  /// tensor parameters flow to it).
  TaintValue ReturnShape;
  /// The length of a returned host container (Return is then its elements only).
  TaintValue ReturnSize;
  bool ReturnsMask = false;///< every return is a provable boolean mask
  /// Every return is a tensor in pageable host memory. Only read for functions defined in
  /// another TU (imported): a body of this TU is followed to its factory (HostOrigin.h).
  bool ReturnsHost = false;
  bool SawReturn = false;
  /// Per parameter: what a reference or pointer parameter holds at exit (a host container's
  /// elements), and how many elements a host container parameter holds then. Kept apart so that
  /// a helper filling a vector with tensor values at static positions does not make its length
  /// data dependent for the caller.
  llvm::SmallVector<TaintValue, 4> Out, OutSize;
  /// Per parameter: for a `Tensor&` parameter, the call that left the tensor it holds at every
  /// exit in pageable host memory (`out = torch::from_blob(...).clone();`), or a parameter's
  /// placeholder (`Impl::paramPlaceholder`) when it holds whatever that parameter held at the
  /// call (`padded = pad(original, ...)`, or left as it came); null when it may be on a device.
  /// Kept within the TU: the calls are this TU's nodes.
  llvm::SmallVector<const Expr *, 4> OutHost;

  unsigned weight() const {
    unsigned W = Return.tainted() + llvm::popcount(Return.Params) + ReturnsMask + ReturnsHost + ReturnShape.tainted() +
                 llvm::popcount(ReturnShape.Params) + ReturnSize.tainted() + llvm::popcount(ReturnSize.Params);
    W += llvm::count_if(OutHost, [](const Expr *O) { return O != nullptr; });
    for (const TaintValue &V : Out)
      W += V.tainted() + llvm::popcount(V.Params);
    for (const TaintValue &V : OutSize)
      W += V.tainted() + llvm::popcount(V.Params);
    return W;
  }

  /// Joins what another round (or another body of the same function) found. Summaries only grow
  /// across rounds, so that the rounds terminate.
  void absorb(const FunctionSummary &Sum) {
    Return = join(Return, Sum.Return);
    ReturnShape = join(ReturnShape, Sum.ReturnShape);
    ReturnSize = join(ReturnSize, Sum.ReturnSize);
    ReturnsMask = Sum.ReturnsMask;
    ReturnsHost = ReturnsHost || Sum.ReturnsHost; // a must-fact, kept once found (as OutHost)
    SawReturn = Sum.SawReturn;
    auto JoinAll = [](llvm::SmallVector<TaintValue, 4> &Into, llvm::ArrayRef<TaintValue> From) {
      if (Into.size() < From.size())
        Into.resize(From.size());
      for (unsigned J = 0; J < From.size(); ++J)
        Into[J] = join(Into[J], From[J]);
    };
    JoinAll(Out, Sum.Out);
    JoinAll(OutSize, Sum.OutSize);
    // Host residency is a must-fact: the latest round's answer, but one found is not forgotten,
    // so that the weight still only grows.
    if (OutHost.size() < Sum.OutHost.size())
      OutHost.resize(Sum.OutHost.size(), nullptr);
    for (unsigned J = 0; J < Sum.OutHost.size(); ++J)
      if (Sum.OutHost[J])
        OutHost[J] = Sum.OutHost[J];
  }
};

const FunctionDecl *key(const FunctionDecl *FD) { return FD ? FD->getCanonicalDecl() : nullptr; }

bool isLocal(const VarDecl *VD) { return VD->hasLocalStorage() || isa<ParmVarDecl>(VD); }

/// The variable an lvalue ultimately lives in (`v` for `v[i]`, `s.f`, `*p`, `v.at(i)`), or null.
const VarDecl *rootVariable(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E))
      E = UO->getSubExpr();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      E = MC->getImplicitObjectArgument();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() >= 1)
      E = OC->getArg(0);
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

/// The field of `*this` an lvalue ultimately lives in (`history_` for `history_[i]`,
/// `this->boxes[i].score`), or null.
const FieldDecl *rootThisField(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return dyn_cast<FieldDecl>(ME->getMemberDecl());
      E = ME->getBase();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      E = MC->getImplicitObjectArgument();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() >= 1) {
      E = OC->getArg(0);
    } else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// Whether the `I`th parameter of the template instantiation `F` was declared as a forwarding
/// reference (`template <typename... A> void debug(const char *fmt, A &&...args)`): it binds
/// an lvalue as a non-const reference only to pass it on as given — a logger's or a formatter's
/// arguments, an `emplace`'s constructor arguments — so it is taken as read, not written.
bool isForwardingReference(const FunctionDecl &F, unsigned I) {
  const FunctionDecl *Pattern = F.getTemplateInstantiationPattern();
  if (!Pattern)
    return false;
  unsigned Covered = 0;
  for (const ParmVarDecl *P : Pattern->parameters()) {
    // A pack stands for as many instantiated parameters as the others leave.
    const unsigned Count = P->isParameterPack() ? F.getNumParams() + 1 - Pattern->getNumParams() : 1;
    if (I < Covered + Count) {
      QualType T = P->getType();
      if (const auto *Pack = T->getAs<PackExpansionType>())
        T = Pack->getPattern();
      const auto *Ref = T->getAs<RValueReferenceType>();
      return Ref && !Ref->getPointeeType().hasQualifiers() && Ref->getPointeeType()->getAs<TemplateTypeParmType>();
    }
    Covered += Count;
  }
  return false;
}

/// `size()`, `empty()`, `has_value()`, `operator bool`: a const method without parameters
/// that returns an integer or a bool by value. On a container it reads how many elements there
/// are, not what they hold. Told by the signature, not by name.
bool isSizeQuery(const CXXMethodDecl &MD) {
  QualType R = MD.getReturnType();
  return MD.isConst() && MD.getNumParams() == 0 && !R->isReferenceType() &&
         (R->isIntegerType() || R->isBooleanType());
}

/// `v.begin()`, `v.end()`, `v.rbegin()`: a non-const method without parameters that returns an
/// object by value. On a host container it hands out a position, not elements or a new length
/// (a `pop_back()` or a `clear()` returns nothing). Told by the signature, not by name.
bool returnsIterator(const CXXMethodDecl &MD) {
  QualType R = MD.getReturnType();
  return !MD.isConst() && MD.getNumParams() == 0 && !R->isReferenceType() && R->isRecordType();
}

/// `v[i]`, `v.at(i)`, `v.front()`, `opt.value()`: a reference to one element, chosen by
/// integer positions (or none). It reads that element, not the number of elements.
bool isElementRead(const CXXMethodDecl &MD) {
  return MD.getReturnType()->isLValueReferenceType() &&
         llvm::all_of(MD.parameters(), [](const ParmVarDecl *P) {
           return !P->getType()->isReferenceType() && P->getType()->isIntegerType();
         });
}

/// An opaque non-const method of an object that is not a container: one that returns nothing
/// (`add(w)`, `update(s)`) or the object itself (a builder) is taken to store its arguments; one
/// that returns a value (`lookup(id)`, `decode(ids)`) is taken to compute it from them. A method
/// whose body the analysis sees needs no such guess.
bool storesArguments(const CXXMethodDecl &MD) {
  QualType R = MD.getReturnType();
  if (R->isVoidType())
    return true;
  const CXXRecordDecl *Self = MD.getParent();
  const CXXRecordDecl *Returned = R.getNonReferenceType()->getAsCXXRecordDecl();
  return Returned && Self && Returned->getCanonicalDecl() == Self->getCanonicalDecl();
}

/// The key under which a local container's number of elements is tracked (its elements are
/// under `{VD, nullptr}`).
const char ContainerSizeSlot = 0;
TaintKey sizeKey(const VarDecl *VD) { return {VD, &ContainerSizeSlot}; }

/// Summary bits (TaintValue::Params): bit i stands for what parameter i holds, bit 32 + i for
/// the number of elements of host-container parameter i, which a caller's container may have
/// apart from its elements (`loop to w.size()` in a helper given a vector of read values of a
/// static length is not data dependent). Parameters past the 32nd get no bit.
constexpr unsigned SizeBits = 32;
uint64_t paramBit(unsigned I) { return I < SizeBits ? uint64_t(1) << I : 0; }
uint64_t sizeBit(unsigned I) { return I < SizeBits ? uint64_t(1) << (SizeBits + I) : 0; }

/// Whether running `S` may leave it by `return` (then the code after a branch around it runs
/// only on some values), or leave the enclosing loop body by `break`/`continue`. Lambdas and
/// nested loops (for break and continue) and switches (for break) keep their own jumps.
struct Exits {
  bool Returns = false, LeavesLoop = false;
};
void findExits(const Stmt *S, Exits &J, bool InLoop = false, bool InSwitch = false) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt>(S))
    J.Returns = true;
  else if (isa<ContinueStmt>(S) && !InLoop)
    J.LeavesLoop = true;
  else if (isa<BreakStmt>(S) && !InLoop && !InSwitch)
    J.LeavesLoop = true;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    findExits(Child, J, InLoop || Loop, InSwitch || isa<SwitchStmt>(S));
}

std::string nameOf(const NamedDecl *D) {
  if (const auto *DD = dyn_cast_or_null<DecompositionDecl>(D)) {
    std::string Names;
    for (const BindingDecl *B : DD->bindings())
      Names += (Names.empty() ? "" : ", ") + B->getNameAsString();
    return "[" + Names + "]";
  }
  if (!D || !D->getIdentifier())
    return "value";
  return D->getNameAsString();
}

std::string calleeName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return "the lambda";
  return "'" + FD->getNameAsString() + "'";
}

} // namespace

class TaintAnalysis::Impl {
public:
  Impl(ASTContext &Ctx, TaintFacts &Facts, std::function<bool(const Decl *)> IsRegion)
      : Ctx(Ctx), Facts(Facts), Api(Facts.api()), IsRegion(std::move(IsRegion)) {}

  ASTContext &Ctx;
  TaintFacts &Facts;
  const ApiResolver &Api;
  std::function<bool(const Decl *)> IsRegion;

  llvm::DenseMap<const FunctionDecl *, FunctionSummary> Summaries;
  /// Taint a parameter receives at some analyzed call site (context for reporting in helpers).
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const TracedOrigin *, 4>> ParamEntry;
  /// The same for the length of a host container parameter, which may be clean while its
  /// elements hold tensor values (a vector filled at static positions).
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const TracedOrigin *, 4>> ParamSizeEntry;
  /// Fields written from tensor data anywhere in the TU (flow-insensitive, per FieldDecl).
  llvm::DenseMap<const FieldDecl *, const TracedOrigin *> FieldTaint;
  /// Globals and statics written from tensor data anywhere in the TU.
  llvm::DenseMap<const VarDecl *, const TracedOrigin *> GlobalTaint;
  /// Fields holding a tensor (or tensors) given a value-dependent shape anywhere in the TU.
  llvm::DenseMap<const FieldDecl *, const TracedOrigin *> FieldShapes;
  /// Container fields whose number of elements follows tensor data anywhere in the TU.
  llvm::DenseMap<const FieldDecl *, const TracedOrigin *> FieldSizes;
  /// Tensor fields that a function of the TU leaves holding a tensor in pageable host memory
  /// when it returns (a constructor, a method that ends with `cache_ = out.to(kCPU)`; with the
  /// call that put it there), and those that a function leaves holding anything else, or that
  /// are passed where a callee may rebind them. A field that every function leaves in host
  /// memory holds a host tensor whenever a method starts.
  llvm::DenseMap<const FieldDecl *, const Expr *> FieldHostWrites;
  /// hostFilledList of each local list of tensors, computed once: a declaration is visited again
  /// on every round of a loop's fixpoint, and the answer walks the whole function.
  llvm::DenseMap<const VarDecl *, const Expr *> HostFilledLists;
  llvm::DenseSet<const FieldDecl *> FieldOtherWrites;

  /// A tensor parameter's stand-in origin while its function is summarised: "in host memory if
  /// the caller's argument was". It lets a summary say that a `Tensor&` parameter leaves with
  /// what another parameter came with (`padded = pad(original)`); it is never a fact of the
  /// program itself (`realHostOrigin`).
  const Expr *paramPlaceholder(const ParmVarDecl *P) {
    auto [It, New] = Placeholders.try_emplace(P, nullptr);
    if (New) {
      It->second = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), const_cast<ParmVarDecl *>(P),
                                       false, P->getLocation(), P->getType().getNonReferenceType(), VK_LValue);
      PlaceholderParams[It->second] = P;
    }
    return It->second;
  }
  /// The parameter `E` stands in for, when it is a placeholder.
  const ParmVarDecl *placeholderParam(const Expr *E) const { return E ? PlaceholderParams.lookup(E) : nullptr; }
  /// `Origin`, or null when it is a placeholder rather than a call of the program.
  const Expr *realHostOrigin(const Expr *Origin) const { return placeholderParam(Origin) ? nullptr : Origin; }

  llvm::DenseMap<const ParmVarDecl *, const Expr *> Placeholders;
  llvm::DenseMap<const Expr *, const ParmVarDecl *> PlaceholderParams;

  unsigned weight() const {
    unsigned W = FieldTaint.size() + GlobalTaint.size() + FieldShapes.size() + FieldSizes.size() +
                 FieldHostWrites.size() + FieldOtherWrites.size();
    for (const auto &KV : Summaries)
      W += KV.second.weight();
    for (const auto *Entries : {&ParamEntry, &ParamSizeEntry})
      for (const auto &KV : *Entries)
        W += llvm::count_if(KV.second, [](const TracedOrigin *O) { return O != nullptr; });
    return W;
  }

  void noteParamEntry(const FunctionDecl *Callee, unsigned Index, const TracedOrigin *O, bool Size = false) {
    if (!O)
      return;
    auto &Slots = (Size ? ParamSizeEntry : ParamEntry)[key(Callee)];
    if (Slots.size() <= Index)
      Slots.resize(Index + 1, nullptr);
    if (!Slots[Index])
      Slots[Index] = O;
  }

  /// What parameter `Index` receives at some call site: its value, or (`Size`) a host
  /// container's length. Another TU's entries say only the value, which stands for both there.
  const TracedOrigin *paramEntry(const FunctionDecl *FD, unsigned Index, bool Size = false) {
    const auto &Entries = Size ? ParamSizeEntry : ParamEntry;
    auto It = Entries.find(key(FD));
    if (It != Entries.end() && Index < It->second.size() && It->second[Index])
      return It->second[Index];
    if (!Program)
      return nullptr;
    const std::string &Usr = lookup("P:", FD);
    auto Imp = Program->ParamEntries.find(Usr);
    if (Imp == Program->ParamEntries.end() || Index >= Imp->second.size())
      return nullptr;
    return imported(Imp->second[Index]);
  }

  void analyzeFunction(const FunctionDecl *FD);

  // --- whole-program mode ------------------------------------------------------------------

  const ProgramFacts *Program = nullptr;
  std::set<std::string> *Lookups = nullptr;
  llvm::DenseMap<const Decl *, std::string> Usrs;
  llvm::DenseMap<const PortableOrigin *, const TracedOrigin *> ImportedOrigins;
  llvm::DenseMap<const FunctionDecl *, std::optional<FunctionSummary>> ImportedSummaries;

  const std::string &usr(const Decl *D) {
    auto [It, New] = Usrs.try_emplace(D->getCanonicalDecl());
    if (New)
      It->second = usrOf(D);
    return It->second;
  }

  /// The USR of `D`, recorded as looked up under `Kind` ("S:", "P:", "F:", "G:").
  const std::string &lookup(const char *Kind, const Decl *D) {
    const std::string &Usr = usr(D);
    if (Lookups && !Usr.empty())
      Lookups->insert(Kind + Usr);
    return Usr;
  }

  /// A local origin standing for a read in another TU (one per portable origin).
  const TracedOrigin *imported(const PortableOrigin *P) {
    if (!P)
      return nullptr;
    auto [It, New] = ImportedOrigins.try_emplace(P, nullptr);
    if (New) {
      TracedOrigin *O = Facts.newOrigin();
      O->What = P->What;
      O->SizeOfSelection = P->SizeOfSelection;
      O->FromSelection = P->FromSelection || P->SizeOfSelection;
      O->ThroughControl = P->ThroughControl;
      O->Imported = P;
      It->second = O;
    }
    return It->second;
  }

  /// The summary of a function defined in another TU, or null when the program has none.
  const FunctionSummary *importedSummary(const FunctionDecl *FD) {
    if (!Program || !FD)
      return nullptr;
    auto [It, New] = ImportedSummaries.try_emplace(key(FD));
    if (New) {
      auto S = Program->Summaries.find(lookup("S:", FD));
      if (S != Program->Summaries.end()) {
        FunctionSummary Sum;
        Sum.Return = {imported(S->second.Return.Origin), S->second.Return.Params, nullptr};
        Sum.ReturnSize = {imported(S->second.ReturnSize.Origin), S->second.ReturnSize.Params, nullptr};
        Sum.ReturnShape = {imported(S->second.ReturnShape.Origin), S->second.ReturnShape.Params, nullptr,
                           S->second.ReturnShape.AnyDim};
        Sum.ReturnsMask = S->second.ReturnsMask;
        Sum.ReturnsHost = S->second.ReturnsHost;
        Sum.SawReturn = true;
        for (const PortableValue &V : S->second.Out)
          Sum.Out.push_back({imported(V.Origin), V.Params, nullptr});
        for (const PortableValue &V : S->second.OutSize)
          Sum.OutSize.push_back({imported(V.Origin), V.Params, nullptr});
        It->second = std::move(Sum);
      }
    }
    return It->second ? &*It->second : nullptr;
  }

  const TracedOrigin *importedField(const FieldDecl *F) {
    if (!Program)
      return nullptr;
    auto It = Program->Fields.find(lookup("F:", F));
    return It == Program->Fields.end() ? nullptr : imported(It->second);
  }

  const TracedOrigin *importedFieldShape(const FieldDecl *F) {
    if (!Program)
      return nullptr;
    auto It = Program->FieldShapes.find(lookup("H:", F));
    return It == Program->FieldShapes.end() ? nullptr : imported(It->second);
  }

  const TracedOrigin *importedFieldSize(const FieldDecl *F) {
    if (!Program)
      return nullptr;
    auto It = Program->FieldSizes.find(lookup("N:", F));
    return It == Program->FieldSizes.end() ? nullptr : imported(It->second);
  }

  const TracedOrigin *importedGlobal(const VarDecl *VD) {
    if (!Program)
      return nullptr;
    auto It = Program->Globals.find(lookup("G:", VD));
    return It == Program->Globals.end() ? nullptr : imported(It->second);
  }

  /// `O` in portable form: the imported part as it came, then the steps taken here.
  PortableOrigin portable(const TracedOrigin &O) const {
    const SourceManager &SM = Ctx.getSourceManager();
    PortableOrigin P;
    if (O.Imported) {
      P = *O.Imported;
    } else {
      P.What = O.What;
      P.SizeOfSelection = O.SizeOfSelection;
      P.FromSelection = O.FromSelection;
      P.ThroughControl = O.ThroughControl;
      SourceLocation Read = O.SourceLoc.isValid() ? O.SourceLoc
                                                  : (O.Source ? O.Source->getExprLoc() : SourceLocation());
      P.Read = portablePoint(SM, Read);
    }
    for (size_t I = 0; I < O.Steps.size(); ++I) {
      SourceLocation L = I < O.StepLocs.size() ? O.StepLocs[I] : SourceLocation();
      if (L.isInvalid() && O.Steps[I].first)
        L = O.Steps[I].first->getBeginLoc();
      if (L.isValid())
        P.Steps.push_back({portablePoint(SM, L), O.Steps[I].second});
    }
    return P;
  }

  const PortableOrigin *keep(FactTable &Out, const TracedOrigin *O) const {
    if (!O)
      return nullptr;
    PortableOrigin P = portable(*O);
    return Out.keep(&P);
  }
};

namespace {

/// Interprets one body (a function, or a lambda in the state it captures).
class BodyInterpreter {
public:
  BodyInterpreter(TaintAnalysis::Impl &A, const FunctionDecl *FD, TaintState Init)
      : A(A), Facts(A.Facts), Api(A.Api), FD(FD), S(std::move(Init)) {
    InRegion = A.IsRegion(FD);
  }

  /// Seeds parameter i with its call-site taint and the summary bit i.
  void seedParameters() {
    for (const ParmVarDecl *P : FD->parameters()) {
      unsigned I = P->getFunctionScopeIndex();
      TaintValue V{nullptr, paramBit(I), A.paramEntry(FD, I)};
      // A tensor parameter's bit and call-site entry stand for its shape; it is in host memory
      // when the caller's argument is.
      if (Api.isTensor(P->getType())) {
        S.DynamicShapes[P] = V;
        S.HostTensors[P] = A.paramPlaceholder(P);
        continue;
      }
      S.Values[{P, nullptr}] = V;
      if (isHostContainerType(P->getType()))
        S.Values[sizeKey(P)] = {nullptr, sizeBit(I), A.paramEntry(FD, I, /*Size=*/true)};
    }
  }

  void runConstructorInits() {
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD);
    if (!Ctor)
      return;
    for (const CXXCtorInitializer *Init : Ctor->inits()) {
      if (!Init->isWritten() || !Init->getMember())
        continue;
      TaintValue V = eval(Init->getInit());
      writeField(nullptr, Init->getMember(), V, Init->getMemberLocation(), Init->getInit(),
                 /*Strong=*/true, /*Whole=*/true);
      if (Api.isTensor(Init->getMember()->getType()))
        rebindField(Init->getMember(), Init->getInit());
      if (TaintValue Shape = dynamicShape(Init->getInit()); Shape.tainted() && !A.FieldShapes.count(Init->getMember()))
        A.FieldShapes[Init->getMember()] =
            step(Shape, Init->getMemberLocation(), Init->getInit(),
                 "stored in field '" + nameOf(Init->getMember()) + "' here").origin();
    }
  }

  void runBody(const Stmt *Body) {
    stmt(Body);
    Exit = joinStates(Exit, S);
    recordFieldExits();
  }

  /// The tensor fields of `*this` start as every function of the TU leaves them. A field's
  /// in-class initialiser is what a constructor that does not name the field leaves in it.
  void seedFields() {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!MD || !MD->getParent())
      return;
    for (const FieldDecl *F : MD->getParent()->fields())
      if (Api.isTensor(F->getType()) && F->hasInClassInitializer() && F->getInClassInitializer())
        noteFieldAtExit(F, hostResident(F->getInClassInitializer()));
    for (const auto &[F, Origin] : A.FieldHostWrites)
      if (!A.FieldOtherWrites.contains(F))
        S.HostTensors[F] = Origin;
  }

  FunctionSummary summarize() const {
    FunctionSummary Sum;
    Sum.Return = {Ret.Origin, Ret.Params, nullptr};
    Sum.ReturnShape = {RetShape.Origin, RetShape.Params, nullptr, RetShape.AnyDim};
    Sum.ReturnSize = {RetSize.Origin, RetSize.Params, nullptr};
    Sum.ReturnsMask = SawReturn && AllReturnsMask;
    Sum.ReturnsHost = SawReturn && AllReturnsHost;
    Sum.SawReturn = SawReturn;
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType();
      bool Out = (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) ||
                 (T->isPointerType() && !T->getPointeeType().isConstQualified());
      bool Container = Out && isHostContainerType(T);
      unsigned I = P->getFunctionScopeIndex();
      // A parameter that still holds only its own incoming value carries no news for callers.
      auto News = [&](TaintValue V) {
        V.Context = nullptr;
        return !V.Origin && (V.Params == paramBit(I) || V.Params == sizeBit(I)) ? TaintValue{} : V;
      };
      if (!Out) {
        Sum.Out.push_back({});
        Sum.OutSize.push_back({});
      } else if (Container) {
        Sum.Out.push_back(News(Exit.get({P, nullptr})));
        Sum.OutSize.push_back(News(Exit.get(sizeKey(P))));
      } else {
        Sum.Out.push_back(News(join(Exit.get({P, nullptr}), Exit.get(sizeKey(P)))));
        Sum.OutSize.push_back({});
      }
      bool TensorOut = T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() && Api.isTensor(T);
      Sum.OutHost.push_back(TensorOut && !Exit.Unreachable ? Exit.HostTensors.lookup(P) : nullptr);
    }
    return Sum;
  }

  /// The state where the body ends (joined over returns), for by-reference captures.
  const TaintState &exitState() const { return Exit; }

  TaintState S;

private:
  TaintAnalysis::Impl &A;
  TaintFacts &Facts;
  const ApiResolver &Api;
  const FunctionDecl *FD;
  bool InRegion = false;
  TaintState Exit = TaintState::unreachable();
  /// The tensor fields of `*this` this body rebinds (what it leaves in them is recorded at exit).
  llvm::DenseSet<const FieldDecl *> WrittenFields;
  TaintValue Ret;
  TaintValue RetShape;
  /// The length of the returned host container, when the function returns one.
  TaintValue RetSize;
  /// The elements and the length of host containers returned by calls evaluated here, each as
  /// the callee leaves it (the expression's own taint joins both).
  llvm::DenseMap<const Expr *, std::pair<TaintValue, TaintValue>> ReturnedContainers;
  /// The conditions of the enclosing branches and loops, outermost first (structured control;
  /// the exits that outlive their construct are in the state: LoopExits, FunctionExits).
  std::vector<TaintValue> Control;
  /// Where a local container was declared: how deep in Control, and the exits taken before.
  /// Conditions that enclose the declaration too do not make its length vary.
  struct Declaration {
    size_t Depth = 0;
    TaintValue LoopExits, FunctionExits;
  };
  llvm::DenseMap<const VarDecl *, Declaration> Declared;
  /// The depths of Control that hold a loop's trip count. Inside the body a counter follows
  /// the iteration; the loop's data-dependent trip count reaches it when the loop ends.
  llvm::SmallDenseSet<size_t, 4> LoopDepths;
  /// Per enclosing loop, innermost last: the local host scalars its body writes (`++n`, `n += w`,
  /// `best = i`).
  std::vector<llvm::SmallDenseSet<TaintKey, 4>> WrittenInLoop;
  /// Per enclosing loop: its condition and increment. The variables they read step the loop
  /// (`i` of `for (i = 0; i < 8; ++i)`); the loop's own finding covers them.
  std::vector<llvm::SmallVector<const Stmt *, 2>> LoopHeads;
  bool SawReturn = false;
  bool AllReturnsMask = true;
  bool AllReturnsHost = true;

  struct JumpTargets {
    std::vector<TaintState> Breaks, Continues;
  };
  std::vector<JumpTargets> Jumps;

  // --- origins ---------------------------------------------------------------------------

  const TracedOrigin *extend(const TracedOrigin *O, SourceLocation Loc, const Stmt *At,
                             const std::string &Msg) {
    if (!O)
      return O;
    if (!O->StepLocs.empty() && O->StepLocs.back() == Loc && O->Steps.back().second == Msg)
      return O;
    if (O->Steps.size() >= 8)
      return O;
    TracedOrigin *N = Facts.newOrigin();
    *N = *O;
    N->Steps.push_back({At, Msg});
    N->StepLocs.push_back(Loc);
    return N;
  }

  TaintValue step(TaintValue V, SourceLocation Loc, const Stmt *At, const std::string &Msg) {
    V.Origin = extend(V.Origin, Loc, At, Msg);
    V.Context = extend(V.Context, Loc, At, Msg);
    return V;
  }

  TracedOrigin *source(const ApiCall &C, const ApiEntry &Entry) {
    TracedOrigin *O = Facts.newOrigin();
    O->Source = C.Call;
    O->SourceLoc = C.NameLoc;
    O->What = "'" + C.Name + "'" + (Entry.Doc.empty() ? "" : " " + Entry.Doc);
    return O;
  }

  /// A host value reaches the graph here (tensor math, a branch, a loop, a size, a return).
  void use(TaintValue V) {
    if (V.Origin)
      Facts.recordUse(V.Origin->Source);
    if (V.Context)
      Facts.recordUse(V.Context->Source);
  }

  // --- storage -----------------------------------------------------------------------------

  TaintValue readVar(const VarDecl *VD) {
    if (isLocal(VD))
      return isHostContainerType(VD->getType()) ? join(S.get({VD, nullptr}), S.get(sizeKey(VD)))
                                            : S.get({VD, nullptr});
    auto It = A.GlobalTaint.find(VD);
    return {It == A.GlobalTaint.end() ? A.importedGlobal(VD) : It->second, 0};
  }

  TaintValue fieldTaint(const FieldDecl *F) {
    auto It = A.FieldTaint.find(F);
    return {It == A.FieldTaint.end() ? A.importedField(F) : It->second, 0};
  }

  /// How many elements a container field holds: data-dependent when it grew under a
  /// data-dependent condition (or by a data-dependent count) anywhere in the TU.
  TaintValue fieldSize(const FieldDecl *F) {
    auto It = A.FieldSizes.find(F);
    return {It == A.FieldSizes.end() ? A.importedFieldSize(F) : It->second, 0};
  }

  /// Whether control reaches here depending on tensor data: the enclosing conditions, and the
  /// data-dependent exits taken earlier on this path.
  TaintValue reached() const { return reachedSince(Declaration{}); }

  /// The same, counting only what happened since `D`: a container declared inside a branch or
  /// a loop body has the same length on every path through it.
  TaintValue reachedSince(const Declaration &D, bool SkipLoops = false) const {
    TaintValue V;
    for (size_t I = D.Depth; I < Control.size(); ++I)
      if (!SkipLoops || !LoopDepths.contains(I))
        V = join(V, Control[I]);
    auto Same = [](const TaintValue &X, const TaintValue &Y) {
      return X.Origin == Y.Origin && X.Context == Y.Context && X.Params == Y.Params;
    };
    if (!Same(S.LoopExits, D.LoopExits))
      V = join(V, S.LoopExits);
    if (!Same(S.FunctionExits, D.FunctionExits))
      V = join(V, S.FunctionExits);
    return V;
  }

  /// Whether control reaches here depending on tensor data, since local `VD` was declared (the
  /// exits: since it was last emptied on every path here, `v.clear()`).
  TaintValue reachedSince(const VarDecl *VD) const {
    auto It = Declared.find(VD);
    Declaration D = It == Declared.end() ? Declaration{} : It->second;
    if (auto E = S.Emptied.find(VD); E != S.Emptied.end())
      std::tie(D.LoopExits, D.FunctionExits) = E->second;
    return reachedSince(D);
  }

  /// Writes variable `VD`; `Note` replaces the default "assigned to 'v' here" step (empty: the
  /// caller already recorded the step).
  void setVar(const VarDecl *VD, TaintValue V, SourceLocation Loc, const Stmt *At, bool Strong,
              std::optional<std::string> Note = std::nullopt) {
    if (Api.isTensor(VD->getType()))
      return;
    std::string Msg = Note ? *Note : "assigned to '" + nameOf(VD) + "' here";
    if (!Msg.empty())
      V = step(V, Loc, At, Msg);
    if (!isLocal(VD)) {
      if (V.tainted() && !A.GlobalTaint.count(VD))
        A.GlobalTaint[VD] = V.origin();
      return;
    }
    writeKey({VD, nullptr}, V, Strong);
    // A whole container is replaced (or written by a call we cannot see): its number of
    // elements comes with the value, and with the conditions under which it is replaced
    // (`if (s > best) top = {i};`).
    if (isHostContainerType(VD->getType()))
      writeKey(sizeKey(VD), join(V, reachedSince(VD)), Strong);
  }

  void writeKey(TaintKey K, TaintValue V, bool Strong) {
    if (Strong) {
      if (V.empty())
        S.Values.erase(K);
      else
        S.Values[K] = V;
    } else if (!V.empty()) {
      S.Values[K] = join(S.get(K), V);
    }
  }

  /// `v[i] = s`, `v.at(i) = s`, `v[i].score = s`: the elements of local `VD` may now hold `V`;
  /// how many elements there are does not change.
  void storeElement(const VarDecl *VD, TaintValue V, SourceLocation Loc, const Stmt *At) {
    if (Api.isTensor(VD->getType()))
      return;
    V = step(V, Loc, At, "stored into '" + nameOf(VD) + "' here");
    if (!isLocal(VD)) {
      if (V.tainted() && !A.GlobalTaint.count(VD))
        A.GlobalTaint[VD] = V.origin();
      return;
    }
    writeKey({VD, nullptr}, V, /*Strong=*/false);
  }

  /// The container field `F` may now hold a different number of elements, depending on `V`.
  void growField(const FieldDecl *F, TaintValue V, SourceLocation Loc, const Stmt *At) {
    if (V.tainted() && !A.FieldSizes.count(F))
      A.FieldSizes[F] = step(V, Loc, At, "the length of '" + nameOf(F) + "' follows tensor data from here").origin();
  }

  /// Writes field `F` of `Base` (null: *this). `Whole`: the field is replaced, not one of its
  /// elements, so a container's number of elements comes with the value.
  void writeField(const VarDecl *Base, const FieldDecl *F, TaintValue V, SourceLocation Loc,
                  const Stmt *At, bool Strong, bool Whole, const char *Verb = "stored in field") {
    if (Api.isTensor(F->getType()))
      return;
    V = step(V, Loc, At, std::string(Verb) + " '" + nameOf(F) + "' here");
    if (V.tainted() && !A.FieldTaint.count(F))
      A.FieldTaint[F] = V.origin();
    if (Whole && isHostContainerType(F->getType()) && V.tainted() && !A.FieldSizes.count(F))
      A.FieldSizes[F] = V.origin();
    if (Base && !isLocal(Base))
      return;
    TaintKey K{Base, F};
    if (Strong || !S.Values.count(K))
      S.Values[K] = V;
    else
      S.Values[K] = join(S.get(K), V);
  }

  /// Stores a host value into the lvalue `LHS`. Whole variables and fields are overwritten
  /// (a clean value clears their taint); elements of containers and pointees are joined.
  void assign(const Expr *LHS, TaintValue V, const Stmt *At) {
    LHS = LHS->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        setVar(VD, V, DRE->getLocation(), At, /*Strong=*/!VD->getType()->isReferenceType() ||
                                                        isa<ParmVarDecl>(VD));
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(LHS)) {
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
        if (isa<CXXThisExpr>(Base))
          writeField(nullptr, F, V, ME->getMemberLoc(), At, true, /*Whole=*/true);
        else if (const auto *BD = dyn_cast<DeclRefExpr>(Base); BD && isa<VarDecl>(BD->getDecl()))
          writeField(cast<VarDecl>(BD->getDecl()), F, V, ME->getMemberLoc(), At, true, /*Whole=*/true);
        else
          writeField(rootVariable(Base), F, V, ME->getMemberLoc(), At, false, /*Whole=*/true);
        return;
      }
    }
    // `*out = v` on a pointer parameter overwrites what it points to.
    if (const auto *UO = dyn_cast<UnaryOperator>(LHS); UO && UO->getOpcode() == UO_Deref)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
          setVar(VD, V, DRE->getLocation(), At, true);
          return;
        }
    // An element (`v[i] = s`, `p->x = s`): the container holds it, its length stays.
    if (const VarDecl *Root = rootVariable(LHS))
      storeElement(Root, V, LHS->getBeginLoc(), At);
    else if (const FieldDecl *F = rootThisField(LHS))
      writeField(nullptr, F, V, LHS->getBeginLoc(), At, /*Strong=*/false, /*Whole=*/false);
  }

  // --- masks -------------------------------------------------------------------------------

  bool isMask(const Expr *E) {
    E = skipValueWrappers(E);
    if (!E || !Api.isTensor(E->getType()))
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return S.Masks.contains(DRE->getDecl());
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
      return isMask(CO->getTrueExpr()) && isMask(CO->getFalseExpr());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      // Bitwise operators on booleans stay boolean (a language fact, not an API list).
      switch (Op->getOperator()) {
      case OO_Tilde:
        return Op->getNumArgs() == 1 && isMask(Op->getArg(0));
      case OO_Amp:
      case OO_Pipe:
      case OO_Caret:
        return Op->getNumArgs() == 2 && isMask(Op->getArg(0)) && isMask(Op->getArg(1));
      default:
        break;
      }
    }
    auto C = Api.resolve(E);
    if (!C)
      return false;
    if (C->hasTag("bool_output"))
      return true;
    // `m.contiguous()`, `m.clone()`, `m.view(...)`: the elements of self; `m[0]`, `m.index_select(...)`:
    // some of them, so self's dtype.
    if (C->hasTag("same_elements") || C->hasTag("keeps_dtype"))
      return isMask(C->arg(0));
    // `torch::cat({m1, m2})`, `torch::stack({...})`: the elements of the listed tensors.
    if (C->hasTag("joins_inputs"))
      return listsOnlyMasks(C->arg(0));
    if (C->hasTag("device_transfer")) {
      // `m.to(torch::kBool)`: a conversion whose arguments name the Bool dtype.
      for (unsigned I = 1; I < C->Args.size(); ++I)
        if (ApiResolver::mentionsConstant(C->Args[I], "Bool", ""))
          return true;
      // `m.to(device)`: a transfer that cannot name a dtype keeps self's.
      if (llvm::none_of(llvm::drop_begin(C->Args), [&](const Expr *A) { return mayNameDtype(A); }))
        return isMask(C->arg(0));
    }
    if (auto It = A.Summaries.find(key(C->Callee)); It != A.Summaries.end())
      return It->second.ReturnsMask;
    if (const FunctionSummary *Imported = A.importedSummary(C->Callee))
      return Imported->ReturnsMask;
    return false;
  }

  /// A dimension written as a constant other than the leading one (`1`, not `0` or `-1`).
  bool isTrailingDim(const Expr *E) {
    E = skipValueWrappers(E);
    std::optional<llvm::APSInt> V = E ? E->getIntegerConstantExpr(Ctx()) : std::nullopt;
    return V && V->isStrictlyPositive();
  }
  ASTContext &Ctx() { return A.Ctx; }

  /// The selection that makes `C` a value-dependent shape: a `dynamic_output_shape` entry, or
  /// indexing with a mask.
  const ApiEntry *selectionEntry(const ApiCall &C) {
    if (const ApiEntry *Entry = C.entryWithTag("dynamic_output_shape"))
      return Entry;
    if (const ApiEntry *Index = C.entryWithTag("bool_mask_index"); Index && !Index->hasTag("in_place"))
      for (unsigned Pos : Index->IndexArgs)
        if (indexHasMask(C.arg(Pos)))
          return Index;
    return nullptr;
  }

  /// Whether the shape of `E` (a tensor, or a value holding tensors) may follow tensor values,
  /// and why: a selection (a `dynamic_output_shape` op, indexing with a mask), anything
  /// computed from one (views, casts, arithmetic, `index_select` by a selection's indices, a
  /// `cat` with a selected part), a local, field or container holding one, a function returning
  /// one. A tensor parameter's shape is its bit (and the shape passed in at a region's call
  /// site). Full reductions, rank queries and factories built from host sizes do not carry it.
  TaintValue dynamicShape(const Expr *E, unsigned Depth = 0) {
    E = skipValueWrappers(E);
    if (!E || Depth > 24 || E->getType().isNull())
      return {};
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (const auto *BD = dyn_cast<BindingDecl>(D); BD && BD->getDecomposedDecl())
        D = BD->getDecomposedDecl(); // `auto [vals, idx] = sel.sort();`: the whole tuple
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && isLocal(VD))
        return S.DynamicShapes.lookup(VD);
      return {};
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()); F && Api.holdsTensors(F->getType()))
        return {fieldShape(F), 0, nullptr};
      return {};
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
      return join(dynamicShape(CO->getTrueExpr(), Depth + 1), dynamicShape(CO->getFalseExpr(), Depth + 1));
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      TaintValue V;
      for (const Expr *Init : IL->inits())
        V = join(V, dynamicShape(Init, Depth + 1));
      return V;
    }
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
      return dynamicShape(SIL->getSubExpr(), Depth + 1);
    // A tensor converted to an index or an optional (`x.index({idx})` builds a TensorIndex from
    // `idx`): the wrapper carries the tensor's shape.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1 && !Api.holdsTensors(E->getType()) && Api.isTensor(CE->getArg(0)->getType()))
      return dynamicShape(CE->getArg(0), Depth + 1);
    if (!Api.holdsTensors(E->getType()))
      return {};
    if (!isa<CallExpr>(E) && !isa<CXXConstructExpr>(E))
      return {};
    auto C = Api.resolve(E);
    if (!C)
      return {};
    if (const ApiEntry *Entry = selectionEntry(*C)) {
      auto It = DynamicSources.find(E);
      if (It == DynamicSources.end()) {
        TracedOrigin *O = source(*C, *Entry);
        O->SizeOfSelection = O->FromSelection = true;
        It = DynamicSources.try_emplace(E, O).first;
      }
      return {It->second, 0, nullptr};
    }
    if (C->hasTag("host_factory"))
      return dataLength(*C, E, /*Record=*/false); // sizes are checked as sizes; data brings its length
    if (C->hasTag("full_reduction") && C->Args.size() == 1)
      return {}; // a single element
    const bool Instance = isInstanceCall(E, C->Callee);
    const unsigned First = Instance ? 1 : 0;
    const FunctionSummary *Sum = nullptr;
    if (auto It = A.Summaries.find(key(C->Callee)); It != A.Summaries.end())
      Sum = &It->second;
    else
      Sum = A.importedSummary(C->Callee);
    if (Sum) {
      TaintValue R{Sum->ReturnShape.Origin, 0, nullptr, Sum->ReturnShape.AnyDim};
      for (unsigned Bit = 0; Bit < SizeBits; ++Bit)
        if (((Sum->ReturnShape.Params >> Bit) & 1) && First + Bit < C->Args.size()) {
          TaintValue Arg = dynamicShape(C->Args[First + Bit], Depth + 1);
          Arg.AnyDim = Arg.AnyDim || Sum->ReturnShape.AnyDim;
          R = join(R, Arg);
        }
      return step(R, C->NameLoc, E, "returned from " + calleeName(C->Callee) + " here");
    }
    // Library ops and calls we cannot see: the result's shape is made from the operands'. A
    // layout change, or a call the packs do not describe, may move the selected dimension.
    TaintValue V;
    for (const Expr *Arg : C->Args)
      V = join(V, dynamicShape(Arg, Depth + 1));
    if (C->Entries.empty() || (C->hasTag("same_elements") && !C->hasTag("elementwise")))
      V.AnyDim = true;
    return V;
  }

  /// The host container an argument passes its elements from (`keep` of `torch::tensor(keep)`,
  /// through the conversions to ArrayRef or TensorDataContainer), or null.
  static const Expr *hostData(const Expr *Arg) {
    const Expr *E = Arg ? Arg->IgnoreImplicit() : nullptr;
    for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
      const auto *CE = dyn_cast<CXXConstructExpr>(E);
      if (!CE || CE->getNumArgs() != 1 || CE->isListInitialization() || isa<CXXTemporaryObjectExpr>(CE))
        break;
      E = CE->getArg(0)->IgnoreImplicit();
    }
    return E && isHostContainerType(E->getType()) ? E : nullptr;
  }

  /// The number of elements of the host data a call builds a tensor from (`length_args`:
  /// `torch::tensor(keep)` has keep.size() elements), where it follows tensor data. `Record`:
  /// the evaluation of the call, which records it for the size check and as a use.
  TaintValue dataLength(const ApiCall &C, const Expr *At, bool Record) {
    TaintValue Length;
    for (const ApiEntry *Entry : C.Entries)
      for (unsigned Pos : Entry->LengthArgs) {
        const Expr *Data = Pos < C.Args.size() ? hostData(C.arg(Pos)) : nullptr;
        if (!Data)
          continue;
        TaintValue L = sizeOf(Data, {});
        if (L.empty())
          continue;
        L = step(L, Data->getBeginLoc(), At, "its number of elements is the size of the tensor '" + C.Name + "' builds");
        if (Record) {
          Facts.recordLength(C.arg(Pos), L.origin());
          use(L);
        }
        Length = join(Length, L);
      }
    return Length;
  }

  const TracedOrigin *fieldShape(const FieldDecl *F) {
    auto It = A.FieldShapes.find(F);
    return It == A.FieldShapes.end() ? A.importedFieldShape(F) : It->second;
  }

  /// The value `Target` (a local or a field) now holds has the shape of `Value`. Locals are
  /// overwritten (`Strong`) or joined (an element stored into a container); fields are joined
  /// TU-wide.
  void setShape(const Expr *Target, const Expr *Value, const Stmt *At, bool Strong) {
    Target = skipValueWrappers(Target);
    TaintValue V = dynamicShape(Value);
    // `out[b] = sel`: an element of a container of tensors rebound, so the container may now hold
    // the selection's shape, as after `out.push_back(sel)`.
    if (const Expr *Container = containerOfElement(Target)) {
      if (V.tainted())
        storeShapeInto(Container, V, Target->getBeginLoc(), At);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(Target)) {
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()); F && V.tainted() && !A.FieldShapes.count(F))
        A.FieldShapes[F] = step(V, ME->getMemberLoc(), At, "stored in field '" + nameOf(F) + "' here").origin();
      return;
    }
    const VarDecl *VD = nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Target))
      VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !isLocal(VD))
      return;
    setShapeOf(VD, V, Target->getBeginLoc(), At, Strong);
  }

  void setShapeOf(const VarDecl *VD, TaintValue V, SourceLocation Loc, const Stmt *At, bool Strong) {
    if (V.tainted())
      V = step(V, Loc, At, (Strong ? "assigned to '" : "added to '") + nameOf(VD) + "' here");
    if (Strong && V.empty())
      S.DynamicShapes.erase(VD);
    else if (Strong)
      S.DynamicShapes[VD] = V;
    else if (!V.empty())
      S.DynamicShapes[VD] = join(S.DynamicShapes.lookup(VD), V);
  }

  /// Whether `E` is a braced list (or a TensorList built from one) of masks only.
  bool listsOnlyMasks(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return false;
    E = skipValueWrappers(E);
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return IL->getNumInits() > 0 && llvm::all_of(IL->inits(), [&](const Expr *I) { return isMask(I); });
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
      return listsOnlyMasks(SIL->getSubExpr(), Depth + 1);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      return CE->getNumArgs() > 0 && listsOnlyMasks(CE->getArg(0), Depth + 1);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      return listsOnlyMasks(ICE->getSubExpr(), Depth + 1);
    return false;
  }

  /// Whether an argument of a conversion can choose the element type: a tensor (`to(other)`),
  /// an enumeration that has a `Bool` enumerator (a dtype), or options with a `dtype` (told by
  /// the written argument's type, before conversions, and by structure, not by name).
  bool mayNameDtype(const Expr *Arg) {
    QualType T = Arg->IgnoreUnlessSpelledInSource()->getType().getNonReferenceType();
    if (Api.isTensor(T))
      return true;
    if (const auto *ET = T->getAs<EnumType>())
      return llvm::any_of(ET->getDecl()->enumerators(),
                          [](const EnumConstantDecl *EC) { return EC->getName() == "Bool"; });
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl()) {
      if (!RD->hasDefinition())
        return true;
      for (const CXXMethodDecl *M : RD->methods())
        if (M->getIdentifier() && M->getName() == "dtype")
          return true;
      // `std::optional<ScalarType>` and similar wrappers: look at their template arguments.
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
        for (const TemplateArgument &TA : Spec->getTemplateArgs().asArray())
          if (TA.getKind() == TemplateArgument::Type)
            if (const auto *AET = TA.getAsType()->getAs<EnumType>())
              if (llvm::any_of(AET->getDecl()->enumerators(),
                               [](const EnumConstantDecl *EC) { return EC->getName() == "Bool"; }))
                return true;
    }
    return false;
  }

  bool indexHasMask(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return false;
    E = skipValueWrappers(E);
    if (Api.isTensor(E->getType()))
      return isMask(E);
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return llvm::any_of(IL->inits(), [&](const Expr *I) { return indexHasMask(I, Depth + 1); });
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
      return indexHasMask(SIL->getSubExpr(), Depth + 1);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      return llvm::any_of(CE->arguments(), [&](const Expr *A) { return indexHasMask(A, Depth + 1); });
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      return indexHasMask(ICE->getSubExpr(), Depth + 1);
    return false;
  }

  llvm::DenseMap<const Expr *, const TracedOrigin *> DynamicSources;

  /// The tensor local `D` is given the value `Init`: whether it is a mask, whether it is in host
  /// memory.
  void rebindTensor(const Decl *D, const Expr *Init) {
    if (Init && isMask(Init))
      S.Masks.insert(D);
    else
      S.Masks.erase(D);
    if (const Expr *Host = Init ? hostResident(Init) : nullptr)
      S.HostTensors[D] = Host;
    else
      S.HostTensors.erase(D);
  }

  // --- host residency ----------------------------------------------------------------------

  /// The call that put the tensor `E` evaluates to in pageable host memory, or null.
  const Expr *hostResident(const Expr *E) {
    return findHostResidentOrigin(E, Api, [&](const Expr *Read) { return heldInHost(Read); });
  }

  /// What the local or field of `*this` read by `Read` holds here, as this path left it (a field
  /// starts as every function of the TU leaves it).
  const Expr *heldInHost(const Expr *Read) {
    Read = Read->IgnoreParenImpCasts();
    // A function defined in another TU whose summary says it returns a host tensor: the call
    // stands for the factory (a body of this TU is followed to it instead).
    if (const auto *CE = dyn_cast<CallExpr>(Read)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!A.Program || !Callee || Callee->hasBody() || Api.isLibraryDecl(Callee) ||
          Ctx().getSourceManager().isInSystemHeader(Callee->getLocation()))
        return nullptr;
      const FunctionSummary *Sum = A.importedSummary(Callee);
      return Sum && Sum->ReturnsHost ? CE : nullptr;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Read))
      return S.HostTensors.lookup(DRE->getDecl());
    const auto *ME = dyn_cast<MemberExpr>(Read);
    const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!F || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return nullptr;
    return S.HostTensors.lookup(F);
  }

  /// A tensor field of `*this` is given `Value` here.
  void rebindField(const FieldDecl *F, const Expr *Value) {
    WrittenFields.insert(F);
    if (const Expr *Host = hostResident(Value))
      S.HostTensors[F] = Host;
    else
      S.HostTensors.erase(F);
  }

  void noteFieldAtExit(const FieldDecl *F, const Expr *HostOrigin) {
    HostOrigin = A.realHostOrigin(HostOrigin);
    if (HostOrigin)
      A.FieldHostWrites.try_emplace(F, HostOrigin);
    else
      A.FieldOtherWrites.insert(F);
  }

  void recordFieldExits() {
    for (const FieldDecl *F : WrittenFields)
      noteFieldAtExit(F, Exit.Unreachable ? nullptr : Exit.HostTensors.lookup(F));
  }

  /// Another method of this object may rebind the fields some function leaves off the host.
  void forgetFieldsOthersRebind() {
    llvm::SmallVector<const void *, 4> Gone;
    for (const auto &KV : S.HostTensors)
      if (const auto *F = dyn_cast<FieldDecl>(static_cast<const Decl *>(KV.first)); F && A.FieldOtherWrites.contains(F))
        Gone.push_back(KV.first);
    for (const void *K : Gone)
      S.HostTensors.erase(K);
  }

  /// A user function taking `Tensor&` may rebind what is passed to it: a field (a method of this
  /// object may rebind any field), or a local or parameter, which then holds what the callee's
  /// summary says it leaves there (`to_tensor(img, out)` leaves `out` in host memory), resolved
  /// against the arguments as they are before the call.
  void notePassedForRebinding(const ApiCall &C, unsigned First) {
    if (!C.Callee || Api.isLibraryDecl(C.Callee))
      return;
    if (First == 1 && !C.Args.empty() && isa<CXXThisExpr>(C.Args[0]->IgnoreParenImpCasts()))
      forgetFieldsOthersRebind();
    auto Sum = A.Summaries.find(key(C.Callee));
    llvm::SmallVector<std::pair<const VarDecl *, const Expr *>, 2> Left;
    for (unsigned I = 0; I < C.Callee->getNumParams() && First + I < C.Args.size(); ++I) {
      QualType T = C.Callee->getParamDecl(I)->getType();
      if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified() || !Api.isTensor(T))
        continue;
      const Expr *Arg = C.Args[First + I]->IgnoreParenImpCasts();
      if (const auto *ME = dyn_cast<MemberExpr>(Arg))
        if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
          A.FieldOtherWrites.insert(F);
          S.HostTensors.erase(F);
        }
      const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD || !isLocal(VD))
        continue;
      const Expr *Host = Sum != A.Summaries.end() && I < Sum->second.OutHost.size() ? Sum->second.OutHost[I] : nullptr;
      if (const ParmVarDecl *From = A.placeholderParam(Host))
        Host = First + From->getFunctionScopeIndex() < C.Args.size()
                   ? hostResident(C.Args[First + From->getFunctionScopeIndex()])
                   : nullptr;
      Left.push_back({VD, Host});
    }
    for (const auto &[VD, Host] : Left)
      if (Host)
        S.HostTensors[VD] = Host;
      else
        S.HostTensors.erase(VD);
  }

  // --- expressions -------------------------------------------------------------------------

public:
  TaintValue eval(const Expr *E) {
    if (!E)
      return {};
    TaintValue V = evalImpl(E);
    if (Api.isTensor(E->getType())) {
      if (isMask(E))
        Facts.recordMask(E);
      if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<CallExpr>(E))
        Facts.recordHostResident(E, A.realHostOrigin(heldInHost(E)));
      return {};
    }
    // A list of tensors in host memory (`grid` of `grid[1].to(device)`), for the copies of its elements.
    if ((isa<DeclRefExpr>(E) || isa<MemberExpr>(E)) && Api.holdsTensors(E->getType()))
      if (const Expr *Host = A.realHostOrigin(heldInHost(E)))
        Facts.recordHostResident(E, Host);
    Facts.recordTaint(E, V.origin());
    return V;
  }

private:
  TaintValue evalChildren(const Stmt *E) {
    TaintValue V;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        V = join(V, eval(CE));
    return V;
  }

  TaintValue evalImpl(const Expr *E) {
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, StringLiteral, CharacterLiteral,
            CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr, CXXDefaultArgExpr, CXXThisExpr,
            SizeOfPackExpr, TypeTraitExpr, CXXNoexceptExpr, GNUNullExpr>(E))
      return {};
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return readVar(VD);
      return {};
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return evalMember(ME);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return evalBinary(BO);
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      TaintValue V = eval(UO->getSubExpr()); // `-s`, `!s`, `*p`, `++i`: the operand's dependence
      if (UO->isIncrementDecrementOp())
        if (TaintValue Counted = writtenUnderControl(UO->getSubExpr(), UO, "advanced"); !Counted.empty()) {
          V = join(V, Counted);
          assign(UO->getSubExpr(), V, UO);
        }
      return V;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
      return evalConditional(CO);
    if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
      analyzeLambda(LE);
      return capturedResult(LE);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->isAssignmentOp())
      return evalOverloadedAssignment(Op);
    if (isa<CallExpr>(E) || isa<CXXConstructExpr>(E))
      return evalCall(E);
    if (const auto *Throw = dyn_cast<CXXThrowExpr>(E)) {
      eval(Throw->getSubExpr());
      S.Unreachable = true;
      return {};
    }
    if (const auto *DIE = dyn_cast<CXXDefaultInitExpr>(E))
      return eval(DIE->getExpr());
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
      return OVE->getSourceExpr() ? eval(OVE->getSourceExpr()) : TaintValue{};
    // Casts, parentheses, temporaries, initializer lists, subscripts: the value is made of
    // the values of the children.
    return evalChildren(E);
  }

  /// A field read as a whole: a container field also brings how many elements it holds.
  TaintValue evalMember(const MemberExpr *ME) {
    TaintValue V = evalMemberElements(ME);
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()); F && isHostContainerType(F->getType()))
      V = join(V, fieldSize(F));
    return V;
  }

  TaintValue evalMemberElements(const MemberExpr *ME) {
    TaintValue BaseV = eval(ME->getBase());
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F)
      return BaseV;
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base)) {
      auto It = S.Values.find({nullptr, F});
      return It != S.Values.end() ? It->second : fieldTaint(F);
    }
    if (const auto *BD = dyn_cast<DeclRefExpr>(Base))
      if (const auto *VD = dyn_cast<VarDecl>(BD->getDecl()); VD && isLocal(VD)) {
        if (auto It = S.Values.find({VD, F}); It != S.Values.end())
          return It->second;
        return BaseV;
      }
    if (const VarDecl *Root = rootVariable(Base); Root && isLocal(Root))
      return join(join(BaseV, S.get({Root, F})), fieldTaint(F));
    return join(BaseV, fieldTaint(F));
  }

  TaintValue evalBinary(const BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign) {
      TaintValue V = eval(BO->getRHS());
      eval(BO->getLHS());
      V = join(V, writtenUnderControl(BO->getLHS(), BO, "set"));
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
          DRE && Api.isTensor(DRE->getType()))
        rebindTensor(DRE->getDecl(), BO->getRHS());
      if (Api.holdsTensors(BO->getLHS()->getType()))
        setShape(BO->getLHS(), BO->getRHS(), BO, /*Strong=*/true);
      assign(BO->getLHS(), V, BO);
      return V;
    }
    if (BO->isCompoundAssignmentOp()) {
      TaintValue V = join(eval(BO->getLHS()), eval(BO->getRHS()));
      V = join(V, writtenUnderControl(BO->getLHS(), BO, "advanced"));
      assign(BO->getLHS(), V, BO);
      return V;
    }
    if (BO->getOpcode() == BO_Comma) {
      eval(BO->getLHS());
      return eval(BO->getRHS());
    }
    if (BO->isLogicalOp()) {
      // The right operand runs only on one outcome of the left one: a branch.
      TaintValue L = eval(BO->getLHS());
      use(L);
      TaintState Before = S;
      Control.push_back(L);
      TaintValue R = eval(BO->getRHS());
      Control.pop_back();
      S = joinStates(S, Before);
      return join(L, R);
    }
    return join(eval(BO->getLHS()), eval(BO->getRHS()));
  }

  TaintValue evalConditional(const AbstractConditionalOperator *CO) {
    TaintValue C = condition(CO->getCond(), nullptr, CO);
    Control.push_back(C);
    TaintState Before = S;
    TaintValue T = eval(CO->getTrueExpr());
    TaintState AfterTrue = std::move(S);
    S = std::move(Before);
    TaintValue F = eval(CO->getFalseExpr());
    S = joinStates(AfterTrue, S);
    Control.pop_back();
    // The selected value depends on the condition: that is a value flow, not only control.
    return join(join(T, F), step(C, CO->getQuestionLoc(), CO, "selected by this condition"));
  }

  TaintValue evalOverloadedAssignment(const CXXOperatorCallExpr *Op) {
    const Expr *LHS = Op->getArg(0);
    TaintValue V = eval(Op->getArg(1));
    TaintValue Old = eval(LHS);
    // Tensor `=` rebinds the handle (mask-ness and shape follow); `out[i] = x` writes into a view
    // of `out`, whose shape stays.
    if (Op->getOperator() == OO_Equal && Api.holdsTensors(LHS->getType()))
      setShape(LHS, Op->getArg(1), Op, /*Strong=*/true);
    if (Api.isTensor(LHS->getType())) {
      // Tensor `+=` is device math.
      if (Op->getOperator() == OO_Equal) {
        const Expr *Target = LHS->IgnoreParenImpCasts();
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Target))
          rebindTensor(DRE->getDecl(), Op->getArg(1));
        else if (const auto *ME = dyn_cast<MemberExpr>(Target))
          if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
              F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
            rebindField(F, Op->getArg(1));
      }
      use(V);
      return {};
    }
    if (Op->getOperator() != OO_Equal)
      V = join(V, Old);
    if (Op->getOperator() == OO_Equal)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && setContainer(VD, Op->getArg(1), DRE->getLocation(), Op))
          return V;
    assign(LHS, V, Op);
    return V;
  }

  static bool isInstanceCall(const Expr *E, const FunctionDecl *Callee) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
    return MD && MD->isInstance() && !isa<CXXConstructExpr>(E);
  }

  TaintValue evalCall(const Expr *E) {
    auto C = Api.resolve(E);
    if (!C)
      return evalChildren(E); // calls through pointers, dependent calls
    const FunctionDecl *Callee = C->Callee;
    bool Instance = isInstanceCall(E, Callee);
    unsigned First = Instance ? 1 : 0;

    llvm::SmallVector<TaintValue, 4> ArgV;
    for (const Expr *Arg : C->Args)
      ArgV.push_back(eval(Arg));
    notePassedForRebinding(*C, First);
    dataLength(*C, E, /*Record=*/true);

    bool ResultTensor = Api.isTensor(E->getType());
    bool TensorObject = Instance && !C->Args.empty() && Api.isTensor(C->Args[0]->getType());
    bool TensorParams = llvm::any_of(Callee->parameters(), [&](const ParmVarDecl *P) {
      return Api.isTensor(P->getType());
    });
    // A Scalar conversion (`item().toFloat()`) passes the read's value on; it does not use it.
    if (ResultTensor || TensorObject || TensorParams ||
        (!C->Entries.empty() && !C->hasTag("scalar_conversion") && !C->hasTag("empties_container")))
      for (const TaintValue &V : ArgV)
        use(V);

    if (const ApiEntry *Entry = C->entryWithTag("data_dependent_output"); Entry && !ResultTensor)
      return {source(*C, *Entry), 0};

    if (auto It = A.Summaries.find(key(Callee)); It != A.Summaries.end())
      return applySummary(*C, It->second, ArgV, First);
    if (const FunctionSummary *Imported = A.importedSummary(Callee))
      return applySummary(*C, *Imported, ArgV, First);

    if (TensorObject && !ResultTensor && C->hasTag("shape_query"))
      if (TaintValue Shape = dynamicShape(C->Args[0]); !Shape.empty()) {
        if (C->Args.size() > 1 && !Shape.AnyDim && isTrailingDim(C->Args[1]))
          return {}; // `sel.size(1)`: only the leading dimension follows the values
        Shape.AnyDim = false; // a host value now
        return step(Shape, C->NameLoc, E, "its size read here"); // the size of a value-dependent shape
      }
    // `sel.sizes()[1]`
    if (const auto *Sub = dyn_cast<CXXOperatorCallExpr>(E); Sub && Sub->getOperator() == OO_Subscript &&
                                                         Sub->getNumArgs() == 2 && isTrailingDim(Sub->getArg(1)))
      if (auto Sizes = Api.resolve(skipValueWrappers(Sub->getArg(0))); Sizes && Sizes->hasTag("shape_query") &&
                                                                       Sizes->Args.size() == 1)
        if (TaintValue Shape = dynamicShape(Sizes->Args[0]); !Shape.empty() && !Shape.AnyDim)
          return {};
    // The sizes of a host view of a tensor's memory (`a.size(0)` of an accessor) are the
    // tensor's metadata, however tainted the view's elements are.
    if (Instance && !TensorObject && C->hasTag("shape_query"))
      return {};
    noteStoredShapes(*C, E);
    if (Instance && !C->Args.empty() && isHostContainerType(C->Args[0]->getType()))
      if (std::optional<TaintValue> V = containerCall(*C, E, ArgV))
        return ResultTensor ? TaintValue{} : *V;
    if (ResultTensor || TensorObject)
      return {}; // device results, and shapes/flags read from a tensor's metadata

    // A function or method we cannot see: its result depends on all of its inputs.
    TaintValue All;
    for (const TaintValue &V : ArgV)
      All = join(All, V);
    TaintValue Inputs;
    for (unsigned I = First; I < ArgV.size(); ++I)
      Inputs = join(Inputs, ArgV[I]);
    if (!Inputs.empty()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      // A non-const method fed with host data (`v.push_back(s)`) now holds that data; an
      // element access (`v[i]`, `v.at(i)`) only reads at a position.
      if (Instance && MD && !MD->isConst() && !isElementAccess(*MD) && storesArguments(*MD))
        taintObject(C->Args[0], Inputs, C->NameLoc, E);
      // An opaque function may write host data through its non-const reference parameters,
      // and into the elements behind its non-const pointers (`memcpy(buf.data(), c.data_ptr(),
      // n)` fills buf's elements, not its length).
      for (unsigned I = 0; I < Callee->getNumParams() && First + I < C->Args.size(); ++I) {
        QualType T = Callee->getParamDecl(I)->getType();
        std::string Note = "written by '" + Callee->getNameAsString() + "' here";
        if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() &&
            !Api.isTensor(T) && !isForwardingReference(*Callee, I))
          assignWeak(C->Args[First + I], Inputs, E, C->NameLoc, Note);
        else if (T->isPointerType() && !T->getPointeeType().isConstQualified())
          writeElementsThrough(C->Args[First + I], Inputs, E, C->NameLoc, Note);
        else if (const Expr *Into = containerIteratedBy(C->Args[First + I]))
          writeElementsThrough(Into, Inputs, E, C->NameLoc, Note);
        else if (const Expr *Wrapped = wrappedForWriting(C->Args[First + I]))
          assignWeak(Wrapped, Inputs, E, C->NameLoc, Note);
      }
    }
    return computedFromObjects(*C, E, ArgV, All);
  }

  /// The host container whose elements the argument iterates with write access (`v.begin()`,
  /// `v.begin() + k`, `v.rend()`), or null: an algorithm given it (`std::partial_sort`,
  /// `std::fill`, `std::transform`'s output) may store into those elements, not change how many
  /// there are.
  const Expr *containerIteratedBy(const Expr *Arg) {
    const Expr *E = skipValueWrappers(Arg);
    for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
        const CXXMethodDecl *MD = MC->getMethodDecl();
        const Expr *Obj = MC->getImplicitObjectArgument();
        if (MD && returnsIterator(*MD) && Obj && isHostContainerType(Obj->getType()))
          return Obj;
        return nullptr;
      }
      // `v.begin() + k`: the iterator's own arithmetic, a member or a free operator.
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
          Op && (Op->getOperator() == OO_Plus || Op->getOperator() == OO_Minus) && Op->getNumArgs() == 2) {
        E = skipValueWrappers(Op->getArg(0));
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }

  /// The variable an argument object wraps for writing, or null: a temporary built by a
  /// constructor that takes it by non-const reference (`cv::OutputArray` made from a
  /// `std::vector<float>&` or a `cv::Mat&`), through which the callee writes its output.
  const Expr *wrappedForWriting(const Expr *Arg) {
    const Expr *E = Arg;
    for (unsigned Depth = 0; E && Depth < 6; ++Depth) {
      E = E->IgnoreParenImpCasts();
      if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
        E = M->getSubExpr();
      else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
        E = B->getSubExpr();
      else
        break;
    }
    const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(E);
    if (!Ctor || Ctor->getConstructor()->isCopyOrMoveConstructor() || Api.isTensor(Ctor->getType()))
      return nullptr;
    for (unsigned I = 0; I < Ctor->getNumArgs() && I < Ctor->getConstructor()->getNumParams(); ++I) {
      QualType T = Ctor->getConstructor()->getParamDecl(I)->getType();
      if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() && !Api.isTensor(T))
        return Ctor->getArg(I);
    }
    return nullptr;
  }

  /// The result of an opaque function that a selection's size reaches only inside host objects
  /// (`cv::minAreaRect(points)`, the points a cv::Mat shaped by `p.size(0)`): a struct computed
  /// from them depends on the data, but none of its members is that size any more. A size passed
  /// as a number (`std::make_pair(sel.size(0), k)`) stays one.
  TaintValue computedFromObjects(const ApiCall &C, const Expr *E, llvm::ArrayRef<TaintValue> ArgV, TaintValue All) {
    auto IsSize = [](const TracedOrigin *O) { return O && O->SizeOfSelection; };
    // A constructor converts (cv::Mat to cv::InputArray): the object still holds the size.
    const bool Struct = E->getType()->getAsCXXRecordDecl() && !isa<CXXConstructExpr>(E) &&
                        !isHostContainerType(E->getType());
    if (!Struct || !(IsSize(All.Origin) || IsSize(All.Context)))
      return All;
    for (size_t I = 0; I < ArgV.size(); ++I)
      if ((IsSize(ArgV[I].Origin) || IsSize(ArgV[I].Context)) && !C.Args[I]->getType()->getAsCXXRecordDecl())
        return All;
    return step(notTheSize(All), C.NameLoc, E, "computed on the host by '" + C.Callee->getNameAsString() + "' here");
  }

  /// `V` without the mark of being a selection's size: a value computed from one (a struct a
  /// host library builds, a flag set when a size test holds) still follows the data, but is no
  /// count of rows to keep padded.
  TaintValue notTheSize(TaintValue V) {
    return relabel(V, /*ThroughControl=*/false);
  }

  /// `V` as an implicit flow (TaintOrigin::ThroughControl); a flag or a count is no selection's
  /// size unless `KeepSize` (the trip count of a loop over a selection counts its rows).
  TaintValue throughControl(TaintValue V, bool KeepSize) {
    return relabel(V, /*ThroughControl=*/true, KeepSize);
  }

  TaintValue relabel(TaintValue V, bool ThroughControl, bool KeepSize = false) {
    auto Relabel = [&](const TracedOrigin *O) -> const TracedOrigin * {
      if (!O || ((!O->SizeOfSelection || KeepSize) && O->ThroughControl == (O->ThroughControl || ThroughControl)))
        return O;
      TracedOrigin *N = Facts.newOrigin();
      *N = *O;
      N->SizeOfSelection = O->SizeOfSelection && KeepSize;
      N->ThroughControl = O->ThroughControl || ThroughControl;
      return N;
    };
    V.Origin = Relabel(V.Origin);
    V.Context = Relabel(V.Context);
    return V;
  }

  /// A container or object now holds host data: a local (`v.push_back(s)`) or a field
  /// (`history_.push_back(s)`, `stats.values.push_back(s)`).
  void taintObject(const Expr *Obj, TaintValue V, SourceLocation Loc, const Stmt *At) {
    const Expr *O = Obj->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(O))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
        const VarDecl *Root = isa<CXXThisExpr>(Base) ? nullptr : rootVariable(Base);
        if (Root || isa<CXXThisExpr>(Base))
          writeField(Root, F, V, Loc, At, /*Strong=*/false, /*Whole=*/false, "added to");
        return;
      }
    if (const VarDecl *Root = rootVariable(O))
      setVar(Root, V, Loc, At, /*Strong=*/false, "added to '" + nameOf(Root) + "' here");
  }

  /// A method of a host container. A size query reads how many elements there are; an element
  /// read reads one element; a non-const method may store its arguments into the elements and
  /// change how many there are, by its count arguments (integers by value: `resize(n)`) or
  /// because it runs a data-dependent number of times. Other const methods (`begin`, `data`,
  /// `find`) see both: nullopt, the caller joins everything.
  std::optional<TaintValue> containerCall(const ApiCall &C, const Expr *E, llvm::ArrayRef<TaintValue> ArgV) {
    const auto *MD = dyn_cast<CXXMethodDecl>(C.Callee);
    if (!MD)
      return std::nullopt;
    const Expr *Obj = C.Args[0];
    TaintValue Arguments;
    for (unsigned I = 1; I < ArgV.size(); ++I)
      Arguments = join(Arguments, ArgV[I]);
    if (isSizeQuery(*MD))
      return join(sizeOf(Obj, ArgV[0]), Arguments);
    if (isElementRead(*MD))
      return join(elementsOf(Obj, ArgV[0]), Arguments);
    if (MD->isConst() || returnsIterator(*MD))
      return std::nullopt;
    if (C.hasTag("empties_container")) {
      emptyContainer(Obj, C.NameLoc, E);
      return {};
    }
    TaintValue Stored, Count = countSince(Obj);
    for (unsigned I = 1; I < C.Args.size(); ++I) {
      QualType T = I - 1 < MD->getNumParams() ? MD->getParamDecl(I - 1)->getType() : C.Args[I]->getType();
      if (!T->isReferenceType() && T->isIntegerType())
        Count = join(Count, ArgV[I]);
      else
        Stored = join(Stored, ArgV[I]);
    }
    growContainer(Obj, Stored, Count, C.NameLoc, E);
    return join(ArgV[0], Arguments);
  }

  /// `v.clear()` (a call tagged empties_container): local `v` holds no elements now, and adds
  /// after this count their data-dependent exits from here. The length still follows the
  /// conditions under which the emptying runs (`if (s > t) v.clear();`). Fields keep their
  /// TU-wide facts: they are emptied and filled by any method, in any order.
  void emptyContainer(const Expr *Obj, SourceLocation Loc, const Stmt *At) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !isLocal(VD) || !isHostContainerType(VD->getType()))
      return;
    auto It = Declared.find(VD);
    Declaration Here = It == Declared.end() ? Declaration{} : It->second;
    Here.LoopExits = S.LoopExits;
    Here.FunctionExits = S.FunctionExits;
    S.Values.erase({VD, nullptr});
    writeKey(sizeKey(VD), step(reachedSince(Here), Loc, At, "'" + nameOf(VD) + "' emptied here"), /*Strong=*/true);
    S.Emptied[VD] = {S.LoopExits, S.FunctionExits};
  }

  /// The data-dependent conditions under which a mutation of `Obj` runs here, since the
  /// container was declared (a local) or at all (a field, an element).
  TaintValue countSince(const Expr *Obj) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD))
        return reachedSince(VD);
    return reached();
  }

  /// How many elements the container `Obj` holds (`ObjV`: its value as a whole).
  TaintValue sizeOf(const Expr *Obj, TaintValue ObjV) {
    Obj = Obj->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return isLocal(VD) ? S.get(sizeKey(VD)) : readVar(VD);
    if (const auto *ME = dyn_cast<MemberExpr>(Obj))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        return fieldSize(F);
    return ObjV;
  }

  /// What the elements of the container `Obj` hold (`ObjV`: its value as a whole).
  TaintValue elementsOf(const Expr *Obj, TaintValue ObjV) {
    Obj = Obj->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return isLocal(VD) ? S.get({VD, nullptr}) : readVar(VD);
    if (const auto *ME = dyn_cast<MemberExpr>(Obj))
      return evalMemberElements(ME);
    return ObjV;
  }

  /// The container `Obj` now may hold `Stored` in its elements and a number of elements that
  /// depends on `Count`.
  void growContainer(const Expr *Obj, TaintValue Stored, TaintValue Count, SourceLocation Loc, const Stmt *At) {
    Obj = Obj->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD)) {
        if (!Stored.empty())
          writeKey({VD, nullptr}, step(Stored, Loc, At, "added to '" + nameOf(VD) + "' here"), /*Strong=*/false);
        if (!Count.empty())
          writeKey(sizeKey(VD), step(Count, Loc, At, "the length of '" + nameOf(VD) + "' follows tensor data from here"), /*Strong=*/false);
        return;
      }
    if (const auto *ME = dyn_cast<MemberExpr>(Obj))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        if (!Stored.empty())
          taintObject(Obj, Stored, Loc, At);
        growField(F, Count, Loc, At);
        return;
      }
    // An element of another container (`groups[k].push_back(s)`): its length is part of what
    // the outer container's elements hold.
    TaintValue Both = join(Stored, Count);
    if (Both.empty())
      return;
    if (const VarDecl *Root = rootVariable(Obj))
      storeElement(Root, Both, Loc, At);
    else if (const FieldDecl *F = rootThisField(Obj))
      writeField(nullptr, F, Both, Loc, At, /*Strong=*/false, /*Whole=*/false);
  }

  /// `dets.push_back(sel)`, `boxes_.emplace_back(sel)`: a container of tensors now may hold a
  /// tensor of a value-dependent shape (an element access stores nothing).
  void noteStoredShapes(const ApiCall &C, const Expr *E) {
    const auto *MD = dyn_cast<CXXMethodDecl>(C.Callee);
    if (!MD || !isInstanceCall(E, C.Callee) || MD->isConst() || isElementAccess(*MD) || C.Args.empty() ||
        Api.isTensor(C.Args[0]->getType()) || !Api.holdsTensors(C.Args[0]->getType()))
      return;
    TaintValue V;
    for (unsigned I = 1; I < C.Args.size(); ++I)
      V = join(V, dynamicShape(C.Args[I]));
    if (V.tainted())
      storeShapeInto(C.Args[0], V, C.NameLoc, E);
  }

  /// The container a tensor element of it is stored into may hold `V`'s shape (joined).
  void storeShapeInto(const Expr *Container, TaintValue V, SourceLocation Loc, const Stmt *At) {
    const Expr *Obj = skipValueWrappers(Container);
    if (const auto *ME = dyn_cast<MemberExpr>(Obj)) {
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()); F && !A.FieldShapes.count(F))
        A.FieldShapes[F] = step(V, Loc, At, "added to '" + nameOf(F) + "' here").origin();
      return;
    }
    if (const VarDecl *Root = rootVariable(Obj); Root && isLocal(Root))
      setShapeOf(Root, V, Loc, At, /*Strong=*/false);
  }

  /// The container of `E` when `E` is an element of a host container of tensors reached by an
  /// element access (`out[b]`, `out.at(b)`: a reference to the element), or null; a tensor's
  /// own `t[i]` is a view of it, not a container's element.
  const Expr *containerOfElement(const Expr *E) {
    const Expr *Obj = nullptr;
    const CXXMethodDecl *MD = nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript) {
      Obj = Op->getArg(0);
      MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      Obj = MC->getImplicitObjectArgument();
      MD = MC->getMethodDecl();
    }
    if (!Obj || !MD || !isElementAccess(*MD) || Api.isTensor(Obj->getType()) || !Api.holdsTensors(Obj->getType()))
      return nullptr;
    return Obj;
  }

  void assignWeak(const Expr *LHS, TaintValue V, const Stmt *At, SourceLocation Loc,
                  std::string Note) {
    if (const VarDecl *Root = rootVariable(LHS))
      if (!Api.isTensor(Root->getType()))
        setVar(Root, V, Loc, At, /*Strong=*/false, std::move(Note));
  }

  /// Host data written through the pointer `Ptr` lands in the elements of the variable it points
  /// into (`buf.data()`, `&arr[0]`, `mat.data`); a container keeps its number of elements.
  void writeElementsThrough(const Expr *Ptr, TaintValue V, const Stmt *At, SourceLocation Loc, std::string Note) {
    const VarDecl *Root = rootVariable(Ptr->IgnoreParenCasts()); // `(void *)mat.data`
    if (!Root || Api.isTensor(Root->getType()))
      return;
    if (isLocal(Root) && isHostContainerType(Root->getType()))
      writeKey({Root, nullptr}, step(V, Loc, At, Note), /*Strong=*/false);
    else
      setVar(Root, V, Loc, At, /*Strong=*/false, std::move(Note));
  }

  TaintValue applySummary(const ApiCall &C, const FunctionSummary &Sum,
                          llvm::ArrayRef<TaintValue> ArgV, unsigned First) {
    const FunctionDecl *Callee = C.Callee;
    std::string Name = calleeName(Callee);
    // Context for reporting inside the callee: the taint each parameter receives here. Only
    // calls made by graph code count: a helper shared with a training loop is not blamed for
    // what the loop passes it.
    // A tensor argument stands for its shape (the callee's bit for a tensor parameter).
    llvm::SmallVector<TaintValue, 4> Value(ArgV.begin(), ArgV.end());
    for (unsigned I = First; I < Value.size(); ++I)
      if (I - First < Callee->getNumParams() && Api.isTensor(Callee->getParamDecl(I - First)->getType()))
        Value[I] = dynamicShape(C.Args[I]);
    for (unsigned I = First; InRegion && I < Value.size(); ++I)
      if (Value[I].tainted()) {
        unsigned Param = I - First;
        std::string PName = Param < Callee->getNumParams()
                                ? nameOf(Callee->getParamDecl(Param))
                                : std::to_string(Param);
        std::string Note = "passed to " + Name + " as '" + PName + "' here";
        auto Entry = [&](TaintValue V) { return step(V, C.Args[I]->getBeginLoc(), C.Call, Note).origin(); };
        // A container passed whole, also by value (a copy keeps the length apart too).
        const auto *Whole = dyn_cast<DeclRefExpr>(skipValueWrappers(C.Args[I]));
        const auto *Container = Whole ? dyn_cast<VarDecl>(Whole->getDecl()) : nullptr;
        if (Container && isLocal(Container) && isHostContainerType(Container->getType())) {
          A.noteParamEntry(Callee, Param, Entry(S.get({Container, nullptr})));
          A.noteParamEntry(Callee, Param, Entry(S.get(sizeKey(Container))), /*Size=*/true);
        } else {
          const TracedOrigin *Both = Entry(Value[I]);
          A.noteParamEntry(Callee, Param, Both);
          A.noteParamEntry(Callee, Param, Both, /*Size=*/true);
        }
      }
    // The number of elements of argument K when it is a container whose length is known apart
    // from its elements (a local, a helper's result), else the whole argument.
    auto LengthOf = [&](unsigned K) {
      if (auto Parts = containerParts(C.Args[K]))
        return Parts->second;
      return Value[K];
    };
    auto Through = [&](TaintValue V) {
      TaintValue R{V.Origin, 0, nullptr};
      for (unsigned Bit = 0; Bit < 64; ++Bit)
        if ((V.Params >> Bit) & 1) {
          unsigned K = First + (Bit < SizeBits ? Bit : Bit - SizeBits);
          if (K < Value.size())
            R = join(R, Bit < SizeBits ? Value[K] : LengthOf(K));
        }
      return R;
    };
    for (unsigned J = 0; J < Sum.Out.size() && First + J < C.Args.size(); ++J) {
      TaintValue V = Through(Sum.Out[J]);
      TaintValue Count = J < Sum.OutSize.size() ? Through(Sum.OutSize[J]) : TaintValue{};
      std::string Note = "written by " + Name + " here";
      const auto *Whole = dyn_cast<DeclRefExpr>(C.Args[First + J]->IgnoreParenImpCasts());
      const auto *Container = Whole ? dyn_cast<VarDecl>(Whole->getDecl()) : nullptr;
      if (Container && isLocal(Container) && isHostContainerType(Container->getType())) {
        // The elements and the length of a local container, each as the callee leaves them.
        writeKey({Container, nullptr}, step(V, C.NameLoc, C.Call, Note), /*Strong=*/false);
        writeKey(sizeKey(Container), step(join(Count, reachedSince(Container)), C.NameLoc, C.Call, Note),
                 /*Strong=*/false);
      } else if (TaintValue Both = join(V, Count); !Both.empty()) {
        assignWeak(C.Args[First + J], Both, C.Call, C.NameLoc, Note);
      }
    }
    std::string Returned = "returned from " + Name + " here";
    TaintValue Result = step(Through(Sum.Return), C.NameLoc, C.Call, Returned);
    if (!isHostContainerType(Callee->getReturnType()))
      return Result;
    TaintValue Length = step(Through(Sum.ReturnSize), C.NameLoc, C.Call, Returned);
    ReturnedContainers[C.Call] = {Result, Length};
    return join(Result, Length);
  }

  /// The elements and the length of the host container `E` evaluates to, when they are known
  /// apart: a local container, or one returned by a function of the code.
  std::optional<std::pair<TaintValue, TaintValue>> containerParts(const Expr *E) {
    E = skipValueWrappers(E);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD) && isHostContainerType(VD->getType()))
        return std::make_pair(S.get({VD, nullptr}), S.get(sizeKey(VD)));
    if (auto It = ReturnedContainers.find(E); E && It != ReturnedContainers.end())
      return It->second;
    return std::nullopt;
  }

  /// Gives the local container `VD` the value of `From` when its elements and length are known
  /// apart (`auto rows = helper(x);`); false when `From` is one value.
  bool setContainer(const VarDecl *VD, const Expr *From, SourceLocation Loc, const Stmt *At) {
    if (!isLocal(VD) || !isHostContainerType(VD->getType()) || VD->getType()->isReferenceType())
      return false;
    auto Parts = containerParts(From);
    if (!Parts)
      return false;
    std::string Note = "assigned to '" + nameOf(VD) + "' here";
    writeKey({VD, nullptr}, step(Parts->first, Loc, At, Note), /*Strong=*/true);
    writeKey(sizeKey(VD), join(step(Parts->second, Loc, At, Note), reachedSince(VD)), /*Strong=*/true);
    return true;
  }

  /// A lambda body runs later, but reads its captures as they are where it is created (by
  /// value) or as they will be (by reference): analyzing it here, in the current state, covers
  /// both for straight-line code; what it writes through reference captures is joined back.
  void analyzeLambda(const LambdaExpr *LE) {
    const CXXMethodDecl *Call = LE->getCallOperator();
    if (!Call || !LE->getBody())
      return;
    TaintState Init = S;
    Init.Unreachable = false;
    for (const LambdaCapture &Cap : LE->captures())
      if (Cap.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(Cap.getCapturedVar()); VD && VD->isInitCapture()) {
          TaintValue V = eval(VD->getInit());
          if (!V.empty() && !Api.isTensor(VD->getType()))
            Init.Values[{VD, nullptr}] = V;
          else if (Api.isTensor(VD->getType()) && isMask(VD->getInit()))
            Init.Masks.insert(VD);
        }
    // A generic lambda's body is a template: its instantiations hold the resolved calls.
    llvm::SmallVector<const FunctionDecl *, 2> Bodies{Call};
    if (const FunctionTemplateDecl *FT = Call->getDescribedFunctionTemplate())
      for (const FunctionDecl *Spec : FT->specializations())
        if (Spec->getBody())
          Bodies.push_back(Spec);
    for (const FunctionDecl *Body : Bodies)
      analyzeLambdaBody(LE, Body, Init);
  }

  /// What a lambda's results take from what it captured (its parameters aside): a comparator
  /// or a predicate handed to an algorithm (`std::partial_sort(..., [&](a, b) { return s[a] >
  /// s[b]; })`, `std::count_if`) makes what the algorithm computes or reorders follow them.
  TaintValue capturedResult(const LambdaExpr *LE) {
    const CXXMethodDecl *Call = LE->getCallOperator();
    auto It = Call ? A.Summaries.find(key(Call)) : A.Summaries.end();
    if (It == A.Summaries.end())
      return {};
    TaintValue V = It->second.Return;
    V.Params = 0;
    V.AnyDim = false;
    return V;
  }

  void analyzeLambdaBody(const LambdaExpr *LE, const FunctionDecl *Call, const TaintState &Init) {
    BodyInterpreter Inner(A, Call, Init);
    Inner.InRegion = InRegion || A.IsRegion(LE->getCallOperator());
    Inner.seedParameters();
    Inner.runBody(Call->getBody());
    A.Summaries[key(Call)].absorb(Inner.summarize());
    // Writes through reference captures reach the enclosing function.
    const TaintState &End = Inner.exitState();
    for (const LambdaCapture &Cap : LE->captures()) {
      if (!Cap.capturesVariable() || Cap.getCaptureKind() != LCK_ByRef)
        continue;
      const auto *VD = dyn_cast<VarDecl>(Cap.getCapturedVar());
      if (!VD || VD->isInitCapture())
        continue;
      for (TaintKey K : {TaintKey{VD, nullptr}, sizeKey(VD)}) {
        TaintValue V = End.get(K);
        if (V.tainted() && !S.get(K).tainted())
          S.Values[K] = join(S.get(K), V);
      }
    }
  }

  // --- statements --------------------------------------------------------------------------

  void declare(const VarDecl *VD) {
    if (isLocal(VD) && (isHostContainerType(VD->getType()) || isHostScalar(VD) || isHostRecord(VD)))
      Declared[VD] = {Control.size(), S.LoopExits, S.FunctionExits};
    S.Emptied.erase(VD);
    const Expr *Init = VD->getInit();
    if (!Init) {
      if (isLocal(VD))
        S.Values.erase({VD, nullptr});
      return;
    }
    TaintValue V = eval(Init);
    if (Api.holdsTensors(VD->getType()) && isLocal(VD))
      setShapeOf(VD, dynamicShape(Init), VD->getLocation(), Init, /*Strong=*/true);
    // A list of tensors only read by element (`auto grid = torch::meshgrid({x, y});`): its
    // elements stay where its initialiser made them.
    if (!Api.isTensor(VD->getType()) && Api.holdsTensors(VD->getType()) && isLocal(VD) && elementsOnlyRead(VD, Api))
      if (const Expr *Host = hostResident(Init))
        S.HostTensors[VD] = Host;
    // A list that only ever gets tensors built in host memory (`parts.push_back(torch::from_blob(
    // ...))` in a loop): what it is stacked into is in host memory too.
    if (isLocal(VD) && !Api.isTensor(VD->getType()) && Api.holdsTensors(VD->getType())) {
      auto [It, New] = A.HostFilledLists.try_emplace(VD, nullptr);
      if (New)
        It->second = hostFilledList(VD, Api);
      if (It->second)
        S.HostTensors[VD] = It->second;
    }
    if (Api.isTensor(VD->getType())) {
      rebindTensor(VD, Init);
      return;
    }
    if (setContainer(VD, Init, VD->getLocation(), Init))
      return;
    setVar(VD, V, VD->getLocation(), Init, /*Strong=*/true);
    // `std::vector<float> wh = {w, h};`: as many elements as the list has, whatever they hold.
    if (isLocal(VD) && isHostContainerType(VD->getType()) && isBracedList(Init))
      writeKey(sizeKey(VD), reachedSince(VD), /*Strong=*/true);
  }

  /// Whether `Init` builds a container from a braced list of elements (`{a, b}`, also through
  /// the std::initializer_list constructor): its length is the list's, fixed in the code.
  static bool isBracedList(const Expr *Init) {
    const Expr *E = Init->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1 && !CE->isListInitialization())
      E = CE->getArg(0)->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
      if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(CE->getArg(0)->IgnoreImplicit()))
        return isa<InitListExpr>(SIL->getSubExpr()->IgnoreImplicit());
    return isa<InitListExpr>(E);
  }

  /// A local number, flag or enumerator: what counts, remembers or chooses on the host (`n` of
  /// `++n`, `found` of `found = true`, `best` of `best = i`).
  static bool isHostScalar(const VarDecl *VD) {
    if (!VD || VD->getType()->isReferenceType())
      return false;
    QualType T = VD->getType();
    return T->isArithmeticType() || T->isEnumeralType();
  }

  /// A local struct of host values (`Beam b;` whose `b.width` counts): not a tensor, a container
  /// or anything holding tensors.
  bool isHostRecord(const VarDecl *VD) {
    if (!VD || VD->getType()->isReferenceType() || !VD->getType()->isRecordType())
      return false;
    return !Api.holdsTensors(VD->getType()) && !isHostContainerType(VD->getType()) && !Api.isTensor(VD->getType()) &&
           !Api.isPlacementType(VD->getType());
  }

  /// `++n`, `n += w`, `found = true` on a local host scalar `Target` (`Verb`: "advanced", "set"):
  /// after the data-dependent conditions around the write (since the variable was declared) it
  /// holds how often they held, or whether they did — an implicit flow. The enclosing loops'
  /// trip counts join when each loop ends (endLoop).
  TaintValue writtenUnderControl(const Expr *Target, const Stmt *At, const char *Verb) {
    Target = Target->IgnoreParenImpCasts();
    // `++b.width` on a field of a local struct of host values: that field, field-sensitively.
    const FieldDecl *Field = nullptr;
    if (const auto *ME = dyn_cast<MemberExpr>(Target)) {
      Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!Field || !(Field->getType()->isArithmeticType() || Field->getType()->isEnumeralType()))
        return {};
      Target = ME->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Target);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!(Field ? isHostRecord(VD) : isHostScalar(VD)) || !isLocal(VD) || stepsALoop(VD))
      return {};
    if (!WrittenInLoop.empty())
      WrittenInLoop.back().insert({VD, Field});
    auto It = Declared.find(VD);
    TaintValue Under = reachedSince(It == Declared.end() ? Declaration{} : It->second, /*SkipLoops=*/true);
    if (Under.empty())
      return {};
    return step(throughControl(Under, /*KeepSize=*/false), DRE->getLocation(), At,
                std::string(Verb) + " here when a condition that follows tensor data holds");
  }

  /// After a loop whose trip count `Trip` follows tensor data: the host scalars its body wrote
  /// that were declared before it (not those a loop head reads: stepsALoop) now depend on how
  /// often it ran.
  void endLoop(const llvm::SmallDenseSet<TaintKey, 4> &Counters, TaintValue Trip, size_t Depth,
               const Stmt *Loop) {
    if (!WrittenInLoop.empty())
      WrittenInLoop.back().insert(Counters.begin(), Counters.end());
    if (Trip.empty())
      return;
    for (const TaintKey &Key : Counters) {
      const auto *VD = static_cast<const VarDecl *>(Key.first);
      auto It = Declared.find(VD);
      if (It != Declared.end() && It->second.Depth > Depth)
        continue; // declared inside the loop
      const unsigned Line = Ctx().getSourceManager().getExpansionLineNumber(Loop->getBeginLoc());
      TaintValue V = step(throughControl(Trip, /*KeepSize=*/true), Loop->getBeginLoc(), Loop, "'" + nameOf(VD) + "' is written in the loop at line " +
                                                               std::to_string(Line) + ", whose trip count follows tensor data");
      writeKey(Key, join(S.get(Key), V), /*Strong=*/true);
    }
  }

  bool stepsALoop(const VarDecl *VD) const {
    for (const auto &Head : LoopHeads)
      if (llvm::any_of(Head, [&](const Stmt *H) { return H && refersTo(H, VD); }))
        return true;
    return false;
  }

  static bool refersTo(const Stmt *S, const VarDecl *VD) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD)
      return true;
    for (const Stmt *C : S->children())
      if (C && refersTo(C, VD))
        return true;
    return false;
  }

  /// Evaluates the condition of `Owner` and returns what it depends on. The condition of an
  /// assertion (`assert(c)`, `TORCH_CHECK(c)`) decides nothing for the code that goes on.
  TaintValue condition(const Expr *Cond, const VarDecl *CondVar, const Stmt *Owner) {
    if (CondVar)
      declare(CondVar);
    TaintValue V = eval(Cond);
    if (Owner && Api.isAssertion(*Owner, Ctx()))
      return {};
    use(V);
    return V;
  }

  /// Runs a loop body to a fixpoint. `Head` evaluates the condition (and is re-run each round)
  /// and returns what the trip count depends on; `Inc` likewise. The body runs under those
  /// conditions (`Control`), and under the data-dependent exits taken in it (`LoopExits`),
  /// which end with the loop.
  template <typename HeadFn, typename BodyFn, typename IncFn>
  void loop(HeadFn Head, BodyFn Body, IncFn Inc, bool BodyFirst, const Stmt *Loop,
            llvm::ArrayRef<const Stmt *> HeadStmts) {
    TaintState Entry = S;
    TaintState Exit = TaintState::unreachable();
    TaintValue Trip;
    const size_t Depth = Control.size();
    WrittenInLoop.emplace_back();
    LoopHeads.emplace_back(HeadStmts.begin(), HeadStmts.end());
    LoopDepths.insert(Depth);
    for (unsigned Round = 0; Round < 8; ++Round) {
      TaintState Start = S;
      TaintValue TripBefore = Trip;
      Jumps.emplace_back();
      if (!BodyFirst) {
        Trip = join(Trip, Head());
        Exit = joinStates(Exit, S);
      }
      Control.push_back(Trip);
      Body();
      JumpTargets J = std::move(Jumps.back());
      Jumps.pop_back();
      for (const TaintState &C : J.Continues)
        S = joinStates(S, C);
      Trip = join(Trip, Inc());
      if (BodyFirst) {
        Trip = join(Trip, Head());
        Exit = joinStates(Exit, S);
      }
      Control.pop_back();
      for (const TaintState &B : J.Breaks)
        Exit = joinStates(Exit, B);
      TaintState Next = joinStates(Entry, S);
      Next.Unreachable = false;
      if (sameFacts(Next, Start) && Trip.sameKind(TripBefore)) {
        S = std::move(Next);
        break;
      }
      S = std::move(Next);
    }
    S = joinStates(Exit, S);
    S.Unreachable = Exit.Unreachable && S.Unreachable;
    S.LoopExits = Entry.LoopExits;
    LoopDepths.erase(Depth);
    llvm::SmallDenseSet<TaintKey, 4> Counters = std::move(WrittenInLoop.back());
    WrittenInLoop.pop_back();
    LoopHeads.pop_back();
    endLoop(Counters, Trip, Depth, Loop);
  }

  void stmt(const Stmt *St) {
    if (!St)
      return;
    if (const auto *E = dyn_cast<Expr>(St)) {
      eval(E);
      return;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
      for (const Stmt *Child : CS->body())
        stmt(Child);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          declare(VD);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(St)) {
      stmt(If->getInit());
      if (If->isConsteval()) {
        stmt(If->getThen());
        return;
      }
      TaintValue Cond = condition(If->getCond(), If->getConditionVariable(), If);
      Control.push_back(Cond);
      TaintState Before = S;
      stmt(If->getThen());
      TaintState AfterThen = std::move(S);
      S = std::move(Before);
      stmt(If->getElse());
      Control.pop_back();
      bool ThenLeaves = AfterThen.Unreachable, ElseLeaves = S.Unreachable;
      S = joinStates(AfterThen, S);
      // `if (score < t) continue;`: what follows runs only for some values.
      if (!Cond.empty() && ThenLeaves != ElseLeaves) {
        Exits J;
        findExits(ThenLeaves ? If->getThen() : If->getElse(), J);
        if (J.Returns)
          S.FunctionExits = join(S.FunctionExits, Cond);
        if (J.LeavesLoop)
          S.LoopExits = join(S.LoopExits, Cond);
      }
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(St)) {
      loop([&] { return condition(W->getCond(), W->getConditionVariable(), nullptr); },
           [&] { stmt(W->getBody()); }, [] { return TaintValue{}; }, /*BodyFirst=*/false, W, {W->getCond()});
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(St)) {
      loop([&] { return condition(D->getCond(), nullptr, nullptr); }, [&] { stmt(D->getBody()); },
           [] { return TaintValue{}; }, /*BodyFirst=*/true, D, {D->getCond()});
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(St)) {
      stmt(F->getInit());
      loop(
          [&] {
            return F->getCond() ? condition(F->getCond(), F->getConditionVariable(), nullptr) : TaintValue{};
          },
          [&] { stmt(F->getBody()); },
          [&] {
            TaintValue Step = eval(F->getInc());
            use(Step);
            return Step;
          },
          /*BodyFirst=*/false, F, {F->getCond(), F->getInc()});
      return;
    }
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(St)) {
      stmt(RF->getInit());
      const Expr *RangeInit = RF->getRangeInit();
      TaintValue Range = eval(RangeInit);
      // Over a container, the trip count is its number of elements; the loop variable holds
      // one of them.
      TaintValue Trip = Range;
      if (RangeInit && isHostContainerType(RangeInit->getType())) {
        Trip = sizeOf(RangeInit, Range);
        Range = elementsOf(RangeInit, Range);
        Facts.replaceTaint(RangeInit, Trip.origin());
      }
      use(Trip);
      const VarDecl *LoopVar = RF->getLoopVariable();
      loop(
          [&] {
            if (LoopVar && Api.holdsTensors(LoopVar->getType()))
              setShapeOf(LoopVar, dynamicShape(RF->getRangeInit()), LoopVar->getLocation(), RF->getRangeInit(),
                         /*Strong=*/true);
            if (LoopVar && !Api.isTensor(LoopVar->getType()))
              setVar(LoopVar, Range, LoopVar->getLocation(), RF->getRangeInit(), true);
            else if (LoopVar)
              S.Masks.erase(LoopVar);
            return Trip;
          },
          [&] { stmt(RF->getBody()); }, [] { return TaintValue{}; }, /*BodyFirst=*/false, RF, {});
      return;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(St)) {
      stmt(Sw->getInit());
      TaintValue Cond = condition(Sw->getCond(), Sw->getConditionVariable(), Sw);
      Control.push_back(Cond);
      TaintState Entry = S;
      S.Unreachable = true; // code before the first label is not reached
      Jumps.emplace_back();
      SwitchEntry.push_back(&Entry);
      stmt(Sw->getBody());
      SwitchEntry.pop_back();
      Control.pop_back();
      JumpTargets J = std::move(Jumps.back());
      Jumps.pop_back();
      for (const TaintState &B : J.Breaks)
        S = joinStates(S, B);
      bool HasDefault = false;
      for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase())
        HasDefault |= isa<DefaultStmt>(SC);
      if (!HasDefault)
        S = joinStates(S, Entry);
      // Continues inside a switch belong to the enclosing loop.
      if (!J.Continues.empty() && !Jumps.empty())
        for (TaintState &C : J.Continues)
          Jumps.back().Continues.push_back(std::move(C));
      return;
    }
    if (const auto *SC = dyn_cast<SwitchCase>(St)) {
      if (!SwitchEntry.empty())
        S = joinStates(S, *SwitchEntry.back());
      stmt(SC->getSubStmt());
      return;
    }
    if (isa<BreakStmt>(St)) {
      if (!Jumps.empty())
        Jumps.back().Breaks.push_back(S);
      S.Unreachable = true;
      return;
    }
    if (isa<ContinueStmt>(St)) {
      if (!Jumps.empty())
        Jumps.back().Continues.push_back(S);
      S.Unreachable = true;
      return;
    }
    if (const auto *R = dyn_cast<ReturnStmt>(St)) {
      if (const Expr *V = R->getRetValue()) {
        TaintValue RV = eval(V);
        if (InRegion)
          use(RV); // a region's result is the graph's output
        if (!isHostContainerType(FD->getReturnType())) {
          Ret = join(Ret, RV);
        } else if (auto Parts = containerParts(V)) {
          Ret = join(Ret, Parts->first);
          RetSize = join(RetSize, Parts->second);
        } else {
          Ret = join(Ret, RV);
          RetSize = join(RetSize, RV);
        }
        RetShape = join(RetShape, dynamicShape(V));
        AllReturnsMask = AllReturnsMask && isMask(V);
        AllReturnsHost = AllReturnsHost && Api.isTensor(V->getType()) && A.realHostOrigin(hostResident(V));
        SawReturn = true;
      }
      Exit = joinStates(Exit, S);
      S.Unreachable = true;
      return;
    }
    if (const auto *Try = dyn_cast<CXXTryStmt>(St)) {
      TaintState Before = S;
      stmt(Try->getTryBlock());
      TaintState After = S;
      for (unsigned I = 0; I < Try->getNumHandlers(); ++I) {
        S = joinStates(Before, After);
        S.Unreachable = false;
        stmt(Try->getHandler(I)->getHandlerBlock());
        After = joinStates(After, S);
      }
      S = After;
      return;
    }
    if (const auto *L = dyn_cast<LabelStmt>(St)) {
      stmt(L->getSubStmt());
      return;
    }
    if (const auto *AS = dyn_cast<AttributedStmt>(St)) {
      stmt(AS->getSubStmt());
      return;
    }
    // Anything else (asm, goto, coroutines): visit the expressions it holds.
    for (const Stmt *Child : St->children())
      stmt(Child);
  }

  std::vector<const TaintState *> SwitchEntry;
};

} // namespace

void TaintAnalysis::Impl::analyzeFunction(const FunctionDecl *FD) {
  BodyInterpreter I(*this, FD, TaintState());
  I.seedParameters();
  I.seedFields();
  I.runConstructorInits();
  I.runBody(FD->getBody());
  Summaries[key(FD)].absorb(I.summarize());
}

TaintAnalysis::TaintAnalysis(ASTContext &Ctx, TaintFacts &Facts,
                             std::function<bool(const Decl *)> IsGraphRegion)
    : P(std::make_unique<Impl>(Ctx, Facts, std::move(IsGraphRegion))) {}

TaintAnalysis::~TaintAnalysis() = default;

void TaintAnalysis::importFrom(const ProgramFacts *Program, std::set<std::string> *Lookups) {
  P->Program = Program;
  P->Lookups = Lookups;
}

void TaintAnalysis::exportTo(FactTable &Out, llvm::ArrayRef<const FunctionDecl *> Functions) const {
  auto Value = [&](const TaintValue &V) { return PortableValue{P->keep(Out, V.Origin), V.Params, V.AnyDim}; };
  for (const FunctionDecl *FD : Functions) {
    auto It = P->Summaries.find(key(FD));
    const std::string &Usr = P->usr(FD);
    if (It == P->Summaries.end() || Usr.empty())
      continue;
    PortableSummary S;
    S.Return = Value(It->second.Return);
    S.ReturnShape = Value(It->second.ReturnShape);
    S.ReturnSize = Value(It->second.ReturnSize);
    S.ReturnsMask = It->second.ReturnsMask;
    S.ReturnsHost = It->second.ReturnsHost;
    for (const TaintValue &V : It->second.Out)
      S.Out.push_back(Value(V));
    for (const TaintValue &V : It->second.OutSize)
      S.OutSize.push_back(Value(V));
    Out.Summaries[Usr] = std::move(S);
  }
  for (const auto &[FD, Slots] : P->ParamEntry) {
    const std::string &Usr = P->usr(FD);
    if (Usr.empty())
      continue;
    std::vector<const PortableOrigin *> &Into = Out.ParamEntries[Usr];
    Into.resize(std::max(Into.size(), Slots.size()), nullptr);
    for (size_t I = 0; I < Slots.size(); ++I)
      if (!Into[I])
        Into[I] = P->keep(Out, Slots[I]);
  }
  // Several declarations may share a USR (a global declared `extern` and defined): the earliest
  // read explains the taint, whatever order the maps iterate in.
  auto Earliest = [&](std::map<std::string, const PortableOrigin *> &Into, const Decl *D, const TracedOrigin *O) {
    const std::string &Usr = P->usr(D);
    if (Usr.empty() || !O)
      return;
    const PortableOrigin *New = P->keep(Out, O);
    const PortableOrigin *&Slot = Into[Usr];
    if (!Slot || std::tie(New->Read.File, New->Read.Offset) < std::tie(Slot->Read.File, Slot->Read.Offset))
      Slot = New;
  };
  for (const auto &[F, O] : P->FieldTaint)
    Earliest(Out.Fields, F, O);
  for (const auto &[F, O] : P->FieldShapes)
    Earliest(Out.FieldShapes, F, O);
  for (const auto &[F, O] : P->FieldSizes)
    Earliest(Out.FieldSizes, F, O);
  for (const auto &[VD, O] : P->GlobalTaint)
    Earliest(Out.Globals, VD, O);
}

void TaintAnalysis::run(llvm::ArrayRef<const FunctionDecl *> Functions) {
  // Every analyzed function starts with an empty summary, so that a call to a function not yet
  // analyzed in round 1 is not mistaken for an opaque call whose result joins its arguments.
  for (const FunctionDecl *FD : Functions)
    P->Summaries[key(FD)];
  // Iterate to the fixed point. Summaries, field and global taint only ever grow (joins), and
  // their weight is bounded by the functions' parameters, outputs and the program's fields, so
  // each round either adds weight or is the last: the loop ends without a cap. A call chain
  // written callers-first needs one round per level.
  unsigned Previous = ~0u;
  while (true) {
    P->Facts.clearExpressionFacts();
    for (const FunctionDecl *FD : Functions)
      P->analyzeFunction(FD);
    unsigned Now = P->weight();
    if (Now == Previous)
      break;
    assert((Previous == ~0u || Now > Previous) && "taint summaries must only grow");
    Previous = Now;
  }
}

} // namespace graphify
