// Manual recipes. The context walk goes up from the finding's construct to its statement and
// asks what consumes the value: an output stream (printing), the condition of a loop (a
// data-dependent trip count), a device transfer to the CPU (a host copy). Those have standard
// graph-mode forms; anything else gets the check's help text, which says how to express it.
#include "ManualRecipe.h"

#include "BranchObstacles.h"
#include "ConditionLifting.h"
#include "ExprUtil.h"
#include "HostCopyUses.h"
#include "HostWork.h"
#include "Safety.h"
#include "UseRecipe.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/ContainerElement.h"
#include "graphify/analyzer/Check.h"
#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

enum class Consumer { None, Printed, LoopCondition, HostCopy, DeviceCopy, HostSelect, HostBuffer, HostLookup, MemoryCopy, ElementWrite, HostObject, HostCall, HostFunction };

/// `memcpy(buf.data(), t.data_ptr(), n)`: the pointer `Arg` is handed to a function of no tensor
/// API that also takes a pointer it may write through — the tensor's memory is copied into a host
/// buffer. Told by the signature, not by name.
bool copiesMemoryOut(const CallExpr &Call, const Expr *Arg, const ApiModel &Api) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || Api.isLibraryDecl(Callee) || !Arg->getType()->isPointerType())
    return false;
  for (unsigned I = 0; I < Callee->getNumParams() && I < Call.getNumArgs(); ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    if (Call.getArg(I)->IgnoreParenCasts() != Arg->IgnoreParenCasts() && T->isPointerType() &&
        !T->getPointeeType().isConstQualified())
      return true;
  }
  return false;
}

/// Whether the transfer `E` copies to the host: a host read (cpu()) or a destination naming the
/// CPU; otherwise it copies host memory to the device (the host-sync check reports those only
/// for tensors built in pageable host memory).
bool copiesToHost(const Expr *E, const ApiModel &Api) {
  if (Api.callHasTag(E, "host_sync"))
    return true;
  for (const Expr *A : callArgs(E))
    if (ApiResolver::mentionsConstant(A, "CPU", "cpu"))
      return true;
  return false;
}

/// What the value of `Anchor` flows into; `AsValue`: a host ternary there is followed on to where
/// its result goes instead of being the consumer.
Consumer consumerOf(const Stmt *Anchor, ASTContext &Ctx, const ApiModel &Api, unsigned LocalDepth = 0,
                    bool AsValue = false);

/// A host object built from the value: a constructor of a class outside the tensor API
/// (`cv::Rect(left, top, w, h)`, `std::pair(a, b)`) or a braced aggregate (`Box{x, y, s}`); not a
/// container, not a tensor, not a Scalar or options of the tensor library.
bool buildsHostObject(const Stmt *S, const ApiModel &Api) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E || !(isa<CXXConstructExpr>(E) || isa<InitListExpr>(E)))
    return false;
  const auto *RD = E->getType()->getAsCXXRecordDecl();
  return RD && !Api.isTensor(E->getType()) && !isIterableContainer(E->getType()) && !Api.isLibraryDecl(RD);
}

/// A constructor the compiler calls to convert a value (`y / peak` builds the library's `Scalar`
/// from the float; nothing is written): the value is passed on, not stored in an object.
bool convertsImplicitly(const Stmt *S) {
  const auto *CE = dyn_cast<CXXConstructExpr>(S);
  return CE && !isa<CXXTemporaryObjectExpr>(CE) && CE->getNumArgs() == 1 && CE->getParenOrBraceRange().isInvalid();
}

/// `det.score`, `object.m_bbox`: a field of a host object (not of a tensor-library class).
bool isHostField(const Expr *LHS, const ApiModel &Api) {
  const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  const auto *RD = dyn_cast<CXXRecordDecl>(ME->getMemberDecl()->getDeclContext());
  return RD && !Api.isLibraryDecl(RD) && !Api.isTensor(ME->getType());
}

/// Whether the container method `MD` stores what it is given as an element: a non-const method
/// taking an element (`push_back(const value_type&)`, `insert`) or a parameter pack to construct
/// one from (`emplace_back(Args&&...)`, which returns the new element). A lookup takes a key or
/// a position instead (`at(size_type)`, `find(const key_type&)`). Told by the signature.
bool storesElements(const CXXMethodDecl *MD, QualType Container) {
  if (!MD || MD->isConst())
    return false;
  if (const FunctionDecl *Pattern = MD->getTemplateInstantiationPattern())
    if (llvm::any_of(Pattern->parameters(), [](const ParmVarDecl *P) { return P->isParameterPack(); }))
      return true;
  const QualType Element = containerValueType(Container);
  if (Element.isNull())
    return false;
  const QualType Unqualified = Element.getCanonicalType().getUnqualifiedType();
  return llvm::any_of(MD->parameters(), [&](const ParmVarDecl *P) {
    return P->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType() == Unqualified;
  });
}

/// An element access: `a[i]` on an array or pointer, or an overloaded operator[] (an accessor).
bool isSubscript(const Stmt *S) {
  if (isa<ArraySubscriptExpr>(S))
    return true;
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
  return OC && OC->getOperator() == OO_Subscript;
}

/// What a local given the value (initialised with it, or assigned it by `Inside`) consumes it
/// for: the most constraining use of its uses in the function (`int k = x.argmax().item<int>();
/// name = names[k];` is a host lookup).
Consumer consumerOfLocal(const VarDecl *V, const Stmt *Inside, ASTContext &Ctx, const ApiModel &Api,
                         unsigned LocalDepth) {
  const Stmt *Body = functionBody(enclosingFunction(Inside, Ctx));
  if (!Body || LocalDepth > 1)
    return Consumer::None;
  Consumer Best = Consumer::None;
  auto Rank = [](Consumer C) {
    switch (C) {
    case Consumer::LoopCondition: return 6;
    case Consumer::HostLookup: return 5;
    case Consumer::HostBuffer: return 4;
    case Consumer::ElementWrite: return 4;
    case Consumer::HostObject: return 4;
    case Consumer::HostCall: return 4;
    case Consumer::HostFunction: return 4;
    case Consumer::Printed: return 3;
    case Consumer::HostSelect: return 2;
    default: return 0;
    }
  };
  for (const DeclRefExpr *U : usesOf(V, Body))
    if (Consumer C = consumerOf(U, Ctx, Api, LocalDepth + 1); Rank(C) > Rank(Best))
      Best = C;
  return Best;
}

/// What the value of `Anchor` flows into, looking up through its enclosing expressions (and,
/// for a local initialised with it, through the local's uses).
Consumer consumerOf(const Stmt *Anchor, ASTContext &Ctx, const ApiModel &Api, unsigned LocalDepth, bool AsValue) {
  if (const auto *E = dyn_cast<Expr>(Anchor); E && Api.callHasTag(E, "device_transfer"))
    return copiesToHost(E, Api) ? Consumer::HostCopy : Consumer::DeviceCopy;
  if (const auto *E = dyn_cast<Expr>(Anchor); E && Api.callHasTag(E, "host_data"))
    if (auto Factory = Api.resolver().resolve(E); Factory && placesOnDevice(*Factory, Api.resolver()))
      return Consumer::DeviceCopy; // torch::tensor(values, x.options())
  if (const auto *CO = dyn_cast<ConditionalOperator>(Anchor); CO && !Api.isTensorExpr(CO) && !AsValue)
    return Consumer::HostSelect;
  DynTypedNode N = DynTypedNode::create(*Anchor);
  const Stmt *Child = Anchor;
  // Passed to the constructor of a host object (`cv::Rect(left, top, w, h)`, `Box{x, y, s}`):
  // what the object goes into may say more (a container it is pushed into), so the walk goes on.
  bool IntoHostObject = false;
  auto Ends = [&]() { return IntoHostObject ? Consumer::HostObject : Consumer::None; };
  for (int Depth = 0; Depth < 24; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return Ends();
    N = Parents[0];
    // A host value read into a local (a tensor local is a tensor, whose uses are other findings).
    if (const auto *V = N.get<VarDecl>(); V && V->isLocalVarDecl() && V->getInit() &&
                                          !isIterableContainer(V->getType()) && !Api.isTensor(V->getType())) {
      Consumer C = consumerOfLocal(V, V->getInit(), Ctx, Api, LocalDepth);
      return C == Consumer::None ? Ends() : C;
    }
    const Stmt *S = N.get<Stmt>();
    if (!S)
      return Ends();
    // `float x; ... x = k[j][0].item().toFloat();`: a host local given the value later.
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Child)
      if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
            V && V->isLocalVarDecl() && !isIterableContainer(V->getType()) && !Api.isTensor(V->getType())) {
          Consumer C = consumerOfLocal(V, BO, Ctx, Api, LocalDepth);
          return C == Consumer::None ? Ends() : C;
        }
    if (buildsHostObject(S, Api) && !convertsImplicitly(S))
      IntoHostObject = true;
    // `a.size(0)` of an accessor: the viewed tensor's metadata, no value goes on from here.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
        MC && MC->getCallee()->IgnoreParens() == Child && MC->getImplicitObjectArgument() &&
        !Api.isTensorExpr(MC->getImplicitObjectArgument()) && Api.callHasTag(MC, "shape_query"))
      return Ends();
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_LessLess && OC->getNumArgs() == 2 && isOutputStreamType(OC->getArg(0)->getType()))
      return Consumer::Printed;
    if (const auto *CO = dyn_cast<ConditionalOperator>(S); CO && CO->getCond() == Child && !Api.isTensorExpr(CO))
      return Consumer::HostSelect;
    // `emb[k]`, `x.select(0, k)`: a position in a tensor. What the element it picks goes into
    // (`hyp.push_back(ys[k].item<int>())`) is that element's use, not this value's.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_Subscript &&
                                                            OC->getNumArgs() == 2 && OC->getArg(1) == Child &&
                                                            Api.isTensorExpr(OC->getArg(0)))
      return Ends();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
        MC && MC->getImplicitObjectArgument() && Api.isTensorExpr(MC->getImplicitObjectArgument()) &&
        llvm::is_contained(MC->arguments(), Child) && Api.callHasTag(MC, "position_argument"))
      return Ends();
    // `boxes.push_back(x.item<float>())`, `v[i] = s.item<float>()`: collected on the host;
    // `names.at(k)`, `names[k]`: an entry of a host container picked by the value.
    // Only as an argument: a value type with a value_type (OpenCV's Point_, Rect_) converted by
    // its own member operator (`cv::Point2d(x, y)` to `cv::Point`) is the object, not a key.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
        MC && MC->getImplicitObjectArgument() && llvm::is_contained(MC->arguments(), Child) &&
        isHostContainerType(MC->getObjectType()))
      return MC->getType()->isVoidType() || storesElements(MC->getMethodDecl(), MC->getObjectType())
                 ? Consumer::HostBuffer
                 : Consumer::HostLookup;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_Subscript &&
                                                            OC->getNumArgs() == 2 && OC->getArg(1) != nullptr &&
                                                            OC->getArg(0) != Child &&
                                                            isHostContainerType(OC->getArg(0)->getType()))
      return Consumer::HostLookup;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && OC->getArg(1) == Child)
      if (const auto *Sub = dyn_cast<CXXOperatorCallExpr>(OC->getArg(0)->IgnoreParenImpCasts());
          Sub && Sub->getOperator() == OO_Subscript && isHostContainerType(Sub->getArg(0)->getType()))
        return Consumer::HostBuffer;
    // `rows[i][j] = static_cast<uint64_t>(t[i][j].item<int64_t>())`: an element of a host
    // container (of containers) assigned with the builtin operator.
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && BO->getRHS() == Child)
      if (const auto *Sub = dyn_cast<CXXOperatorCallExpr>(BO->getLHS()->IgnoreParenImpCasts());
          Sub && Sub->getOperator() == OO_Subscript && isHostContainerType(Sub->getArg(0)->getType()))
        return Consumer::HostBuffer;
    // `det.score = s`, `object.m_bbox = cv::Rect(...)`: a field of a host object.
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && BO->getRHS() == Child &&
                                                      isHostField(BO->getLHS(), Api))
      return Consumer::HostObject;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && OC->getArg(1) == Child &&
        isHostField(OC->getArg(0), Api))
      return Consumer::HostObject;
    // `out_a[len] = cur` through an accessor or a data_ptr() pointer: the tensor's own memory
    // written on the host, element by element.
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && BO->getLHS()->IgnoreParenImpCasts() == Child && isSubscript(Child))
      return Consumer::ElementWrite;
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && isa<Expr>(Child) &&
                                                  copiesMemoryOut(*Call, cast<Expr>(Child), Api))
      return Consumer::MemoryCopy;
    // `beam_search(scores.data_ptr<float>(), ...)`: the tensor's memory handed to host code.
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && isa<Expr>(Child) && handsMemoryToHostCode(*Call, cast<Expr>(Child), Api))
      return Consumer::HostCall;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && isa<Expr>(Child) && handsValueToHostCode(*Call, cast<Expr>(Child), Api))
      return Consumer::HostFunction;
    if (const auto *W = dyn_cast<WhileStmt>(S); W && W->getCond() == Child)
      return Consumer::LoopCondition;
    if (const auto *F = dyn_cast<ForStmt>(S); F && F->getCond() == Child)
      return Consumer::LoopCondition;
    if (const auto *D = dyn_cast<DoStmt>(S); D && D->getCond() == Child)
      return Consumer::LoopCondition;
    if (isa<CompoundStmt>(S) || isa<IfStmt>(S) || isa<ReturnStmt>(S))
      return Ends();
    Child = S;
  }
  return Ends();
}

/// The condition of the `if` whose condition holds `Anchor` (or is it), or null.
/// The innermost loop whose body holds `Anchor`, or null.
static const Stmt *loopHolding(const Stmt *Anchor, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*Anchor);
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty() || Parents[0].get<FunctionDecl>())
      return nullptr;
    if (const Stmt *P = Parents[0].get<Stmt>(); P && loopBody(P) && N.get<Stmt>() == loopBody(P))
      return P;
    N = Parents[0];
  }
  return nullptr;
}

/// The host ternary `Anchor` is, or whose condition it is (`c > 0 ? a / c : 0.f`), or null.
static const ConditionalOperator *ternaryTesting(const Stmt *Anchor, ASTContext &Ctx) {
  if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(Anchor)) // a branch finding anchors the select
    return CO;
  const Stmt *Child = Anchor;
  for (unsigned Depth = 0; Child && Depth < 6; ++Depth) {
    auto Parents = Ctx.getParents(*Child);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(P))
      return CO->getCond() == Child ? CO : nullptr;
    Child = isa_and_nonnull<ImplicitCastExpr, ParenExpr, UnaryOperator, BinaryOperator>(P) ? P : nullptr;
  }
  return nullptr;
}

const Expr *enclosingIfCondition(const Stmt *Anchor, ASTContext &Ctx) {
  if (const auto *If = dyn_cast_or_null<IfStmt>(Anchor))
    return If->getCond();
  const IfStmt *If = isa_and_nonnull<Expr>(Anchor) ? ifTesting(cast<Expr>(Anchor), Ctx) : nullptr;
  return If ? If->getCond() : nullptr;
}

} // namespace

/// Greedy suppression (a hand-written greedy loop over a shrinking selection, or an NMS op) has
/// an exact fixed-size form; an approximate one ("fast NMS", a single matrix pass) would keep
/// other boxes.
const char *const GreedyFixedForm =
    "greedy suppression has an exact fixed-size form: sort the N candidates by score once, compute the "
    "N x N IoU matrix, and run N iterations with masks instead of a shrinking list (candidate i is kept "
    "when it is valid and not suppressed; a kept candidate suppresses the later ones that overlap it: "
    "suppressed |= keep_i & (iou[i] > t)); return the kept indices padded to N with a validity mask and "
    "the count (valid.sum()): the same boxes as the greedy loop, with static shapes";

/// The functions of the main file whose bodies call `Target`.
static std::vector<const FunctionDecl *> callersInMainFile(const FunctionDecl *Target, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *Target = nullptr;
    const SourceManager *SM = nullptr;
    const FunctionDecl *Current = nullptr;
    std::vector<const FunctionDecl *> Callers;
    bool TraverseDecl(Decl *D) {
      if (!D || (!isa<TranslationUnitDecl>(D) && !SM->isInMainFile(SM->getExpansionLoc(D->getLocation()))))
        return true;
      const FunctionDecl *Saved = Current;
      if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->doesThisDeclarationHaveABody())
        Current = FD;
      bool Continue = RecursiveASTVisitor::TraverseDecl(D);
      Current = Saved;
      return Continue;
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *Callee = C->getDirectCallee();
      if (Current && Callee && Callee->getCanonicalDecl() == Target->getCanonicalDecl() &&
          !llvm::is_contained(Callers, Current))
        Callers.push_back(Current);
      return true;
    }
  } F;
  F.Target = Target;
  F.SM = &Ctx.getSourceManager();
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Callers;
}

/// The call of a host library's NMS (tag host_suppression: OpenCV's cv::dnn::NMSBoxes) that values
/// collected on the host at `Anchor` most likely feed: one in the function holding it, else one
/// in a function of the file that calls it (a helper that builds the boxes and scores for the
/// caller's NMS); null when neither has one. `Via` receives the caller.
static const CallExpr *hostSuppressionFor(const Stmt *Anchor, ASTContext &Ctx, const ApiModel &Api,
                                          const FunctionDecl *&Via) {
  // A library's host NMS, or a project's copy of the CPU NMS kernel (greedy suppression with a
  // body of its own: host loops over the copied boxes).
  auto IsHostNms = [&](const Expr *E) {
    const auto *CE = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
    return CE && (Api.callHasTag(E, "host_suppression") ||
                  (Api.callHasTag(E, "greedy_suppression") && Callee && Callee->hasBody() && !Api.isLibraryDecl(Callee)));
  };
  auto InBody = [&](const Stmt *Body) -> const CallExpr * {
    return Body ? dyn_cast_or_null<CallExpr>(findExpr(Body, IsHostNms)) : nullptr;
  };
  const auto *F = Anchor ? dyn_cast_or_null<FunctionDecl>(enclosingFunction(Anchor, Ctx)) : nullptr;
  if (!F)
    return nullptr;
  Via = nullptr;
  if (const CallExpr *Nms = InBody(F->getBody()))
    return Nms;
  for (const FunctionDecl *Caller : callersInMainFile(F, Ctx))
    if (const CallExpr *Nms = InBody(Caller->getBody())) {
      Via = Caller;
      return Nms;
    }
  return nullptr;
}

static std::string hostSuppressionAdvice(const CallExpr *Nms, const FunctionDecl *Via, ASTContext &Ctx, const ApiModel &Api,
                                         const std::string &What = "the value is collected on the host") {
  const auto *Callee = Nms->getDirectCallee();
  const std::string Name = Callee ? Callee->getQualifiedNameAsString() : calleeName(Nms);
  const bool Project = !Api.callHasTag(Nms, "host_suppression"); // a project's kernel (hostSuppressionFor)
  return What + " for '" + Name + "' (line " + lineOf(Nms, Ctx) +
         (Via ? ", in '" + Via->getQualifiedNameAsString() + "', which calls this function" : std::string()) +
         (Project ? "), the project's copy of torchvision's CPU NMS kernel, whose host loops no graph runs"
                  : "), a library's non-maximum suppression that runs on the host, which no graph runs") +
         ": keep the boxes and scores as tensors and suppress on the device with torchvision::nms (which --fix "
         "turns into the fixed-size greedy form: kept indices padded, with their count), or move the copies and "
         "reads, the host containers and the NMS out of the graph region, after the replay";
}

/// The check's own help as a recipe (lowercase, no final period), or empty.
static std::string checkHelp(const std::string &CheckId) {
  const CheckInfo *Check = findCheck(CheckId);
  if (!Check || Check->Help.empty())
    return "";
  std::string Help = Check->Help;
  Help[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(Help[0])));
  if (Help.back() == '.')
    Help.pop_back();
  return Help;
}

std::string manualRecipe(const Finding &F, const Stmt *Anchor, ASTContext &Ctx, const ApiModel &Api,
                         const BlockedBranches &Blocked) {
  // At a call whose pack entry says what to do (a variant that reads nothing back): the pack's.
  if (std::string Pack = isa_and_nonnull<Expr>(Anchor) ? Api.packRecipe(cast<Expr>(Anchor)) : ""; !Pack.empty())
    return Pack;
  // A CUDA call that capture forbids is about where the capture begins and ends, not about host
  // values: the advice on host-only code (move it after the replay) would be wrong in a window.
  if (F.CheckId == "graphify-capture-unsafe-api") {
    const auto *E = dyn_cast_or_null<Expr>(Anchor);
    if (F.Tag == "first_call_allocates" || (E && Api.callHasTag(E, "first_call_allocates")))
      return "run the captured code once before the capture begins (a warm-up run on the same stream), so "
             "that the library's lazy initialisation happens outside the capture";
    if (E && Api.callHasTag(E, "capture_relaxed_ok"))
      return "allocate before the capture begins and reuse the buffer in the captured code, or allocate with "
             "cudaMallocAsync on the capturing stream (or capture in relaxed mode, which permits this call)";
    if (E && Api.callHasTag(E, "host_sync"))
      return "wait only after the capture ends or the graph replays (synchronise the stream after "
             "cudaGraphLaunch), not in the captured code; free memory before capturing or after replaying, or "
             "with cudaFreeAsync on the capturing stream";
    return checkHelp(F.CheckId);
  }
  // Indices built on the host and copied as a device tensor is indexed: where they are built.
  if (F.Tag == "host_indices")
    return "the indices are built in pageable host memory and copied to the device as the tensor is indexed, "
           "which waits for the host: build them on the device (a factory given the indexed tensor's device or "
           "x.options(): torch::arange(n, x.options().dtype(torch::kLong))), or once before the graph region (a "
           "constant the region reads)";
  // Device values written into a tensor in host memory: where the results are kept.
  if (F.Tag == "device_to_host_write")
    return "the results are written into a tensor in pageable host memory, which waits for the device: keep "
           "them in a tensor on the device (made with the written tensor's options) and copy it to the host "
           "once, after the graph region or the replay";
  if (F.Construct == Finding::ConstructKind::GreedySelection)
    return GreedyFixedForm;
  if (const auto *E = dyn_cast_or_null<Expr>(Anchor); E && Api.callHasTag(E, "greedy_suppression"))
    return GreedyFixedForm;
  // A host list of tensors sorted by read keys (a beam search's candidates): the order is the
  // choice, and it moves to the device as one.
  if (const auto *E = dyn_cast_or_null<Expr>(Anchor); E && Api.callHasTag(E, "orders_range"))
    return "keep the keys on the device and order there: stack the list's tensors (torch::stack), keep the "
           "scores as a tensor instead of reading them (a beam search's candidates: the [beams, k] scores of "
           "topk plus each beam's running score), take the order with topk or argsort of that tensor, and go on "
           "with index_select(0, order) of the stacked tensors";
  Consumer Use = Anchor ? consumerOf(Anchor, Ctx, Api) : Consumer::None;
  // Values collected on the host for a host library's NMS (stored into its inputs, here or by a
  // helper handed the read): the NMS is what to replace, whatever its kept indices size later.
  if (Use == Consumer::HostBuffer || Use == Consumer::HostObject || Use == Consumer::HostFunction ||
      Use == Consumer::HostCall) {
    const FunctionDecl *Via = nullptr;
    if (const CallExpr *Nms = hostSuppressionFor(Anchor, Ctx, Api, Via))
      return hostSuppressionAdvice(Nms, Via, Ctx, Api);
  }
  // A host read: what its value becomes decides the form (reported where it is used), unless the
  // read copies the whole tensor into a host buffer, whose code moves out with it.
  if (!F.ValueUses.empty() && Use != Consumer::MemoryCopy)
    if (std::string R = recipeForUse(F.ValueUses, Blocked, Use == Consumer::HostBuffer || Use == Consumer::HostObject); !R.empty())
      return R;
  // A position stays a position wherever the element it picks goes: the fix is the device index.
  if (F.CheckId == "graphify-data-dependent-position")
    Use = Consumer::None;
  // A loop whose body holds no tensor (a host NMS over boxes read out, OpenCV geometry) is host
  // code: no trip count to bound or mask, only code to move — whatever kind of loop it is.
  if (const Stmt *Body = loopBody(Anchor); Body && F.CheckId == "graphify-data-dependent-loop" &&
                                           worksOnHostOnly(Body, Api))
    return "the loop's body works on host values only (it holds no tensor), which no graph runs: move the "
           "loop, and the reads that decide it, out of the graph region, after the replay (the region returns "
           "the tensors they read)";
  // A branch no rule took up (one in a function template, say) whose arms no select can express:
  // that is the obstacle, whatever its condition reads.
  if (F.CheckId == "graphify-data-dependent-branch")
    if (const Expr *Cond = enclosingIfCondition(Anchor, Ctx)) {
      if (auto Why = branchObstacle(Cond, Api, Ctx))
        return *Why;
      if (auto Why = loopExitObstacle(Cond, Ctx))
        return *Why;
    }
  // A body that changes objects picked from a host list, or does other host work: it leaves too.
  if (const Stmt *Body = loopBody(Anchor); Body && F.CheckId == "graphify-data-dependent-loop") {
    if (std::string Update = hostListElementUpdate(Body, Api, Ctx); !Update.empty())
      return hostListUpdateAdvice(Update);
    if (std::string Work = firstHostWork({Body}, Api, Ctx); !Work.empty())
      return "the loop's body does host work (" + Work + "), which no graph holds: move the loop, and the reads "
             "in it, out of the graph region, after the replay (the region returns the tensors they read, a "
             "selection padded to a static size and its count)";
  }
  // Code in a function that holds no tensor (a host beam search given data_ptr() pointers, a
  // counter over a host array), past its branches and loops: the graph never runs it, so its
  // call moves out.
  if (std::string Function = hostOnlyFunction(Anchor, Api, Ctx); !Function.empty())
    return hostFunctionAdvice(Function);
  // Inside a loop whose body holds no tensor (logging per child, a host tree walk): the loop leaves
  // the region whole, and what it decides with it.
  if (const Stmt *Loop = F.ThroughControl ? loopHolding(Anchor, Ctx) : nullptr;
      Loop && worksOnHostOnly(loopBody(Loop), Api))
    return "the code is in a loop whose body works on host values only (line " + lineOf(Loop, Ctx) + "), which no "
           "graph runs: move the loop, and the reads that decide it, out of the graph region, after the replay";
  // A value set under conditions on tensor data (an implicit flow). A position chosen so (the
  // best child's index) is an argmax on the device; one that host code takes (a log, a host
  // object built from it, also through a ternary) leaves with that code.
  if (F.ThroughControl && !F.SizeOfSelection && F.CheckId == "graphify-data-dependent-position")
    return "the position is chosen under conditions on tensor data (set where a comparison of values read from "
           "tensors held, an implicit flow): compute it on the device, as the argmax (or argmin) of the compared "
           "values or the first true entry of the condition's mask, and index with that long tensor (index_put_, "
           "index_select, scatter_)";
  const ConditionalOperator *Ternary = Use == Consumer::HostSelect ? ternaryTesting(Anchor, Ctx) : nullptr;
  const Consumer Decided = Ternary ? consumerOf(Ternary, Ctx, Api, 0, /*AsValue=*/true) : Use;
  if (F.ThroughControl && !F.SizeOfSelection && F.CheckId != "graphify-host-sync" &&
      llvm::is_contained({Consumer::HostObject, Consumer::HostBuffer, Consumer::HostFunction, Consumer::HostCall,
                          Consumer::Printed},
                         Decided))
    return "the value is decided under conditions on tensor data (an implicit flow) and goes into host code (a "
           "print, a host function, a host object or container built from it), which no graph runs: move the "
           "code that decides it, and the host code it feeds, out of the graph region, after the replay";
  // A number counted or a flag set under conditions on tensor data: the conditions become a mask,
  // the count its sum.
  if (F.ThroughControl && !F.SizeOfSelection && F.CheckId != "graphify-host-sync")
    return "the value counts or records how often a condition on tensor data held (it is set or advanced "
           "under that condition, an implicit flow): compute the condition for every element as a mask on "
           "the device, and the count as mask.sum() (a flag: mask.any()), a 0-d tensor; a size taken from it "
           "needs the padded form (allocate to the static bound and mask the entries past the count)";
  // The size of a selection: the static form keeps the rows the selection came from.
  const bool Loop = Use == Consumer::LoopCondition || loopBody(Anchor) != nullptr;
  if (F.SizeOfSelection && Loop)
    return "the loop runs over the rows of a selection: loop over the static number of rows it was selected "
           "from and mask the rows that were not selected (the padded form: rows padded to that size and a "
           "validity mask)";
  if (F.SizeOfSelection && Use != Consumer::Printed && Use != Consumer::HostCopy && Use != Consumer::DeviceCopy)
    return "the size of a selection depends on the values: keep the selection padded to the static size it "
           "came from (a mask over N rows selects at most N) with the mask as validity (torch::where(mask, x, "
           "0); a stable argsort of the inverted mask moves the kept rows first), and count with mask.sum() "
           "(numel() > 0 becomes mask.any())";
  if (Use == Consumer::HostCopy && isa_and_nonnull<Expr>(Anchor) && copyIsReturned(cast<Expr>(Anchor), Ctx))
    return "the host copy is what the function returns: return the tensor on the device; a caller that hands it "
           "to device code (a copy into device memory, a kernel) then uses it where it is, and one that reads it "
           "on the host copies it after the replay (a captured graph's outputs stay in device memory)";
  if (Use == Consumer::HostCopy && isa_and_nonnull<Expr>(Anchor) && copyFeedsOnlyTensorWork(cast<Expr>(Anchor), Ctx, Api))
    return "the host copy is used only by tensor ops (and size queries), which run on the device as well: drop "
           "the copy and keep the tensors on the device";
  switch (Use) {
  case Consumer::Printed:
    return "the value is printed on the host, which no rewrite can keep on the device: move the print out "
           "of the graph region (print after the replay, from a tensor the graph writes)";
  case Consumer::LoopCondition:
    return "the loop's trip count depends on tensor values: loop to a static bound and mask the updates of "
           "finished iterations (h = torch::where(done, h, h_new)), the static decoding form";
  case Consumer::HostCopy: {
    // Copied out for a host library's NMS in the same function (or a caller): the NMS is what to replace.
    const FunctionDecl *Via = nullptr;
    if (const CallExpr *Nms = hostSuppressionFor(Anchor, Ctx, Api, Via))
      return hostSuppressionAdvice(Nms, Via, Ctx, Api, "the tensor is copied to host memory");
    return "the tensor is copied to host memory: move the copy, and the host code that uses it, out of the "
           "graph region";
  }
  case Consumer::DeviceCopy:
    // A tensor the region copied to host memory (`to(kCPU)`) and copies back: both copies go.
    if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Anchor); MC && Api.facts())
      if (const Expr *Origin = Api.facts()->hostMemoryOrigin(MC->getImplicitObjectArgument());
          Origin && copiesToHost(Origin, Api))
        return "the tensor was copied to host memory (line " + lineOf(Origin, Ctx) +
               ") and is copied back here, a round trip through the host: keep it on the device and drop both "
               "copies (move the host code between them out of the graph region, after the replay)";
    // Built from values read from tensors: the copy is the second half of a round trip.
    if (!F.ReadAt.File.empty())
      return "the host data copied here holds values read from tensors (line " + std::to_string(F.ReadAt.Line) +
             "), a round trip through the host: keep those values on the device instead and build this tensor "
             "from them with tensor ops (positions as a long tensor for index_select or gather, a preallocated "
             "device buffer written with index_put_ at each step)";
    if (const auto *E = dyn_cast_or_null<Expr>(Anchor); E && Api.callHasTag(E, "host_data"))
      return "the host values are copied to the device as the tensor is built, which waits for the host: "
             "compute them on the device with tensor ops, build the tensor once before the graph region (a "
             "constant the region reads), or fill a pinned host tensor and copy it with non_blocking=true";
    return "the tensor is built in pageable host memory and copied to the device, which waits for the host: "
           "build it on the device (a factory given the device or x.options()), once before the graph region "
           "(a constant the region reads), or in pinned memory copied with non_blocking=true";
  case Consumer::HostBuffer:
    return "the value is collected into a host container, which a graph cannot fill: keep the values in a "
           "tensor the graph writes (a preallocated buffer written with index_put_ or torch::where) and copy "
           "it to the host after the replay";
  case Consumer::ElementWrite:
    return "the tensor's memory is written element by element on the host, which no graph replays: compute "
           "the values on the device with tensor ops (torch::where for a test per element, index_put_ or "
           "scatter_ at positions held in a tensor), or move the host loop that writes it out of the graph "
           "region, after the replay";
  case Consumer::HostCall:
    return "the tensor's memory is handed to host code (a function of the project that reads it on the host), "
           "which no graph runs: move the read and that call out of the graph region, after the replay (the region "
           "returns the tensor)";
  case Consumer::HostFunction:
    return "the value is handed to host code (a function that takes no tensor, called for its effect or working on host "
           "values only), which "
           "no graph runs: move the read and that call out of the graph region, after the replay (the region "
           "returns the tensor the value is read from)";
  case Consumer::HostObject:
    return "the value is stored in a host object (a struct or class of results), which a graph cannot build: "
           "return the values as tensors from the graph region and build the object after the replay";
  case Consumer::MemoryCopy:
    return "the tensor's memory is copied into a host buffer (a memcpy of data_ptr()), which no graph "
           "holds: move the copy, and the host code that reads the buffer, out of the graph region, after "
           "the replay (the region returns the tensor)";
  case Consumer::HostLookup:
    return "the value picks an entry of a host container (a lookup table on the host), which no graph can "
           "read: return the value as a tensor from the region and look the entry up after the replay, or keep "
           "the table as a tensor and index it on the device (index_select)";
  case Consumer::HostSelect:
    return "the branch chooses between host values (not tensors), which where() cannot select: make the "
           "choice after the graph replays, or express both values as tensors";
  case Consumer::None:
    break;
  }
  return checkHelp(F.CheckId);
}

} // namespace graphify::rewriter
