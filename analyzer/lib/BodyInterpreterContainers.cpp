// Host containers: their elements and their length tracked apart, what a call stores into or
// empties out of them, writes through pointers and references, and a callee's summary applied
// to what the caller passed.
#include "BodyInterpreter.h"

#include "graphify/analyzer/ContainerElement.h"
#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <map>
#include <optional>
#include <tuple>

namespace graphify::taint {

using namespace clang;

namespace {

/// Whether the class of `MD` declares a const method of the same name and parameters: then `MD`
/// differs only in the access it gives (`std::map::find(key)` on a non-const map, `lower_bound`,
/// `equal_range`), and looks up without changing the container, while a method with no const
/// twin may grow it (`std::map::operator[]`, `insert`, `emplace`).
bool hasConstTwin(const CXXMethodDecl &MD) {
  if (!MD.getDeclName().isIdentifier() && MD.getOverloadedOperator() == OO_None)
    return false;
  for (const NamedDecl *D : MD.getParent()->lookup(MD.getDeclName())) {
    const auto *Other = dyn_cast<CXXMethodDecl>(D->getUnderlyingDecl());
    if (!Other || Other == &MD || !Other->isConst() || Other->getNumParams() != MD.getNumParams())
      continue;
    bool Same = true;
    for (unsigned I = 0; I < MD.getNumParams() && Same; ++I)
      Same = Other->getParamDecl(I)->getType().getCanonicalType() == MD.getParamDecl(I)->getType().getCanonicalType();
    if (Same)
      return true;
  }
  return false;
}

/// Whether `RD` keeps its elements by key (it declares `key_type`: `std::map`, `std::set`, the
/// unordered ones): inserting a key it already holds adds nothing, so how many elements it
/// holds follows the keys stored (`counts[label]++`, `labels.insert(c)`).
bool isKeyed(const CXXRecordDecl &RD) {
  return !RD.lookup(&RD.getASTContext().Idents.get("key_type")).empty();
}

/// A standard container of integers or floating-point numbers (`std::vector<int>`).
bool holdsNumbers(QualType T) {
  return isHostContainerType(T) && containerValueType(T)->isArithmeticType();
}

/// The declaration `E` names: a local's, a parameter's or a field's (`labelsMap`, `this->m`).
const ValueDecl *namedDecl(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->getMemberDecl();
  return nullptr;
}

/// Whether `Cond` tests that the container `Obj` holds the key `Key`: `m.find(k) != m.end()`,
/// `m.count(k)`, `m.contains(k)`.
bool testsKeyPresent(const Expr *Cond, const ValueDecl *Obj, const ValueDecl *Key) {
  llvm::SmallVector<const Stmt *, 16> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S); MC && MC->getMethodDecl() && MC->getNumArgs() == 1 &&
                                                        MC->getMethodDecl()->getIdentifier()) {
      llvm::StringRef Name = MC->getMethodDecl()->getName();
      if ((Name == "find" || Name == "count" || Name == "contains") &&
          namedDecl(MC->getImplicitObjectArgument()) == Obj && namedDecl(MC->getArg(0)) == Key)
        return true;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_LNot)
      continue; // `!m.count(k)`: absent
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_EqualEqual)
      continue; // `m.find(k) == m.end()`: absent
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

} // namespace

bool BodyInterpreter::lookedUpBefore(const Expr *Subscript, const Expr *Obj, const Expr *KeyArg) {
  const ValueDecl *Container = namedDecl(Obj);
  const ValueDecl *Key = namedDecl(KeyArg);
  if (!Container || !Key)
    return false;
  // `if (m.find(k) != m.end()) use(m[k]);`: the subscript runs only where k is there, so it
  // reads, it does not insert.
  const Stmt *Node = Subscript;
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    DynTypedNodeList Parents = Ctx().getParents(*Node);
    const Stmt *Up = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!Up)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Up); If && If->getThen() == Node && testsKeyPresent(If->getCond(), Container, Key))
      return true;
    Node = Up;
  }
  return false;
}

std::optional<TaintValue> BodyInterpreter::containerCall(const ApiCall &C, const Expr *E,
                                                         llvm::ArrayRef<TaintValue> ArgV) {
  const auto *MD = dyn_cast<CXXMethodDecl>(C.Callee);
  if (!MD)
    return std::nullopt;
  const Expr *Obj = C.Args[0];
  TaintValue Arguments;
  for (unsigned I = 1; I < ArgV.size(); ++I)
    Arguments = join(Arguments, ArgV[I]);
  if (isSizeQuery(*MD)) {
    // `v.empty()` after `if (v.empty()) return;`: false, whatever the data.
    if (MD->getIdentifier() && MD->getName() == "empty")
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts()); DRE && S.NonEmpty.contains(DRE->getDecl()))
        return Arguments;
    return join(sizeOf(Obj, ArgV[0]), Arguments);
  }
  if (isElementRead(*MD))
    return join(elementsOf(Obj, ArgV[0]), Arguments);
  if (MD->isConst() || returnsIterator(*MD) || hasConstTwin(*MD))
    return std::nullopt;
  if (MD->getOverloadedOperator() == OO_Subscript && C.Args.size() == 2 && lookedUpBefore(E, Obj, C.Args[1]))
    return join(elementsOf(Obj, ArgV[0]), Arguments);
  if (C.hasTag("empties_container")) {
    emptyContainer(Obj, C.NameLoc, E);
    return {};
  }
  TaintValue Count = countSince(Obj);
  // Numbers added under a condition on tensor data (`keep.push_back(b)` under `if (done[b])`):
  // which numbers the list holds follows the data as much as how many, so a position read back
  // from it (`for (int b : keep) out[b] = ...`) does too.
  TaintValue Stored = holdsNumbers(Obj->getType()) ? Count : TaintValue{};
  const VarDecl *Root = rootVariable(Obj);
  const bool Keyed = isKeyed(*MD->getParent());
  for (unsigned I = 1; I < C.Args.size(); ++I) {
    QualType T = I - 1 < MD->getNumParams() ? MD->getParamDecl(I - 1)->getType() : C.Args[I]->getType();
    if (!T->isReferenceType() && T->isIntegerType())
      Count = join(Count, ArgV[I]);
    else
      Stored = join(Stored, ArgV[I]);
    if (Keyed)
      Count = join(Count, ArgV[I]);
    // `mats.push_back(m)`: the list keeps m's shape with its length.
    if (keepsElementShapes(Root) && Api.isHostArray(C.Args[I]->getType()))
      Count = join(Count, shapeOfArgument(C.Args[I], ArgV[I]));
  }
  growContainer(Obj, Stored, Count, C.NameLoc, E);
  return join(ArgV[0], Arguments);
}

void BodyInterpreter::storeIntoList(const VarDecl *List, const Expr *Value) {
  auto It = S.HostTensors.find(List);
  if (It == S.HostTensors.end())
    return;
  const Expr *Host = A.realHostOrigin(hostResident(Value));
  if (!Host)
    S.HostTensors.erase(It);
  else if (!It->second)
    It->second = Host;
}

void BodyInterpreter::noteListMethodStores(const ApiCall &C) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C.Callee);
  const auto *DRE = C.Args.empty() ? nullptr : dyn_cast<DeclRefExpr>(skipValueWrappers(C.Args[0]));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!MD || MD->isConst() || !VD || !isLocal(VD) || Api.isTensor(VD->getType()) || !Api.holdsTensors(VD->getType()))
    return;
  for (unsigned I = 1; I < C.Args.size(); ++I)
    if (Api.isTensor(skipValueWrappers(C.Args[I])->getType()))
      storeIntoList(VD, C.Args[I]);
}

void BodyInterpreter::emptyContainer(const Expr *Obj, SourceLocation Loc, const Stmt *At) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isLocal(VD) || !Api.isHostContainer(VD->getType()))
    return;
  auto It = Declared.find(VD);
  Declaration Here = It == Declared.end() ? Declaration{} : It->second;
  Here.LoopExits = S.LoopExits;
  Here.FunctionExits = S.FunctionExits;
  S.Values.erase({VD, nullptr});
  // Emptied in every iteration, it is empty whatever the enclosing loops' trip counts.
  writeKey(sizeKey(VD), step(reachedSince(Here, /*SkipLoops=*/true), Loc, At, "'" + nameOf(VD) + "' emptied here"),
           /*Strong=*/true);
  S.Emptied[VD] = {S.LoopExits, S.FunctionExits, Control.size()};
}

TaintValue BodyInterpreter::countSince(const Expr *Obj) {
  Obj = Obj->IgnoreParenImpCasts();
  // A container in a local struct (`out.points.resize(k)`): counted from the struct's declaration.
  for (const auto *ME = dyn_cast<MemberExpr>(Obj); ME && !ME->isArrow(); ME = dyn_cast<MemberExpr>(Obj))
    Obj = ME->getBase()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD) && !VD->getType()->isReferenceType()) {
      // Grown once per iteration of a loop, it holds as many elements as iterations ran: inside
      // the loop that is the iteration's number, whatever ends the loop (`caption.push_back(tok)`
      // before `if (tok == eos) break;`); after it, the trip count (endLoop).
      if (!WrittenInLoop.empty())
        WrittenInLoop.back().insert(sizeKey(VD));
      return reachedSince(VD, /*SkipLoops=*/true);
    }
  return reached();
}

TaintValue BodyInterpreter::sizeOf(const Expr *Obj, TaintValue ObjV) {
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return isLocal(VD) ? S.get(sizeKey(VD)) : readVar(VD);
  if (const auto *ME = dyn_cast<MemberExpr>(Obj))
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      return join(wholeLocalObject(ME), fieldSize(F));
  if (isRankLong(Obj))
    return {};
  return ObjV;
}

bool BodyInterpreter::isRankLong(const Expr *E) const {
  auto C = Api.resolve(skipValueWrappers(E));
  return C && C->hasTag("shape_query") && Api.isHostContainer(E->getType());
}

TaintValue BodyInterpreter::wholeLocalObject(const MemberExpr *ME) {
  // `dets = suppress(dets.items, t); dets.items.size()`: a local struct replaced whole by a
  // value that follows tensor data (or handed to a method without a body with such a value)
  // holds containers of that length; what is stored into one field alone stays that field's.
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (ME->isArrow() || !VD || !isLocal(VD) || VD->getType()->isReferenceType())
    return {};
  return S.get({VD, nullptr});
}

TaintValue BodyInterpreter::elementsOf(const Expr *Obj, TaintValue ObjV) {
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return isLocal(VD) ? S.get({VD, nullptr}) : readVar(VD);
  if (const auto *ME = dyn_cast<MemberExpr>(Obj))
    return evalMemberElements(ME);
  return ObjV;
}

void BodyInterpreter::growContainer(const Expr *Obj, TaintValue Stored, TaintValue Count, SourceLocation Loc,
                                    const Stmt *At) {
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD)) {
      if (!Stored.empty())
        writeKey({VD, nullptr}, step(Stored, Loc, At, "added to '" + nameOf(VD) + "' here"), /*Strong=*/false);
      if (!Count.empty())
        writeKey(sizeKey(VD), step(Count, Loc, At, "the length of '" + nameOf(VD) + "' follows tensor data from here"),
                 /*Strong=*/false);
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

void BodyInterpreter::noteStoredShapes(const ApiCall &C, const Expr *E) {
  const auto *MD = dyn_cast<CXXMethodDecl>(C.Callee);
  if (!MD || !passesObject(C) || MD->isConst() || isElementAccess(*MD) || C.Args.empty() ||
      Api.isTensor(C.Args[0]->getType()) || !Api.holdsTensors(C.Args[0]->getType()))
    return;
  TaintValue V;
  for (unsigned I = 1; I < C.Args.size(); ++I)
    V = join(V, dynamicShape(C.Args[I]));
  if (V.tainted())
    storeShapeInto(C.Args[0], V, C.NameLoc, E);
}

void BodyInterpreter::storeShapeInto(const Expr *Container, TaintValue V, SourceLocation Loc, const Stmt *At) {
  const Expr *Obj = skipValueWrappers(Container);
  if (const auto *ME = dyn_cast<MemberExpr>(Obj)) {
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()); F && !A.FieldShapes.count(F))
      A.FieldShapes[F] = step(V, Loc, At, "added to '" + nameOf(F) + "' here").origin();
    return;
  }
  if (const VarDecl *Root = rootVariable(Obj); Root && isLocal(Root))
    setShapeOf(Root, V, Loc, At, /*Strong=*/false);
}

const Expr *BodyInterpreter::containerOfElement(const Expr *E) {
  const Expr *Obj = nullptr;
  const CXXMethodDecl *MD = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript) {
    Obj = Op->getArg(0);
    MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    Obj = MC->getImplicitObjectArgument();
    MD = MC->getMethodDecl();
  }
  if (!Obj || !MD || !isKeyedElementAccess(*MD) || Api.isTensor(Obj->getType()) || !Api.holdsTensors(Obj->getType()))
    return nullptr;
  return Obj;
}

void BodyInterpreter::assignWeak(const Expr *LHS, TaintValue V, const Stmt *At, SourceLocation Loc, std::string Note) {
  const VarDecl *Root = rootVariable(LHS);
  if (!Root || Api.isTensor(Root->getType()))
    return;
  // Written through one element (`prune(buckets[i], t)` erasing from the inner vector): what it
  // leaves there, its length included, is what the container's elements hold; the container
  // keeps its number of elements.
  if (!isa<DeclRefExpr>(LHS->IgnoreParenImpCasts()) && isLocal(Root) && Api.isHostContainer(Root->getType())) {
    writeKey({Root, nullptr}, step(V, Loc, At, Note), /*Strong=*/false);
    if (keepsElementShapes(Root)) // an element's shape too
      writeKey(sizeKey(Root), step(V, Loc, At, Note), /*Strong=*/false);
    return;
  }
  setVar(Root, V, Loc, At, /*Strong=*/false, std::move(Note));
}

void BodyInterpreter::writeElementsThrough(const Expr *Ptr, TaintValue V, const Stmt *At, SourceLocation Loc,
                                           std::string Note) {
  const VarDecl *Root = rootVariable(Ptr->IgnoreParenCasts()); // `(void *)mat.data`
  if (!Root || Api.isTensor(Root->getType()))
    return;
  if (isLocal(Root) && Api.isHostContainer(Root->getType())) {
    writeKey({Root, nullptr}, step(V, Loc, At, Note), /*Strong=*/false);
    if (keepsElementShapes(Root)) // an element's shape too
      writeKey(sizeKey(Root), step(V, Loc, At, Note), /*Strong=*/false);
  } else {
    setVar(Root, V, Loc, At, /*Strong=*/false, std::move(Note));
  }
}

TaintValue BodyInterpreter::applySummary(const ApiCall &C, const FunctionSummary &Sum, llvm::ArrayRef<TaintValue> ArgV,
                                         unsigned First) {
  const FunctionDecl *Callee = C.Callee;
  std::string Name = calleeName(Callee);
  fieldsWrittenUnderControl(C, Sum);
  // Context for reporting inside the callee: the taint each parameter receives here. Only
  // calls made by graph code count: a helper shared with a training loop is not blamed for
  // what the loop passes it.
  // A tensor argument stands for its shape (the callee's bit for a tensor parameter).
  llvm::SmallVector<TaintValue, 4> Value(ArgV.begin(), ArgV.end());
  for (unsigned I = First; I < Value.size(); ++I)
    if (I - First < Callee->getNumParams() && Api.isTensor(Callee->getParamDecl(I - First)->getType())) {
      Value[I] = dynamicShape(C.Args[I]);
      if (isMask(C.Args[I])) // a mask at every call makes the parameter one (alwaysGivenMask)
        A.noteMaskArgument(Callee, I - First, C.Call);
    }
  for (unsigned I = First; InRegion && I < Value.size(); ++I)
    if (Value[I].tainted()) {
      unsigned Param = I - First;
      std::string PName = Param < Callee->getNumParams()
                              ? nameOf(Callee->getParamDecl(Param))
                              : std::to_string(Param);
      std::string Note = "passed to " + Name + " as '" + PName + "' here";
      auto Entry = [&](TaintValue V) { return step(V, C.Args[I]->getBeginLoc(), C.Call, Note).origin(); };
      // A container passed whole (a local, a field of the object, a helper's result: `to_tensor(
      // window_of(best, 4))`), also by value (a copy keeps the length apart too).
      const Expr *Whole = skipValueWrappers(C.Args[I]);
      auto Parts = isa<DeclRefExpr>(Whole) || isa<MemberExpr>(Whole) || isa<CallExpr>(Whole) ? containerParts(Whole)
                                                                                          : std::nullopt;
      if (!Parts && viewedTensor(C.Args[I])) // a host view: its elements, and its tensor's rows
        Parts = std::make_pair(Value[I], viewedLength(C.Args[I]));
      if (!Parts && isRankLong(C.Args[I])) // `Dims2Str(sel.sizes())`: data-dependent sizes, a static rank
        Parts = std::make_pair(Value[I], TaintValue{});
      if (Parts) {
        A.noteParamEntry(Callee, Param, Entry(Parts->first));
        A.noteParamEntry(Callee, Param, Entry(Parts->second), /*Size=*/true);
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
    if (viewedTensor(C.Args[K]))
      return viewedLength(C.Args[K]);
    if (isRankLong(C.Args[K]))
      return TaintValue{};
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
    // What the callee cannot write (a value, a const reference) keeps its elements and length,
    // whatever conditions the call runs under.
    if (J < Callee->getNumParams() && !mayWriteThrough(Callee->getParamDecl(J)->getType()))
      continue;
    TaintValue V = Through(Sum.Out[J]);
    TaintValue Count = J < Sum.OutSize.size() ? Through(Sum.OutSize[J]) : TaintValue{};
    std::string Note = "written by " + Name + " here";
    const auto *Whole = dyn_cast<DeclRefExpr>(C.Args[First + J]->IgnoreParenImpCasts());
    const auto *Container = Whole ? dyn_cast<VarDecl>(Whole->getDecl()) : nullptr;
    if (Container && isLocal(Container) && Api.isHostContainer(Container->getType())) {
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
  if (!Api.isHostContainer(Callee->getReturnType()))
    return Result;
  TaintValue Length = step(Through(Sum.ReturnSize), C.NameLoc, C.Call, Returned);
  ReturnedContainers[C.Call] = {Result, Length};
  return join(Result, Length);
}

std::optional<std::pair<TaintValue, TaintValue>> BodyInterpreter::containerParts(const Expr *E) {
  E = skipValueWrappers(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD) && Api.isHostContainer(VD->getType()))
      return std::make_pair(S.get({VD, nullptr}), S.get(sizeKey(VD)));
  // `std::vector<uint8_t> flags(n, 0)`: n elements, each the value given (told by the
  // constructor's signature: a count, then an element of the container's value_type).
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1 && Api.isHostContainer(CE->getType())) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    const QualType Element = containerValueType(CE->getType());
    auto IsElement = [&](unsigned I) {
      return I < Ctor->getNumParams() && !Element.isNull() &&
             Ctor->getParamDecl(I)->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType() ==
                 Element.getCanonicalType().getUnqualifiedType();
    };
    if (Ctor->getNumParams() >= 1 && Ctor->getParamDecl(0)->getType()->isIntegerType() &&
        (CE->getNumArgs() == 1 || IsElement(1)))
      return std::make_pair(CE->getNumArgs() > 1 ? eval(CE->getArg(1)) : TaintValue{}, eval(CE->getArg(0)));
  }
  // An element of a list of host arrays: the list's elements, and their shapes.
  if (const VarDecl *List = hostArrayListOf(E))
    return std::make_pair(S.get({List, nullptr}), S.get(sizeKey(List)));
  if (auto It = ReturnedContainers.find(E); E && It != ReturnedContainers.end())
    return It->second;
  // A container field of the object: its elements as read here, its length TU-wide.
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
        F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && Api.isHostContainer(F->getType()))
      return std::make_pair(evalMemberElements(ME), fieldSize(F));
  return std::nullopt;
}

bool BodyInterpreter::setContainerField(const Expr *Target, const Expr *From, const Stmt *At) {
  const auto *ME = dyn_cast<MemberExpr>(Target->IgnoreParenImpCasts());
  const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!F || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) || !Api.isHostContainer(F->getType()))
    return false;
  auto Parts = containerParts(From);
  if (!Parts)
    return false;
  // The elements as any write of the field; the length (an image's shape) apart, TU-wide.
  writeField(nullptr, F, Parts->first, ME->getMemberLoc(), At, /*Strong=*/true, /*Whole=*/false);
  if (Parts->second.tainted() && !A.FieldSizes.count(F))
    A.FieldSizes[F] = step(Parts->second, ME->getMemberLoc(), At, "assigned to '" + nameOf(F) + "' here").origin();
  return true;
}

bool BodyInterpreter::setContainer(const VarDecl *VD, const Expr *From, SourceLocation Loc, const Stmt *At) {
  // A reference parameter names one object of the caller, replaced whole as a local is (the
  // summary's Out carries it back); a local reference may name an element of anything.
  if (!isLocal(VD) || !Api.isHostContainer(VD->getType()) ||
      (VD->getType()->isReferenceType() && !isa<ParmVarDecl>(VD)))
    return false;
  auto Parts = containerParts(From);
  if (!Parts)
    return false;
  std::string Note = "assigned to '" + nameOf(VD) + "' here";
  writeKey({VD, nullptr}, step(Parts->first, Loc, At, Note), /*Strong=*/true);
  writeKey(sizeKey(VD), join(step(Parts->second, Loc, At, Note), replacedUnder(VD)), /*Strong=*/true);
  return true;
}

} // namespace graphify::taint
