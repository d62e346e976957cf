// A position (element index) computed from a host value read from a tensor: the shape stays
// fixed, but the graph cannot read the position on the device; a trace records the position seen
// while tracing. Which arguments are positions comes from the `position_args` of the pack entries;
// a host list of tensors sorted by values read from tensors chooses positions the same way.
#include "DataDependentPositionCheck.h"

#include "HostOnlyTensors.h"
#include "SortedListUses.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

#include <functional>
#include <set>

namespace graphify {

using namespace clang;

const CheckInfo &DataDependentPositionCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-data-dependent-position",
      "element position computed from a value read from a tensor",
      "Finds arguments at the position slots of tensor operations (the index of x[i], "
      "select(dim, i), the integers of index({i}) and index_put_({i}, v)) that depend on a tensor "
      "value copied to the host, typically i = idx.item<int64_t>(). The read synchronises with the "
      "device, a trace freezes the position it saw, and a CUDA graph cannot read it at all.",
      "Keep the position on the device: index with the 0-d (or 1-element) long tensor itself "
      "(x.index({idx}), x.index_select(0, idx), x.index_put_({idx}, v)), or gather/scatter with it.",
      /*InTraceProfile=*/true};
  return Info;
}

/// " 'name'" of a host list named by a variable or a field, else empty.
static std::string listName(const Expr *List) {
  List = skipValueWrappers(List);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(List))
    return " '" + DRE->getDecl()->getNameAsString() + "'";
  if (const auto *ME = dyn_cast<MemberExpr>(List))
    return " '" + ME->getMemberDecl()->getNameAsString() + "'";
  return "";
}

/// Whether the host list's elements hold tensors: as the resolver sees it (`std::pair<float,
/// Tensor>`), or as a field of the element struct (`struct Detection { float score; Tensor box; }`),
/// held by value or through a smart pointer (`std::vector<std::unique_ptr<Track>>`).
static bool listHoldsTensors(const ApiResolver &Api, QualType List) {
  if (Api.holdsTensors(List))
    return true;
  auto FirstArgument = [](const CXXRecordDecl *R) -> const CXXRecordDecl * {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(R);
    if (!Spec || Spec->getTemplateArgs().size() == 0 || Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return nullptr;
    return Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  };
  const CXXRecordDecl *Element = FirstArgument(List.getNonReferenceType()->getAsCXXRecordDecl());
  if (Element && Element->isInStdNamespace() && (Element->getName() == "unique_ptr" || Element->getName() == "shared_ptr"))
    Element = FirstArgument(Element);
  if (!Element || !Element->hasDefinition())
    return false;
  return llvm::any_of(Element->getDefinition()->fields(),
                      [&](const FieldDecl *F) { return Api.holdsTensors(F->getType()); });
}

/// `candidates[order[k]]` with `candidates` a host list of tensors and `order[k]` read from
/// tensor data: the host chooses which tensor the graph goes on with, which a trace freezes
/// and a CUDA graph cannot do. (An element access chooses by integer positions: isElementAccess.)
bool DataDependentPositionCheck::reportHostListPick(AnalysisContext &Ctx, const ApiCall &Call) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Call.Callee);
  if (!MD || !MD->isInstance() || !isElementAccess(*MD) || Call.Args.size() < 2)
    return false;
  const Expr *List = Call.Args[0];
  const ApiResolver &Api = Ctx.api();
  if (Api.isTensor(List->getType()) || !isHostContainerType(List->getType()) || !listHoldsTensors(Api, List->getType()))
    return false;
  for (unsigned Pos = 1; Pos < Call.Args.size(); ++Pos) {
    const Expr *Leaf = Ctx.taintedLeaf(Call.Args[Pos], AnalysisContext::ArgumentSlot::Position);
    if (!Leaf)
      continue;
    const TracedOrigin *O = Ctx.facts().tracedTaintOf(Leaf);
    const std::string Name = listName(List);
    // A list of objects that hold tensors (a tracker's tracks): the object's tensors, stacked.
    const bool OfTensors = Api.holdsTensors(List->getType());
    Ctx.report(info(), Leaf->getBeginLoc(),
               std::string("position of the ") + (OfTensors ? "tensor" : "object holding tensors") +
                   " taken from the host list" + Name + " depends on " + dependenceOf(O) + "; keep the " +
                   (OfTensors ? "tensors" : "objects' tensors") +
                   " in one tensor (stack them) and index it on the device with a long tensor",
               Leaf, O, Leaf->getSourceRange());
    return true;
  }
  return false;
}


/// What a comparator lambda returns when it reads tensor values itself
/// (`[](auto &a, auto &b) { return a.max().item<float>() > b.max().item<float>(); }`), or null.
static const TracedOrigin *comparatorReads(const TaintFacts &Facts, const Expr *Arg) {
  const auto *LE = dyn_cast<LambdaExpr>(skipValueWrappers(Arg));
  const CXXMethodDecl *Call = LE ? LE->getCallOperator() : nullptr;
  if (!Call)
    return nullptr;
  // A generic lambda's body is a template: the facts are on its instantiations' statements.
  llvm::SmallVector<const FunctionDecl *, 2> Bodies{Call};
  if (const FunctionTemplateDecl *FT = Call->getDescribedFunctionTemplate())
    for (const FunctionDecl *Spec : FT->specializations())
      Bodies.push_back(Spec);
  const TracedOrigin *Found = nullptr;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S); R && R->getRetValue())
      Found = Facts.tracedTaintOf(R->getRetValue());
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  for (const FunctionDecl *Body : Bodies)
    Walk(Body->getBody());
  return Found;
}

/// `std::sort(beams.begin(), beams.end(), by_score)` over a host list of tensors keyed by values
/// read from tensor data (its elements, or what the comparator captures): afterwards which tensor
/// sits at each position follows the data, so `beams[0]` goes on with a tensor the host chose,
/// a choice a trace freezes and a CUDA graph cannot make. Which calls reorder a range is the
/// packs' `orders_range`.
bool DataDependentPositionCheck::reportHostListOrder(AnalysisContext &Ctx, const ApiCall &Call) {
  if (!Call.hasTag("orders_range") || Call.Args.empty())
    return false;
  // `v.begin()`, `v.rbegin()` (a container iterated for writing), or `v` itself for the range forms.
  const Expr *List = containerIteratedBy(Call.Args[0]);
  if (!List && isHostContainerType(Call.Args[0]->getType()))
    List = skipValueWrappers(Call.Args[0]);
  const ApiResolver &Api = Ctx.api();
  if (!List || Api.isTensor(List->getType()) || !isHostContainerType(List->getType()) ||
      !listHoldsTensors(Api, List->getType()))
    return false;
  const TracedOrigin *O = Ctx.facts().tracedTaintOf(List);
  for (const Expr *A : Call.Args)
    if (!O)
      O = Ctx.facts().tracedTaintOf(A);
  for (const Expr *A : Call.Args)
    if (!O)
      O = comparatorReads(Ctx.facts(), A);
  // An order the region never takes a tensor by stays on the host: the reads of its keys are the
  // blockers, reported where they are.
  if (!O || !sortedListHandsOnTensors(Api, Ctx.ast(), List, Call.Call))
    return false;
  const std::string Name = listName(List);
  Ctx.report(info(), Call.NameLoc,
             "'" + Call.Name + "' orders the tensors of the host list" + Name + " by keys that depend on " +
                 dependenceOf(O) + ": which tensor sits at each position follows the data; keep the keys in a tensor, "
                 "stack the tensors and order them on the device (topk or argsort, then index_select)",
             Call.Call, O, Call.Call->getSourceRange());
  return true;
}

void DataDependentPositionCheck::run(AnalysisContext &Ctx) {
  using Ctx_ = AnalysisContext;
  Ctx.forEachRegionApiCall([&](const ApiCall &Call) {
    if (reportHostListPick(Ctx, Call) || reportHostListOrder(Ctx, Call))
      return;
    // `priors.index({j})` of a copy the region made to the host: host work after the copy, which is
    // the finding (a trace still freezes the position).
    if (Ctx.profile() != Profile::Trace && readsHostCopiesOnly(Call, Ctx))
      return;
    // The finding stands for the position itself: the host value is what moves to the device.
    Ctx.forEachTaintedArgument(Call, Ctx_::ArgumentSlot::Position, [&](const Ctx_::TaintedArgument &Arg) {
      Ctx.reportArgument(info(), Call, Arg,
                         "position argument of '" + Call.Name + "' depends on " + dependenceOf(Arg.Origin) +
                             "; keep the index on the device as a long tensor instead of reading it",
                         Ctx_::ArgumentAnchor::Leaf);
      return true;
    });
  });
}

} // namespace graphify
