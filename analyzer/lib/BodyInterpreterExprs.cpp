// Expressions: the transfer function of each kind, calls through summaries, the rule packs or
// as opaque calls, and lambdas analysed in the state they capture.
#include "BodyInterpreter.h"
#include "ConstructedTables.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <map>
#include <optional>
#include <tuple>

namespace graphify::taint {

using namespace clang;

TaintValue BodyInterpreter::eval(const Expr *E) {
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

TaintValue BodyInterpreter::evalChildren(const Stmt *E) {
  TaintValue V;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      V = join(V, eval(CE));
  return V;
}

TaintValue BodyInterpreter::evalImpl(const Expr *E) {
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, StringLiteral, CharacterLiteral,
          CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr, CXXDefaultArgExpr, CXXThisExpr,
          SizeOfPackExpr, TypeTraitExpr, CXXNoexceptExpr, GNUNullExpr>(E))
    return {};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    // `for (const auto &[cls, members] : by_class)`: a binding holds a part of the decomposed
    // object, which holds what the whole holds.
    if (const auto *BD = dyn_cast<BindingDecl>(D); BD && BD->getDecomposedDecl())
      D = BD->getDecomposedDecl();
    if (const auto *VD = dyn_cast<VarDecl>(D))
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

TaintValue BodyInterpreter::evalMember(const MemberExpr *ME) {
  TaintValue V = evalMemberElements(ME);
  if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()); F && Api.isHostContainer(F->getType()))
    V = join(V, fieldSize(F));
  return V;
}

TaintValue BodyInterpreter::evalMemberElements(const MemberExpr *ME) {
  TaintValue BaseV = eval(ME->getBase());
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F)
    return BaseV;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Base)) {
    auto It = S.Values.find({nullptr, F});
    return It != S.Values.end() ? It->second : fieldTaint(F);
  }
  if (hostArrayListOf(Base)) // `planes[0].rows`
    if (std::optional<TaintValue> Shape = hostArrayField(ME))
      return *Shape;
  if (const auto *BD = dyn_cast<DeclRefExpr>(Base))
    if (const auto *VD = dyn_cast<VarDecl>(BD->getDecl()); VD && isLocal(VD)) {
      if (std::optional<TaintValue> Shape = hostArrayField(ME))
        return *Shape;
      // A reference or pointer names an object that outlives this function: what any code wrote
      // into the field (the TU-wide fact) may be there too.
      const TaintValue Elsewhere =
          VD->getType()->isReferenceType() || VD->getType()->isPointerType() ? fieldTaint(F) : TaintValue{};
      if (auto It = S.Values.find({VD, F}); It != S.Values.end())
        return join(It->second, Elsewhere);
      return join(BaseV, Elsewhere);
    }
  if (const VarDecl *Root = rootVariable(Base); Root && isLocal(Root))
    return join(join(BaseV, S.get({Root, F})), fieldTaint(F));
  return join(BaseV, fieldTaint(F));
}

TaintValue BodyInterpreter::evalBinary(const BinaryOperator *BO) {
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

TaintValue BodyInterpreter::evalConditional(const AbstractConditionalOperator *CO) {
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

TaintValue BodyInterpreter::evalOverloadedAssignment(const CXXOperatorCallExpr *Op) {
  const Expr *LHS = Op->getArg(0);
  TaintValue V = eval(Op->getArg(1));
  TaintValue Old = eval(LHS);
  // Tensor `=` rebinds the handle (mask-ness and shape follow); `out[i] = x` writes into a view
  // of `out`, whose shape stays.
  if (Op->getOperator() == OO_Equal && Api.holdsTensors(LHS->getType()))
    setShape(LHS, Op->getArg(1), Op, /*Strong=*/true);
  // `std::tie(scores, order) = s.sort(0)`: each tied tensor is rebound to an element of the
  // tuple, whose shape (and residence) is the op's.
  if (Op->getOperator() == OO_Equal)
    for (const Expr *Tied : tiedReferences(LHS))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(skipValueWrappers(Tied)); DRE && Api.isTensor(DRE->getType())) {
        setShape(DRE, Op->getArg(1), Op, /*Strong=*/true);
        rebindTensor(DRE->getDecl(), Op->getArg(1));
      }
  if (Op->getOperator() == OO_Equal && isTensorRecord(LHS->getType()))
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts())) {
      if (const Expr *Host = hostRecord(Op->getArg(1)))
        S.HostTensors[DRE->getDecl()] = Host;
      else
        S.HostTensors.erase(DRE->getDecl());
    }
  if (Api.isTensor(LHS->getType())) {
    // Tensor `+=` is device math.
    if (Op->getOperator() == OO_Equal) {
      const Expr *Target = LHS->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Target)) {
        rebindTensor(DRE->getDecl(), Op->getArg(1));
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          noteGrowth(VD, Op->getArg(1));
      }
      else if (const auto *ME = dyn_cast<MemberExpr>(Target)) {
        if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
            F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
          rebindField(F, Op->getArg(1));
        else
          rebindRecordField(ME, Op->getArg(1));
      } else if (const VarDecl *List = storingList(Target, Api)) {
        storeIntoList(List, Op->getArg(1));
      }
    } else {
      forgetHostIfMixed(LHS, Op->getArg(1));
    }
    use(V);
    return {};
  }
  if (Op->getOperator() != OO_Equal)
    V = join(V, Old);
  if (Op->getOperator() == OO_Equal)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && setContainer(VD, Op->getArg(1), DRE->getLocation(), Op))
        return V;
  if (Op->getOperator() == OO_Equal && setContainerField(LHS, Op->getArg(1), Op))
    return V;
  // `flags[i] = true` through a proxy (std::vector<bool>) under a test of tensor data.
  V = join(V, writtenUnderControl(LHS, Op, "set"));
  assign(LHS, V, Op);
  return V;
}

bool BodyInterpreter::passesObject(const ApiCall &C) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C.Callee);
  if (!MD || !MD->isInstance() || isa<CXXConstructExpr>(C.Call) || C.Args.empty())
    return false;
  // A method recognised as the NMS kernel is given its arguments without its object
  // (ApiResolver::resolve): its first parameter is then the first argument.
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C.Call);
  return !MC || C.Args.front() == MC->getImplicitObjectArgument();
}

TaintValue BodyInterpreter::evalCall(const Expr *E) {
  auto C = Api.resolve(E);
  if (!C) {
    TaintValue V = evalChildren(E); // calls through pointers, dependent calls
    if (isa<CallExpr>(E))
      forgetFieldShapesCallMayRebind(nullptr);
    return V;
  }
  const FunctionDecl *Callee = C->Callee;
  bool Instance = passesObject(*C);
  unsigned First = Instance ? 1 : 0;

  llvm::SmallVector<TaintValue, 4> ArgV;
  for (const Expr *Arg : C->Args)
    ArgV.push_back(eval(Arg));
  // `std::accumulate(v.begin(), v.end(), 0.f)` walks v: its trip count is v's length, kept on the
  // range's first argument for the loop check, as a range-based for keeps it on its range.
  if (C->hasTag("iterates_range") && !C->Args.empty())
    if (const Expr *Container = containerIteratedBy(C->Args.front()))
      Facts.replaceTaint(C->Args.front(), sizeOf(Container, eval(Container)).origin());
  noteHostArguments(*C, First);
  notePassedForRebinding(*C, First);
  forgetRecordsPassed(*C, First);
  forgetFieldShapesCallMayRebind(&*C);
  dataLength(*C, E, /*Record=*/true);
  noteRaise(*C, E, ArgV);

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

  if (const ApiEntry *Entry = C->entryWithTag("data_dependent_output"); Entry && !ResultTensor) {
    // A table the object's constructor built on the host holds constants, not the region's data.
    if (TensorObject && readsConstructedTable(C->Args[0], A.realHostOrigin(hostResident(C->Args[0])), *FD, Api, Ctx()))
      return {};
    return {source(*C, *Entry), 0};
  }

  // A compiled model's result: device tensors in a structure the model fixes, whatever host
  // values were among its inputs (LibreASR's predictor state list, one entry per layer).
  if (C->hasTag("model_result"))
    return {};
  if (auto It = A.Summaries.find(key(Callee)); It != A.Summaries.end())
    return applySummary(*C, It->second, ArgV, First);
  if (const FunctionSummary *Imported = A.importedSummary(Callee))
    return applySummary(*C, *Imported, ArgV, First);

  if (TensorObject && !ResultTensor && C->hasTag("shape_query"))
    if (TaintValue Shape = dynamicShape(C->Args[0]); !Shape.empty()) {
      if (C->Args.size() > 1 && !followsDim(Shape, C->Args[1]))
        return {}; // `sel.size(1)`: only the leading dimension follows the values
      Shape.AnyDim = false; // a host value now
      Shape.Dims = 1;
      return step(Shape, C->NameLoc, E, "its size read here"); // the size of a value-dependent shape
    }
  // `sel.sizes()[1]`
  if (const auto *Sub = dyn_cast<CXXOperatorCallExpr>(E); Sub && Sub->getOperator() == OO_Subscript &&
                                                       Sub->getNumArgs() == 2)
    if (auto Sizes = Api.resolve(skipValueWrappers(Sub->getArg(0))); Sizes && Sizes->hasTag("shape_query") &&
                                                                     Sizes->Args.size() == 1)
      if (TaintValue Shape = dynamicShape(Sizes->Args[0]); !Shape.empty() && !followsDim(Shape, Sub->getArg(1)))
        return {};
  // The sizes of a host view of a tensor's memory (`a.size(0)` of an accessor) are the
  // tensor's metadata, however tainted the view's elements are.
  if (Instance && !TensorObject && C->hasTag("shape_query"))
    return viewedSize(*C, E);
  noteStoredShapes(*C, E);
  if (Instance)
    noteListMethodStores(*C);
  noteModuleState(*C);
  if (C->hasTag("metadata_query") && !ResultTensor)
    return {}; // an image's element type (cv::Mat::type): neither its pixels nor its size decide it
  if (Instance && !C->Args.empty() && Api.isHostContainer(C->Args[0]->getType()))
    if (std::optional<TaintValue> V = containerCall(*C, E, ArgV))
      return ResultTensor ? TaintValue{} : *V;
  if (ResultTensor || TensorObject)
    return {}; // device results, and shapes/flags read from a tensor's metadata

  // A function or method we cannot see: its result depends on all of its inputs.
  TaintValue All;
  for (const TaintValue &V : ArgV)
    All = join(All, V);
  // A host array the packs say how the call shapes (cv::resize to a constant cv::Size) is
  // replaced whole, however clean or tainted the inputs; one it makes (clone) or constructs
  // keeps its shape apart too.
  std::optional<TaintValue> Shape = writtenShape(*C, ArgV);
  // What the call writes through its outputs may come from its object too (`src.copyTo(dst)`),
  // not from an array it only writes (`cap >> frame`: a plain `Mat&` of such a call, where an
  // array it also reads comes as an InputArray or InputOutputArray; `cap.read(frame)`, whose
  // OutputArray the pack says it only writes).
  auto OnlyWritten = [&](unsigned I) {
    if (!Shape || I < First || I - First >= Callee->getNumParams())
      return false;
    QualType T = Callee->getParamDecl(I - First)->getType();
    return isOutputArrayParam(T) || (C->hasTag("writes_arrays_only") && writesThroughWrapper(T));
  };
  TaintValue Inputs, Written;
  for (unsigned I = 0; I < ArgV.size(); ++I)
    if (!OnlyWritten(I)) {
      Written = join(Written, ArgV[I]);
      if (I >= First)
        Inputs = join(Inputs, ArgV[I]);
    }
  if (Shape && Api.isHostArray(E->getType()))
    ReturnedContainers[E] = {All, *Shape};
  noteConstructedArray(*C, E, ArgV, All);
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  // A non-const method fed with host data (`v.push_back(s)`) now holds that data; an
  // element access (`v[i]`, `v.at(i)`) only reads at a position.
  if (!Inputs.empty() && Instance && MD && !MD->isConst() && !isElementAccess(*MD) && storesArguments(*MD))
    taintObject(C->Args[0], Inputs, C->NameLoc, E);
  // An opaque function may write host data through its non-const reference parameters,
  // and into the elements behind its non-const pointers (`memcpy(buf.data(), c.data_ptr(),
  // n)` fills buf's elements, not its length).
  for (unsigned I = 0; I < Callee->getNumParams() && First + I < C->Args.size(); ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    const Expr *Arg = C->Args[First + I];
    // A wrapper's converting constructor (cv::InputOutputArray from a cv::Mat&) only holds the
    // array for the call it is passed to, which writes it (wrappedForWriting): writing it here
    // too would join its pixels into its shape.
    if (isa<CXXConstructorDecl>(Callee) && Callee->getNumParams() == 1 && Api.isHostArray(Arg->getType()))
      continue;
    std::string Note = "written by '" + Callee->getNameAsString() + "' here";
    bool ByReference = T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() &&
                       !Api.isTensor(T) && !isForwardingReference(*Callee, I);
    const Expr *Wrapped = ByReference ? nullptr : wrappedForWriting(Arg);
    if (Shape && (ByReference || Wrapped) && writeHostArray(ByReference ? Arg : Wrapped, Written, *Shape, E,
                                                            C->NameLoc, Note))
      continue;
    if (Shape && (T->isPointerType() || Wrapped) &&
        writeHostArrayList(T->isPointerType() ? Arg : Wrapped, Written, *Shape, E, C->NameLoc, Note))
      continue;
    if (Written.empty())
      continue;
    // `src.copyTo(dst(roi))`: the region of interest shares dst's pixels, which now hold src's too.
    if (const VarDecl *Viewed = hostArrayViewed(ByReference ? Arg : Wrapped ? Wrapped
                                                : writesThroughWrapper(T) ? Arg : nullptr)) {
      writeKey({Viewed, nullptr}, join(S.get({Viewed, nullptr}), step(Written, C->NameLoc, E, Note)), /*Strong=*/true);
      continue;
    }
    if (ByReference)
      assignWeak(Arg, Written, E, C->NameLoc, Note);
    else if (T->isPointerType() && !T->getPointeeType().isConstQualified())
      writeElementsThrough(Arg, Written, E, C->NameLoc, Note);
    else if (const Expr *Into = containerIteratedBy(Arg))
      writeElementsThrough(Into, Written, E, C->NameLoc, Note);
    else if (Wrapped)
      assignWeak(Wrapped, Written, E, C->NameLoc, Note);
  }
  // A status code says whether the call worked, not what the memory it moved holds.
  if (C->hasTag("status_result"))
    return {};
  return computedFromObjects(*C, E, ArgV, All);
}

const Expr *BodyInterpreter::wrappedForWriting(const Expr *Arg) {
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

TaintValue BodyInterpreter::computedFromObjects(const ApiCall &C, const Expr *E, llvm::ArrayRef<TaintValue> ArgV,
                                                TaintValue All) {
  auto IsSize = [](const TracedOrigin *O) { return O && O->SizeOfSelection; };
  // A constructor converts (cv::Mat to cv::InputArray): the object still holds the size.
  const bool Struct = E->getType()->getAsCXXRecordDecl() && !isa<CXXConstructExpr>(E) &&
                      !Api.isHostContainer(E->getType());
  if (!Struct || !(IsSize(All.Origin) || IsSize(All.Context)))
    return All;
  for (size_t I = 0; I < ArgV.size(); ++I)
    if ((IsSize(ArgV[I].Origin) || IsSize(ArgV[I].Context)) && !C.Args[I]->getType()->getAsCXXRecordDecl())
      return All;
  return step(notTheSize(All), C.NameLoc, E, "computed on the host by '" + C.Callee->getNameAsString() + "' here");
}

TaintValue BodyInterpreter::notTheSize(TaintValue V) {
  return relabel(V, /*ThroughControl=*/false);
}

TaintValue BodyInterpreter::throughControl(TaintValue V, bool KeepSize) {
  return relabel(V, /*ThroughControl=*/true, KeepSize);
}

TaintValue BodyInterpreter::relabel(TaintValue V, bool ThroughControl, bool KeepSize) {
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

void BodyInterpreter::taintObject(const Expr *Obj, TaintValue V, SourceLocation Loc, const Stmt *At) {
  const Expr *O = Obj->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(O))
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      const VarDecl *Root = isa<CXXThisExpr>(Base) ? nullptr : rootVariable(Base);
      if (Root || isa<CXXThisExpr>(Base))
        writeField(Root, F, V, Loc, At, /*Strong=*/false, /*Whole=*/false, "added to");
      return;
    }
  const VarDecl *Root = rootVariable(O);
  if (!Root)
    return;
  // A method called on an element (`promises[i].set_value(v)`): the elements hold the value, the
  // container's length does not follow it.
  const auto *Whole = dyn_cast<DeclRefExpr>(O);
  if (!(Whole && Whole->getDecl() == Root) && isLocal(Root) && Api.isHostContainer(Root->getType())) {
    writeKey({Root, nullptr}, step(V, Loc, At, "added to an element of '" + nameOf(Root) + "' here"), /*Strong=*/false);
    return;
  }
  setVar(Root, V, Loc, At, /*Strong=*/false, "added to '" + nameOf(Root) + "' here");
}

void BodyInterpreter::analyzeLambda(const LambdaExpr *LE) {
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

TaintValue BodyInterpreter::capturedResult(const LambdaExpr *LE) {
  const CXXMethodDecl *Call = LE->getCallOperator();
  auto It = Call ? A.Summaries.find(key(Call)) : A.Summaries.end();
  if (It == A.Summaries.end())
    return {};
  TaintValue V = It->second.Return;
  V.Params = 0;
  V.AnyDim = false;
  V.Dims = 1;
  return V;
}

void BodyInterpreter::analyzeLambdaBody(const LambdaExpr *LE, const FunctionDecl *Call, const TaintState &Init) {
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
    // A tensor the lambda rebinds (`result = kernel(dets, t);` in AT_DISPATCH_FLOATING_TYPES) may
    // now have the shape it was given there.
    if (TaintValue Shape = End.DynamicShapes.lookup(VD); Shape.tainted() && !S.DynamicShapes.lookup(VD).tainted())
      S.DynamicShapes[VD] = join(S.DynamicShapes.lookup(VD), Shape);
  }
}

} // namespace graphify::taint
