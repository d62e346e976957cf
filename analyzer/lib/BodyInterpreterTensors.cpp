// Facts of tensors beside taint: which are provable boolean masks, which have a value-dependent
// shape (and how big a host-data factory makes them), and which live in pageable host memory.
#include "BodyInterpreter.h"
#include "BracedSizes.h"

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

bool BodyInterpreter::isMask(const Expr *E) {
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
  // `torch::ones({n, v}, torch::kBool)`, `zeros_like(x, torch::kBool)`: a factory naming the Bool dtype;
  // `torch::zeros_like(m)`: self's dtype, unless the options name another.
  const bool Like = C->hasTag("like_factory") && !C->Args.empty();
  if ((Like || C->hasTag("host_factory")) &&
      llvm::any_of(C->Args, [](const Expr *Arg) { return ApiResolver::mentionsConstant(Arg, "Bool", ""); }))
    return true;
  if (Like)
    return llvm::none_of(llvm::drop_begin(C->Args), [&](const Expr *A) { return mayNameDtype(A); }) &&
           isMask(C->arg(0));
  if (auto It = A.Summaries.find(key(C->Callee)); It != A.Summaries.end())
    return It->second.ReturnsMask;
  if (const FunctionSummary *Imported = A.importedSummary(C->Callee))
    return Imported->ReturnsMask;
  return false;
}

std::optional<int64_t> BodyInterpreter::constantDim(const Expr *E) {
  E = skipValueWrappers(E);
  std::optional<llvm::APSInt> V = E ? E->getIntegerConstantExpr(Ctx()) : std::nullopt;
  if (!V || V->getSignificantBits() > 32)
    return std::nullopt;
  return V->getExtValue();
}

bool BodyInterpreter::followsDim(const TaintValue &Shape, const Expr *Dim) {
  std::optional<int64_t> D = constantDim(Dim);
  return !D || Shape.followsDim(*D);
}

bool BodyInterpreter::isLeadingDim(const Expr *E) {
  E = skipValueWrappers(E);
  std::optional<llvm::APSInt> V = E ? E->getIntegerConstantExpr(Ctx()) : std::nullopt;
  return V && V->isZero();
}

ASTContext &BodyInterpreter::Ctx() { return A.Ctx; }

const ApiEntry *BodyInterpreter::selectionEntry(const ApiCall &C) {
  if (const ApiEntry *Entry = C.entryWithTag("dynamic_output_shape"))
    return Entry;
  if (const ApiEntry *Index = C.entryWithTag("bool_mask_index"); Index && !Index->hasTag("in_place"))
    for (unsigned Pos : Index->IndexArgs)
      if (indexHasMask(C.arg(Pos)))
        return Index;
  return nullptr;
}

TaintValue BodyInterpreter::dynamicShape(const Expr *E, unsigned Depth) {
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
    if (const void *Key = localFieldKey(ME))
      return S.DynamicShapes.lookup(Key);
    if (std::optional<TaintValue> Here = reboundThisFieldShape(ME))
      return *Here;
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
    TaintValue Selected{It->second, 0, nullptr};
    if (Entry->hasTag("bool_mask_index") && !Entry->IndexArgs.empty())
      return maskedDims(Selected, C->arg(Entry->IndexArgs.front()));
    return Selected;
  }
  // Sizes read from tensor data are reported as sizes, and the result carries them (a loop over
  // its size(0) follows the data); host data brings its length.
  if (TaintValue Sized = sizedByData(*C, E); Sized.tainted())
    return Sized;
  if (std::optional<TaintValue> Listed = listedShape(*C, Depth))
    return *Listed;
  if (C->hasTag("host_factory"))
    return dataLength(*C, E, /*Record=*/false);
  if (C->hasTag("full_reduction") && C->Args.size() == 1)
    return {}; // a single element
  const bool Instance = passesObject(*C);
  const unsigned First = Instance ? 1 : 0;
  const FunctionSummary *Sum = nullptr;
  if (auto It = A.Summaries.find(key(C->Callee)); It != A.Summaries.end())
    Sum = &It->second;
  else
    Sum = A.importedSummary(C->Callee);
  if (Sum) {
    TaintValue R{Sum->ReturnShape.Origin, 0, nullptr, Sum->ReturnShape.AnyDim, Sum->ReturnShape.Dims};
    for (unsigned Bit = 0; Bit < SizeBits; ++Bit)
      if (((Sum->ReturnShape.Params >> Bit) & 1) && First + Bit < C->Args.size()) {
        TaintValue Arg = dynamicShape(C->Args[First + Bit], Depth + 1);
        Arg.AnyDim = Arg.AnyDim || Sum->ReturnShape.AnyDim || Sum->ReturnShape.ParamDimsMoved;
        R = join(R, Arg);
      }
    return step(R, C->NameLoc, E, "returned from " + calleeName(C->Callee) + " here");
  }
  // One row of a value whose leading dimension alone follows the data (`sel[i]`,
  // `sel.select(0, i)`, `sel.index({i})`) has the row's sizes: the dimension is gone. The
  // position is graphify-data-dependent-position's business, not the shape's.
  if (Instance && !C->Args.empty() && dropsLeadingDim(*C)) {
    TaintValue Self = dynamicShape(C->Args[0], Depth + 1);
    if (Self.tainted() && !Self.AnyDim) {
      TaintValue Rest;
      for (const Expr *Arg : llvm::drop_begin(C->Args))
        Rest = join(Rest, dynamicShape(Arg, Depth + 1));
      // The other dimensions move up by one, a parameter's among them.
      TaintValue Row = withDims(Self, Self.Dims >> 1);
      Row.ParamDimsMoved = Row.ParamDimsMoved || Row.Params;
      return join(Row, Rest);
    }
  }
  if (std::optional<TaintValue> Moved = movedShape(*C, Depth))
    return *Moved;
  // Library ops and calls we cannot see: the result's shape is made from the operands'. A
  // layout change, or a call the packs do not describe, may move the selected dimension — but a
  // tuple or pair built from tensors (`return {ids, vals};`) holds them as they are.
  TaintValue V;
  bool OperandMoves = false;
  for (unsigned I = 0; I < C->Args.size(); ++I) {
    TaintValue Arg = dynamicShape(C->Args[I], Depth + 1);
    OperandMoves = OperandMoves || (I > 0 && Arg.tainted() && !C->Entries.empty() && !keepsOperandLeading(*C));
    V = join(V, Arg);
  }
  const bool HoldsAsIs = isa<CXXConstructExpr>(E) && !Api.isTensor(E->getType()) && C->Entries.empty();
  if ((C->Entries.empty() && !HoldsAsIs) || (C->hasTag("same_elements") && !C->hasTag("elementwise")))
    V.AnyDim = true;
  // stack puts a new dimension in front of the selected one; an operand other than self lands
  // where the op puts it (`x.index_select(1, sel)` makes dimension 1 follow the data).
  if ((C->hasTag("joins_inputs") && !C->hasTag("concatenates")) || OperandMoves)
    V.AnyDim = true;
  return V;
}

/// The call's `Which`-th dimension argument (the entry's dim_args), or null when it is left out.
static const Expr *dimArgument(const ApiCall &C, const ApiEntry &Entry, size_t Which) {
  return Which < Entry.DimArgs.size() ? C.arg(Entry.DimArgs[Which]) : nullptr;
}

std::optional<TaintValue> BodyInterpreter::movedShape(const ApiCall &C, unsigned Depth) {
  auto Bit = [](int64_t D) { return uint64_t(1) << D; };
  auto Valid = [](std::optional<int64_t> D) { return D && *D >= 0 && *D < 8; };
  // x.t(), x.transpose(a, b): the two dimensions trade places.
  if (const ApiEntry *Swap = C.entryWithTag("swaps_dims"); Swap && !C.Args.empty()) {
    TaintValue Self = dynamicShape(C.Args[0], Depth + 1);
    if (!Self.tainted() || Self.AnyDim)
      return std::nullopt;
    Self.ParamDimsMoved = Self.ParamDimsMoved || Self.Params;
    std::optional<int64_t> A = 0, B = 1;
    if (!Swap->DimArgs.empty()) {
      const Expr *First = dimArgument(C, *Swap, 0), *Second = dimArgument(C, *Swap, 1);
      A = First ? constantDim(First) : std::nullopt;
      B = Second ? constantDim(Second) : std::nullopt;
    }
    if (!Valid(A) || !Valid(B))
      return std::nullopt;
    const uint64_t Kept = Self.Dims & ~(Bit(*A) | Bit(*B));
    const uint64_t AtA = (Self.Dims >> *B) & 1, AtB = (Self.Dims >> *A) & 1;
    const uint64_t Swapped = Kept | (AtA << *A) | (AtB << *B);
    // t() of a vector is the vector: unless a followed dimension past the first shows that self
    // is a matrix, either may hold.
    if (Swap->DimArgs.empty() && !(Self.Dims & ~uint64_t(1)))
      return withDims(Self, Self.Dims | Swapped);
    return withDims(Self, Swapped);
  }
  // x.index_select(d, idx): dimension d has idx's length, the others self's.
  if (const ApiEntry *Gather = C.entryWithTag("gathers_rows");
      Gather && Gather->DimArgs.size() == 1 && Gather->PositionArgs.size() == 1 && !C.Args.empty()) {
    const Expr *DimArg = C.arg(Gather->DimArgs.front()), *Index = C.arg(Gather->PositionArgs.front());
    std::optional<int64_t> D = DimArg ? constantDim(DimArg) : std::nullopt;
    if (!Valid(D) || !Index)
      return std::nullopt;
    TaintValue Self = dynamicShape(C.Args[0], Depth + 1), Idx = dynamicShape(Index, Depth + 1);
    // A parameter's shape (a summary's bit) keeps its dimensions where they are (dimension d
    // included, which is as conservative as the identity gets). The index is a vector: whichever
    // of its dimensions follows the data, its length does.
    if (Self.AnyDim && Self.tainted())
      return std::nullopt;
    Idx.AnyDim = false;
    const uint64_t Dims = (Self.tainted() ? Self.Dims & ~Bit(*D) : 0) | (Idx.tainted() ? Bit(*D) : 0);
    return withDims(join(Self, Idx), Dims);
  }
  // x.index({Slice(), idx}): dimensions by the items of the index list (indexedShape).
  if (const ApiEntry *Index = C.entryWithTag("bool_mask_index");
      Index && !Index->IndexArgs.empty() && passesObject(C))
    return indexedShape(C, C.arg(Index->IndexArgs.front()), Depth);
  // torch::stack(parts, d), torch::cat(parts, d) of a host container whose length follows the
  // data: dimension d has one entry per part (stack) or the parts' sizes summed (cat).
  if (const ApiEntry *Join = C.entryWithTag("joins_inputs"); Join && !C.Args.empty()) {
    const Expr *Parts = skipValueWrappers(C.arg(0));
    for (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Parts); CE && CE->getNumArgs() == 1;
         CE = dyn_cast_or_null<CXXConstructExpr>(Parts))
      Parts = skipValueWrappers(CE->getArg(0)); // the conversion to TensorList
    if (!Parts || !Api.isHostContainer(Parts->getType()))
      return std::nullopt;
    TaintValue Length = sizeOf(Parts, {});
    const Expr *DimArg = dimArgument(C, *Join, 0);
    std::optional<int64_t> D = DimArg ? constantDim(DimArg) : std::optional<int64_t>(0);
    TaintValue Elements = dynamicShape(Parts, Depth + 1);
    // A list of a static length stacked (`torch::stack(per_image)` of one entry per batch row):
    // dimension d is static, the parts' followed dimensions move past it.
    if (!Length.tainted()) {
      if (!C.hasTag("concatenates") && Valid(D) && Elements.tainted() && !Elements.AnyDim && !Elements.Params) {
        const uint64_t Parted = Elements.Dims;
        return withDims(Elements, (Parted & (Bit(*D) - 1)) | ((Parted >> *D) << (*D + 1)));
      }
      return std::nullopt;
    }
    std::string Name = "the list";
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Parts->IgnoreParenImpCasts()))
      Name = "'" + nameOf(DRE->getDecl()) + "'";
    else if (const auto *ME = dyn_cast<MemberExpr>(Parts->IgnoreParenImpCasts()))
      Name = "'" + nameOf(ME->getMemberDecl()) + "'";
    TaintValue Shape = step(Length, C.NameLoc, C.Call, "one part per element of " + Name + " here");
    if (!Valid(D) || (Elements.tainted() && Elements.AnyDim)) {
      Shape = join(Shape, Elements);
      Shape.AnyDim = true;
      return Shape;
    }
    const uint64_t Parted = Elements.tainted() ? Elements.Dims : 0;
    const bool Stacks = !C.hasTag("concatenates");
    const uint64_t Below = Parted & (Bit(*D) - 1);
    const uint64_t Dims = Stacks ? Below | ((Parted >> *D) << (*D + 1)) | Bit(*D) : Parted | Bit(*D);
    TaintValue Result = withDims(join(Shape, Elements), Dims);
    Result.ParamDimsMoved = Result.ParamDimsMoved || (Stacks && Elements.Params);
    return Result;
  }
  return std::nullopt;
}

bool BodyInterpreter::keepsOperandLeading(const ApiCall &C) {
  // Elementwise ops keep each operand's rows in the result's rows; indexing by a tensor and
  // gathering rows along dimension 0 give one result row per index.
  if (C.hasTag("elementwise") || C.hasTag("bool_mask_index"))
    return true;
  if (const ApiEntry *Gather = C.entryWithTag("gathers_rows"); Gather && !Gather->DimArgs.empty()) {
    return isLeadingDim(C.arg(Gather->DimArgs.front()));
  }
  return false;
}

/// An integer, through the TensorIndex or Scalar it is converted to (`{i}` of `x.index({i})`).
static bool isIntegerIndex(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = skipValueWrappers(E);
    if (!E || E->getType().isNull())
      return false;
    if (E->getType()->isIntegerType() && !E->getType()->isBooleanType())
      return true;
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE || CE->getNumArgs() != 1)
      return false;
    E = CE->getArg(0);
  }
  return false;
}

bool BodyInterpreter::dropsLeadingDim(const ApiCall &C) {
  for (const ApiEntry *Entry : C.Entries) {
    // select(0, i): drops_dim with a position; squeeze(0) drops the dimension only when its size
    // is 1, which the data decides.
    if (Entry->hasTag("drops_dim") && Entry->hasTag("position_argument") && !Entry->DimArgs.empty()) {
      if (isLeadingDim(C.arg(Entry->DimArgs.front())))
        return true;
    }
    // x[i], x.index({i, ...}): an integer first index picks one position of dimension 0.
    if (Entry->hasTag("bool_mask_index") && !Entry->hasTag("in_place") && !Entry->IndexArgs.empty()) {
      const Expr *Index = C.arg(Entry->IndexArgs.front());
      if (!Index)
        continue;
      if (const InitListExpr *IL = bracedSizes(Index))
        return IL->getNumInits() > 0 && isIntegerIndex(IL->getInit(0));
      if (isIntegerIndex(Index))
        return true;
    }
  }
  return false;
}

TaintValue BodyInterpreter::sizedByData(const ApiCall &C, const Expr *At) {
  TaintValue V;
  for (const ApiEntry *Entry : C.Entries) {
    if (!Entry->hasTag("size_argument"))
      continue;
    for (unsigned Pos : Entry->SizeArgs) {
      const Expr *Arg = Pos < C.Args.size() ? C.arg(Pos) : nullptr;
      const TracedOrigin *O = Arg ? Facts.tracedTaintOf(Arg) : nullptr;
      if (!O)
        continue;
      bool LeadingOnly = false;
      if (const InitListExpr *IL = bracedSizes(Arg); IL && IL->getNumInits() > 0) {
        LeadingOnly = Facts.tracedTaintOf(IL->getInit(0)) != nullptr;
        for (unsigned I = 1; I < IL->getNumInits(); ++I)
          LeadingOnly = LeadingOnly && !Facts.tracedTaintOf(IL->getInit(I));
      }
      V = join(V, step(TaintValue{O, 0, nullptr, !LeadingOnly}, Arg->getBeginLoc(), At,
                       "'" + C.Name + "' sizes its result by it here"));
    }
  }
  return V;
}

const Expr *BodyInterpreter::hostData(const Expr *Arg) {
  const Expr *E = Arg ? Arg->IgnoreImplicit() : nullptr;
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE || CE->getNumArgs() != 1 || CE->isListInitialization() || isa<CXXTemporaryObjectExpr>(CE))
      break;
    E = CE->getArg(0)->IgnoreImplicit();
  }
  return E && isHostContainerType(E->getType()) ? E : nullptr;
}

TaintValue BodyInterpreter::dataLength(const ApiCall &C, const Expr *At, bool Record) {
  TaintValue Length;
  for (const ApiEntry *Entry : C.Entries)
    for (unsigned Pos : Entry->LengthArgs) {
      const Expr *Data = Pos < C.Args.size() ? hostData(C.arg(Pos)) : nullptr;
      if (!Data)
        continue;
      TaintValue L = sizeOf(Data, {});
      if (L.empty())
        continue;
      L = step(L, Data->getBeginLoc(), At,
               C.hasTag("joins_inputs") ? "its number of elements is the number of parts '" + C.Name + "' joins"
                                        : "its number of elements is the size of the tensor '" + C.Name + "' builds");
      if (Record) {
        Facts.recordLength(C.arg(Pos), L.origin());
        use(L);
      }
      Length = join(Length, L);
    }
  return Length;
}

const TracedOrigin *BodyInterpreter::fieldShape(const FieldDecl *F) {
  auto It = A.FieldShapes.find(F);
  return It == A.FieldShapes.end() ? A.importedFieldShape(F) : It->second;
}

void BodyInterpreter::setShape(const Expr *Target, const Expr *Value, const Stmt *At, bool Strong) {
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
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (F && V.tainted())
      V = step(V, ME->getMemberLoc(), At, "stored in field '" + nameOf(F) + "' here");
    if (const void *Key = localFieldKey(ME)) { // a local struct's field: overwritten here
      if (V.empty())
        S.DynamicShapes.erase(Key);
      else
        S.DynamicShapes[Key] = V;
    }
    if (F && V.tainted() && !A.FieldShapes.count(F))
      A.FieldShapes[F] = V.origin();
    rebindThisFieldShape(ME, V);
    return;
  }
  const VarDecl *VD = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Target))
    VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !isLocal(VD))
    return;
  setShapeOf(VD, V, Target->getBeginLoc(), At, Strong);
}

void BodyInterpreter::setShapeOf(const VarDecl *VD, TaintValue V, SourceLocation Loc, const Stmt *At, bool Strong) {
  if (V.tainted())
    V = step(V, Loc, At, (Strong ? "assigned to '" : "added to '") + nameOf(VD) + "' here");
  if (Strong && V.empty())
    S.DynamicShapes.erase(VD);
  else if (Strong)
    S.DynamicShapes[VD] = V;
  else if (!V.empty())
    S.DynamicShapes[VD] = join(S.DynamicShapes.lookup(VD), V);
}

bool BodyInterpreter::listsOnlyMasks(const Expr *E, unsigned Depth) {
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

bool BodyInterpreter::mayNameDtype(const Expr *Arg) {
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

bool BodyInterpreter::indexHasMask(const Expr *E, unsigned Depth) {
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

/// The items of a braced index list (`{Slice(), idx}`), each under the TensorIndex it converts
/// to, or empty when `Index` is no braced list.
static llvm::SmallVector<const Expr *, 4> indexItems(const Expr *Index, const ApiResolver &Api) {
  const Expr *E = skipValueWrappers(Index);
  if (const auto *SIL = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
    E = skipValueWrappers(SIL->getSubExpr());
  llvm::SmallVector<const Expr *, 4> Items;
  const auto *List = dyn_cast_or_null<InitListExpr>(E);
  if (!List)
    return Items;
  for (const Expr *Item : List->inits()) {
    const Expr *Inner = skipValueWrappers(Item);
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Inner);
        Ctor && Ctor->getNumArgs() == 1 && !Api.isTensor(Ctor->getType()))
      if (auto Wrapper = Api.resolve(Ctor); !Wrapper || Wrapper->Entries.empty())
        Inner = skipValueWrappers(Ctor->getArg(0));
    Items.push_back(Inner);
  }
  return Items;
}

std::optional<TaintValue> BodyInterpreter::indexedShape(const ApiCall &C, const Expr *Index, unsigned Depth) {
  llvm::SmallVector<const Expr *, 4> Items = indexItems(Index, Api);
  if (Items.empty())
    return std::nullopt;
  TaintValue Self = dynamicShape(C.Args[0], Depth + 1);
  if (Self.tainted() && Self.AnyDim)
    return std::nullopt;
  TaintValue Result = Self;
  uint64_t Dims = 0;
  unsigned Out = 0, In = 0, Tensors = 0;
  bool Moved = false;
  for (const Expr *Item : Items) {
    if (Item->getType()->isIntegerType()) { // the dimension is gone
      ++In;
      continue;
    }
    if (Api.isTensor(Item->getType())) {
      // One index vector: its length stands where it is written (several broadcast together).
      if (++Tensors > 1)
        return std::nullopt;
      // Taken as a vector, as index_select's: an index of more dimensions would put them all
      // there, so self's followed dimensions after it are not placed (below).
      TaintValue Idx = dynamicShape(Item, Depth + 1);
      if (Idx.tainted()) {
        Dims |= uint64_t(1) << Out;
        Idx.AnyDim = false;
        Result = join(Result, Idx);
      }
      ++Out, ++In;
      continue;
    }
    auto Slice = Api.resolve(Item);
    if (!Slice || !Slice->hasTag("range_slice"))
      return std::nullopt; // an ellipsis, None: the positions are not followed
    if (Self.tainted() && Self.followsDim(In)) {
      if (Tensors) // after an index of unknown rank, where it lands is not known
        return std::nullopt;
      Dims |= uint64_t(1) << Out;
      Moved = Moved || Out != In;
    }
    ++Out, ++In;
  }
  // The dimensions past the list keep their sizes, moved by the integers that dropped some.
  for (unsigned D = In; Self.tainted() && D < 8; ++D)
    if ((Self.Dims >> D) & 1) {
      if (Tensors || Out + (D - In) >= 8)
        return std::nullopt;
      Dims |= uint64_t(1) << (Out + (D - In));
      Moved = Moved || Out != In;
    }
  if (!Dims)
    return TaintValue{};
  Result.ParamDimsMoved = Result.ParamDimsMoved || (Moved && Result.Params);
  return withDims(Result, Dims);
}

TaintValue BodyInterpreter::maskedDims(TaintValue Selection, const Expr *Index) {
  llvm::SmallVector<const Expr *, 4> Items = indexItems(Index, Api);
  if (Items.empty())
    return Selection; // `x.index(mask)`, `x.index({mask})` built otherwise: the leading dimension
  uint64_t Dims = 0;
  unsigned Position = 0;
  for (const Expr *Inner : Items) {
    if (Inner->getType()->isIntegerType())
      continue; // the dimension is gone
    if (Api.isTensor(Inner->getType()) && isMask(Inner)) {
      Dims |= uint64_t(1) << Position++;
      continue;
    }
    if (auto Slice = Api.resolve(Inner); Slice && Slice->hasTag("range_slice")) {
      ++Position;
      continue;
    }
    Selection.AnyDim = true; // an ellipsis, None, an index tensor: the positions are not followed
    return Selection;
  }
  return Dims ? withDims(Selection, Dims) : Selection;
}

void BodyInterpreter::rebindTensor(const Decl *D, const Expr *Init) {
  if (Init && isMask(Init))
    S.Masks.insert(D);
  else
    S.Masks.erase(D);
  // `at::Tensor tok;` holds no tensor yet: joined with a host tensor (given in a loop that may
  // not run), it is that tensor.
  const auto *Empty = dyn_cast_or_null<CXXConstructExpr>(Init);
  if (const Expr *Host = Init ? hostResident(Init) : nullptr)
    S.HostTensors[D] = Host;
  else if (Empty && Empty->getNumArgs() == 0)
    S.HostTensors[D] = nullptr;
  else
    S.HostTensors.erase(D);
}

void BodyInterpreter::noteGrowth(const VarDecl *VD, const Expr *Value) {
  if (GrownInLoop.empty())
    return;
  auto C = Api.resolve(skipValueWrappers(Value));
  if (!C || !C->hasTag("concatenates") || !C->arg(0) || !refersTo(C->arg(0), VD))
    return;
  // The dimension it grows on: cat's dim_args argument, 0 when left out.
  bool Leading = true;
  for (const ApiEntry *E : C->Entries)
    for (unsigned P : E->DimArgs)
      if (P < C->Args.size()) {
        const Expr *Dim = skipValueWrappers(C->Args[P]);
        if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Dim))
          Dim = Default->getExpr();
        std::optional<llvm::APSInt> D = Dim->getIntegerConstantExpr(Ctx());
        Leading = Leading && D && D->isZero();
      }
  bool &AnyDim = GrownInLoop.back()[VD];
  AnyDim = AnyDim || !Leading;
}

void BodyInterpreter::endGrowth(const llvm::SmallDenseMap<const VarDecl *, bool, 2> &Grown, TaintValue Trip,
                                const Stmt *Loop) {
  // An enclosing loop grows them too.
  if (!GrownInLoop.empty())
    for (const auto &[VD, AnyDim] : Grown)
      GrownInLoop.back()[VD] |= AnyDim;
  if (Trip.empty())
    return;
  const SourceManager &SM = Ctx().getSourceManager();
  const unsigned Line = SM.getExpansionLineNumber(Loop->getBeginLoc());
  for (const auto &[VD, AnyDim] : Grown) {
    if (!SM.isBeforeInTranslationUnit(VD->getLocation(), Loop->getBeginLoc()))
      continue; // declared in the loop: a fresh tensor each iteration
    TaintValue V = step(throughControl(Trip, /*KeepSize=*/true), Loop->getBeginLoc(), Loop,
                        "'" + nameOf(VD) + "' grows in the loop at line " + std::to_string(Line) +
                            ", whose trip count follows tensor data");
    // Which dimension varies is this growth's: a shape that merely follows parameters (bits for
    // the summary, not data) does not widen it to every dimension.
    const TaintValue Old = S.DynamicShapes.lookup(VD);
    V.AnyDim = AnyDim;
    TaintValue Joined = join(Old, V);
    Joined.AnyDim = AnyDim || (Old.tainted() && Old.AnyDim);
    S.DynamicShapes[VD] = Joined;
  }
}

} // namespace graphify::taint
