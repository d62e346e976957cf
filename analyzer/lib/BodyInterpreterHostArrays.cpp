// Host arrays (the packs' host_arrays: cv::Mat): objects that hold host elements and a shape.
// Their shape is kept apart from their elements, as a container's length is, so that an image
// whose pixels come from a tensor (`cv::Mat mask(h, w, CV_8U, t.data_ptr())`) or were cropped
// at positions read from one still has the shape its code gave it: `mask.rows` is not a pixel.
//
// What gives the shape: a constructor's arguments other than pointers (a host array among them
// its shape); a call the packs tag host_array_shape its shape_args; any other call every input.
//
// A list of host arrays (a C array of cv::Mat, a std::vector<cv::Mat>) keeps its elements'
// shapes with its length, under the length key: `planes[0].rows` after `cv::split(m, planes)`
// is m's shape, not a pixel. Every store into an element writes that key too.
#include "BodyInterpreter.h"

#include <clang/AST/ExprCXX.h>

namespace graphify::taint {

using namespace clang;

/// `E` (a host array argument) under the copies and the converting constructors that hand it to
/// a library (cv::Mat to cv::InputArray, cv::OutputArray).
static const Expr *arrayUnderConversions(const Expr *E, const ApiResolver &Api) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = skipValueWrappers(E);
    const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
    if (!Ctor || Ctor->getNumArgs() != 1 || Api.isHostContainer(Ctor->getType()))
      return E;
    E = Ctor->getArg(0);
  }
  return E;
}

/// A size that cannot be zero: an integer constant other than 0, or a class built from such
/// constants only (`cv::Size(64, 64)`, `cv::Size{120, 120}`).
static bool isNonzeroConstant(const Expr *E, const ASTContext &Ctx) {
  E = skipValueWrappers(E);
  if (!E)
    return false;
  if (E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult R;
    return !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && R.Val.getInt() != 0;
  }
  llvm::SmallVector<const Expr *, 4> Parts;
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E))
    Parts.append(Ctor->arg_begin(), Ctor->arg_end());
  else if (const auto *List = dyn_cast<InitListExpr>(E))
    Parts.append(List->inits().begin(), List->inits().end());
  return !Parts.empty() && llvm::all_of(Parts, [&](const Expr *P) { return isNonzeroConstant(P, Ctx); });
}

TaintValue BodyInterpreter::shapeOfArgument(const Expr *Arg, TaintValue Whole) {
  const Expr *Array = arrayUnderConversions(Arg, Api);
  if (Array && Api.isHostArray(Array->getType()))
    if (auto Parts = containerParts(Array))
      return Parts->second;
  return Whole;
}

std::optional<TaintValue> BodyInterpreter::writtenShape(const ApiCall &C, llvm::ArrayRef<TaintValue> ArgV) {
  const ApiEntry *Entry = C.entryWithTag("host_array_shape");
  if (!Entry)
    return std::nullopt;
  TaintValue Shape;
  bool MayBeZero = false;
  for (unsigned Pos : Entry->ShapeArgs) {
    // A defaulted argument is left out of Args: its default may be zero (`cv::Size()`).
    if (Pos >= C.Args.size()) {
      MayBeZero = true;
      continue;
    }
    Shape = join(Shape, shapeOfArgument(C.Args[Pos], ArgV[Pos]));
    MayBeZero = MayBeZero || !isNonzeroConstant(C.Args[Pos], Ctx());
  }
  if (MayBeZero)
    for (unsigned Pos : Entry->FallbackShapeArgs)
      if (Pos < C.Args.size())
        Shape = join(Shape, shapeOfArgument(C.Args[Pos], ArgV[Pos]));
  return Shape;
}

void BodyInterpreter::noteConstructedArray(const ApiCall &C, const Expr *E, llvm::ArrayRef<TaintValue> ArgV,
                                           TaintValue All) {
  const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
  if (!Ctor || !Api.isHostArray(E->getType()) || Ctor->getConstructor()->isCopyOrMoveConstructor())
    return;
  // The pointer arguments are the elements' memory (`cv::Mat(h, w, CV_8U, t.data_ptr())`); the
  // other ones may give the shape (sizes, a cv::Size, a region of another array; a fill value is
  // counted there too, to stay on the safe side).
  TaintValue Shape;
  for (unsigned I = 0; I < C.Args.size() && I < ArgV.size(); ++I)
    if (!C.Args[I]->getType()->isPointerType())
      Shape = join(Shape, shapeOfArgument(C.Args[I], ArgV[I]));
  ReturnedContainers[E] = {All, Shape};
}

bool BodyInterpreter::writeHostArray(const Expr *Target, TaintValue Elements, TaintValue Shape, const Stmt *At,
                                     SourceLocation Loc, const std::string &Note) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(arrayUnderConversions(Target, Api));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isLocal(VD) || !Api.isHostArray(VD->getType()) || VD->getType()->isReferenceType())
    return false;
  // The call replaces the array: its elements and its shape are what the call makes of them.
  writeKey({VD, nullptr}, step(Elements, Loc, At, Note), /*Strong=*/true);
  writeKey(sizeKey(VD), join(step(Shape, Loc, At, Note), replacedUnder(VD)), /*Strong=*/true);
  return true;
}

bool BodyInterpreter::isOutputArrayParam(QualType Param) const {
  return Param->isLValueReferenceType() && !Param.getNonReferenceType().isConstQualified() &&
         Api.isHostArray(Param.getNonReferenceType());
}

bool BodyInterpreter::writesThroughWrapper(QualType Param) const {
  const CXXRecordDecl *RD = Param.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  return llvm::any_of(RD->ctors(), [&](const CXXConstructorDecl *Ctor) {
    if (Ctor->getNumParams() != 1 || Ctor->isCopyOrMoveConstructor())
      return false;
    QualType T = Ctor->getParamDecl(0)->getType();
    return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() &&
           Api.isHostArray(T.getNonReferenceType());
  });
}

const VarDecl *BodyInterpreter::hostArrayViewed(const Expr *E) {
  const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E ? arrayUnderConversions(E, Api) : nullptr);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() < 2 || !Api.isHostArray(Op->getType()))
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && isLocal(VD) && Api.isHostArray(VD->getType()) && !VD->getType()->isReferenceType() ? VD : nullptr;
}

std::optional<TaintValue> BodyInterpreter::hostArrayField(const MemberExpr *ME) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  // `m.rows`, `m.cols`, `m.size`, `m.step` describe the shape; `m.data` points at the elements.
  if (!F || F->getType()->isPointerType())
    return std::nullopt;
  if (const VarDecl *List = hostArrayListOf(ME->getBase()))
    return S.get(sizeKey(List));
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isLocal(VD) || !Api.isHostArray(VD->getType()))
    return std::nullopt;
  return S.get(sizeKey(VD));
}

const VarDecl *BodyInterpreter::hostArrayListOf(const Expr *Element) {
  const Expr *E = skipValueWrappers(Element);
  const Expr *Base = nullptr;
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E)) {
    Base = AS->getBase();
  } else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript) {
    Base = Op->getArg(0);
  } else if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    // `at(i)`, `front()`, `back()`: a reference to an element, chosen by integer positions.
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getReturnType()->isLValueReferenceType() &&
        llvm::all_of(MD->parameters(), [](const ParmVarDecl *P) { return P->getType()->isIntegerType(); }))
      Base = MC->getImplicitObjectArgument();
  }
  const auto *DRE = Base ? dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && keepsElementShapes(VD) ? VD : nullptr;
}

bool BodyInterpreter::keepsElementShapes(const VarDecl *VD) const {
  return VD && isLocal(VD) && Api.holdsHostArrays(VD->getType());
}

bool BodyInterpreter::writeHostArrayList(const Expr *Target, TaintValue Elements, TaintValue Shape, const Stmt *At,
                                         SourceLocation Loc, const std::string &Note) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Target ? Target->IgnoreParenImpCasts() : nullptr);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!keepsElementShapes(VD))
    return false;
  // Some of the elements, or all: the others keep theirs.
  writeKey({VD, nullptr}, step(Elements, Loc, At, Note), /*Strong=*/false);
  writeKey(sizeKey(VD), step(Shape, Loc, At, Note), /*Strong=*/false);
  return true;
}

} // namespace graphify::taint
