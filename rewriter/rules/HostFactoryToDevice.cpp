// host-factory-to-device:
//   torch::ones({1, 1}).fill_(s).toType(torch::kLong).to(device)
//       ->  torch::ones({1, 1}, torch::device(device)).fill_(s).toType(torch::kLong).to(device)
//   auto m = torch::triu(torch::ones({n, n}, torch::kInt32), 1);  ...  m.to(torch::kBool).to(dev_)
//       ->  torch::ones({n, n}, torch::TensorOptions(torch::kInt32).device(dev_))
// A tensor built in pageable host memory and copied to the device inside a graph region makes the
// copy synchronise with the host, which capture forbids. When the factory computes its values
// from its arguments alone and every call between it and the copy gives the same values on every
// device (entries tagged device_invariant, views tagged same_elements), the factory is given the
// copy's destination: the same values are created on the device, and the copy, now to the
// device the tensor is on, returns it unchanged (it still converts a dtype it names).
// Conditions, each a refusal: the factory's size arguments are integers (arange(0.5, 3) sums its
// steps in a different precision on each device); each call on the way has no other tensor
// operand (it would stay on the host); each local on the way is read only on the way (another use
// would now see a device tensor); the destination is a plain value (a variable, a field, a
// getter of one, a constant) that has the same value where the factory is, and the factory takes
// tensor options as its last parameter. Factories of host data (torch::tensor, from_blob: tag
// host_data) are not matched: their data must be copied once before the region, the recipe the
// check gives. One number is no data to copy: `torch::tensor(score)` given the device fills its
// element there (LibTorch's scalar_tensor: empty, then fill_ with the number), exactly.
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

/// The copy to the device this rule is about, with where its source was built.
struct HostCopy {
  ApiCall Transfer;
  HostOrigin Origin;
  ApiCall Factory;
  /// A factory of host data given one number (`torch::tensor(x)`), which it fills in exactly.
  bool OneNumber = false;
};

/// A device_transfer call that copies a tensor built by a factory of sizes (not of host data)
/// to the device.
std::optional<HostCopy> hostCopyOf(const Expr *E, const ApiModel &Api) {
  const ApiResolver &Resolver = Api.resolver();
  auto Transfer = Resolver.resolve(E);
  if (!Transfer || !Transfer->IsMethod || !copiesToDevice(*Transfer, Resolver))
    return std::nullopt;
  auto Origin = findHostOrigin(Transfer->arg(0), Resolver);
  if (!Origin)
    return std::nullopt;
  auto Factory = Resolver.resolve(Origin->Factory);
  if (!Factory)
    return std::nullopt;
  bool OneNumber = Factory->hasTag("host_data") && buildsFromScalar(*Factory);
  if (!OneNumber && (!Factory->hasTag("size_argument") || Factory->hasTag("host_data")))
    return std::nullopt;
  return HostCopy{*Transfer, *Origin, *Factory, OneNumber};
}

/// Whether the destination can be written a second time at the factory: variables, fields,
/// constants and argument-free library getters of them (`x.device()`, `opts`), nothing that
/// runs user code or could change between the two places.
bool isPlainValue(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<CXXThisExpr>(E) || isa<StringLiteral>(E) ||
      isa<IntegerLiteral>(E) || isa<CXXFunctionalCastExpr>(E))
    return llvm::all_of(E->children(), [&](const Stmt *C) { return !C || isPlainValue(cast<Expr>(C), Api); });
  // `torch::Device("cuda:0")`, `torch::Device(torch::kCUDA, 1)`: a library value made of plain ones.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return Api.isLibraryDecl(CE->getConstructor()) &&
           llvm::all_of(CE->arguments(), [&](const Expr *A) { return isPlainValue(A, Api); });
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return MC->getNumArgs() == 0 && MC->getMethodDecl() && Api.isLibraryDecl(MC->getMethodDecl()) &&
           isPlainValue(MC->getImplicitObjectArgument(), Api);
  // `*m_device` through a pointer or a standard smart pointer (a const operator of the standard
  // library, which runs no user code): the object pointed at.
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return isPlainValue(U->getSubExpr(), Api);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && (OC->getOperator() == OO_Star || OC->getOperator() == OO_Arrow) && OC->getNumArgs() == 1) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    return MD && MD->isConst() && MD->getParent()->isInStdNamespace() && isPlainValue(OC->getArg(0), Api);
  }
  return false;
}

/// The locals and parameters `E` reads.
void readVariables(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->isLocalVarDeclOrParm())
      Out.push_back(VD);
  for (const Stmt *C : S->children())
    readVariables(C, Out);
}

/// Why the destination does not have the same value at the factory, or nothing.
std::optional<std::string> destinationMovesBadly(const Expr *Dest, const HostCopy &C, ASTContext &Ctx,
                                                 const ApiModel &Api) {
  if (!isPlainValue(Dest, Api))
    return "the destination '" + sourceText(Dest, Ctx) +
           "' is computed by a call, which the factory would make a second time";
  const Stmt *FactoryStatement = enclosingBlockStatement(C.Origin.Factory, Ctx).first;
  if (FactoryStatement && FactoryStatement == enclosingBlockStatement(C.Transfer.Call, Ctx).first)
    return std::nullopt; // one statement: nothing runs between the two
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const VarDecl *, 4> Read;
  readVariables(Dest, Read);
  for (const VarDecl *V : Read) {
    if (!SM.isBeforeInTranslationUnit(V->getLocation(), C.Origin.Factory->getBeginLoc()))
      return "the destination '" + sourceText(Dest, Ctx) + "' reads '" + V->getNameAsString() +
             "', which is declared after the factory (line " + lineOf(C.Origin.Factory, Ctx) + ")";
    if (V->getType()->isReferenceType() && !V->getType().getNonReferenceType().isConstQualified())
      return "the destination '" + sourceText(Dest, Ctx) + "' reads the reference '" + V->getNameAsString() +
             "', which may change between the factory and the copy";
    if (isAssignedAfterDeclaration(V)) {
      std::string What = sourceText(Dest, Ctx) == V->getNameAsString()
                             ? "the destination '" + V->getNameAsString() + "'"
                             : "the destination '" + sourceText(Dest, Ctx) + "' reads '" + V->getNameAsString() + "', which";
      return What + " is assigned after its declaration, so it may name another device where the factory is";
    }
  }
  return std::nullopt;
}

/// Why a call between the factory and the copy cannot run on the device instead, or nothing.
std::optional<std::string> stepBlocks(const Expr *Step, const HostCopy &C, ASTContext &Ctx, const ApiModel &Api) {
  auto Call = Api.resolver().resolve(Step);
  if (!Call)
    return "'" + sourceText(Step, Ctx) + "' is not a call the rule packs describe";
  // Self is on the way (its factory may name the CPU, which the edit replaces); the other
  // arguments are this call's own.
  for (unsigned I = Call->IsMethod ? 1 : 0; I < Call->Args.size(); ++I)
    if (ApiResolver::mentionsConstant(Call->Args[I], "CPU", "cpu"))
      return "'" + Call->Name + "' (line " + lineOf(Step, Ctx) + ") names the CPU";
  if (Step != C.Transfer.Call && !Call->hasTag("same_elements") && !Call->hasTag("device_invariant"))
    return "'" + Call->Name + "' (line " + lineOf(Step, Ctx) +
           ") is computed on the host on the way to the copy and may round differently on the device "
           "(only calls tagged device_invariant or same_elements give the same values on every device)";
  unsigned Tensors = 0;
  for (const Expr *A : Call->Args)
    Tensors += A && Api.isTensorExpr(A);
  if (Tensors > 1)
    return "'" + Call->Name + "' (line " + lineOf(Step, Ctx) + ") also takes another tensor, which would stay in "
           "host memory";
  return std::nullopt;
}

/// Whether the reference is the operand of a call on the way (through the conversions clang
/// puts around it).
bool isReadOnTheWay(const DeclRefExpr *DRE, const llvm::SmallPtrSetImpl<const Stmt *> &OnTheWay, ASTContext &Ctx) {
  const Stmt *S = DRE;
  for (unsigned Depth = 0; S && Depth < 8; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    if (Parents.empty())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (OnTheWay.count(P))
      return true;
    if (!isa<ImplicitCastExpr>(P) && !isa<MaterializeTemporaryExpr>(P) && !isa<CXXConstructExpr>(P) &&
        !isa<ParenExpr>(P) && !isa<MemberExpr>(P))
      return false;
    S = P;
  }
  return false;
}

/// Why a local on the way cannot hold a device tensor instead, or nothing: every read of it
/// is on the way to the copy (its own new values included), or it is assigned.
std::optional<std::string> localBlocks(const VarDecl *V, const HostCopy &C, ASTContext &Ctx) {
  const Stmt *Body = functionBody(enclosingFunction(C.Transfer.Call, Ctx));
  llvm::SmallPtrSet<const Stmt *, 16> OnTheWay(C.Origin.Steps.begin(), C.Origin.Steps.end());
  OnTheWay.insert(C.Transfer.Call);
  for (const DeclRefExpr *Use : usesOf(V, Body)) {
    // `v = e`: the target is not a read (e's reads are uses of their own).
    DynTypedNodeList Parents = Ctx.getParents(*Use);
    const auto *Assign = Parents.empty() ? nullptr : Parents[0].get<CXXOperatorCallExpr>();
    if (Assign && Assign->getOperator() == OO_Equal && Assign->getArg(0) == Use)
      continue;
    if (!isReadOnTheWay(Use, OnTheWay, Ctx))
      return "'" + V->getNameAsString() + "' is also used at line " + lineOf(Use, Ctx) +
             ", where it would then be a tensor on the device";
  }
  return std::nullopt;
}

/// The device the copy names, spelled for the factory: a tensor's or options' device
/// (`x.device()`), a device as written, the GPU for a transfer that names none (`cuda()`).
llvm::Expected<std::string> destinationDevice(const HostCopy &C, ASTContext &Ctx, const ApiModel &Api) {
  const Expr *Dest = destinationArgument(C.Transfer, Api.resolver());
  const Expr *Self = C.Transfer.arg(0);
  if (!Dest) {
    if (C.Transfer.Args.size() > 1)
      return refuse("'" + C.Transfer.Name + "' chooses its device from an argument the rule does not read");
    return Api.spellConstant(Self, "kCUDA");
  }
  const Expr *Written = asWritten(Dest);
  if (auto Why = destinationMovesBadly(Written, C, Ctx, Api))
    return refuse(*Why);
  std::string Text = sourceText(Written, Ctx);
  // Options and tensors say their device through an argument-free device() getter; a device
  // is one already.
  if (hasDeviceGetter(Written->getType())) {
    bool Simple = isa<DeclRefExpr>(stripAll(Written)) || isa<MemberExpr>(stripAll(Written)) ||
                  isa<CallExpr>(stripAll(Written));
    return (Simple ? Text : "(" + Text + ")") + ".device()";
  }
  return Text;
}

/// Whether a floating-point argument holds an integer: a constant with no fraction (`0.0`,
/// `1.0`) or an integer converted (`(float)ng`). `arange(0.0, (float)n, 1.0)` computes
/// `start + i * step` in exact integers on every device (below 2^24 elements, which a grid is).
bool integerValued(const Expr *A, ASTContext &Ctx) {
  const Expr *E = A->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E); Cast && Cast->getCastKind() == CK_IntegralToFloating)
    return true;
  if (const auto *Explicit = dyn_cast<ExplicitCastExpr>(E))
    if (Explicit->getSubExpr()->IgnoreParenImpCasts()->getType()->isIntegerType())
      return true;
  llvm::APFloat Value(0.0);
  return !E->isValueDependent() && E->EvaluateAsFloat(Value, Ctx) && Value.isInteger();
}

/// The factory's size arguments are integers, so its values are exact on every device.
std::optional<std::string> sizesNotIntegers(const HostCopy &C, ASTContext &Ctx) {
  for (const ApiEntry *E : C.Factory.Entries)
    for (unsigned Pos : E->SizeArgs)
      if (const Expr *A = C.Factory.arg(Pos);
          A && asWritten(A)->getType()->isRealFloatingType() && !integerValued(asWritten(A), Ctx))
        return "'" + C.Factory.Name + "' takes '" + sourceText(asWritten(A), Ctx) +
               "', which is not an integer: its values are accumulated in a different precision on each device";
  return std::nullopt;
}

/// The edit that gives the factory the device: its options argument, added or merged.
llvm::Expected<Edit> deviceOptionEdit(const HostCopy &C, const std::string &Device, ASTContext &Ctx,
                                      const ApiModel &Api) {
  const auto *Call = dyn_cast<CallExpr>(C.Origin.Factory);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  unsigned N = FD ? FD->getNumParams() : 0;
  if (!FD || N == 0 || Call->getNumArgs() != N || !Api.resolver().isPlacementType(FD->getParamDecl(N - 1)->getType()))
    return refuse("'" + C.Factory.Name + "' (line " + lineOf(Call ? Call : C.Origin.Factory, Ctx) +
                  ") takes no tensor options as its last argument");
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *Last = Call->getArg(N - 1);
  const Expr *Factory = C.Origin.Factory;
  Edit E;
  if (!isa<CXXDefaultArgExpr>(Last)) {
    const Expr *Written = asWritten(Last);
    std::string Text = sourceText(Written, Ctx);
    CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(Written->getSourceRange()).getAsRange());
    E.Range = R;
    // A device written alone (`torch::kCPU`) is replaced; options that name the CPU among other
    // settings would keep naming it after a merge.
    if (Api.resolver().isPlacementType(Written->getType()) && !hasDeviceGetter(Written->getType()) &&
        ApiResolver::mentionsConstant(Written, "CPU", "cpu")) {
      E.Replacement = Api.spell(Factory, "device") + "(" + Device + ")";
      return E;
    }
    if (ApiResolver::mentionsConstant(Written, "CPU", "cpu"))
      return refuse("the options of '" + C.Factory.Name + "' (line " + lineOf(Call, Ctx) + ") name the CPU among "
                    "other settings: replace that device by hand");
    // Options already (the parameter's own type) take the device; a dtype or a device written
    // alone is wrapped in options first.
    bool IsOptions = Ctx.hasSameUnqualifiedType(Written->getType().getNonReferenceType(),
                                                FD->getParamDecl(N - 1)->getType().getNonReferenceType());
    if (IsOptions && !isa<DeclRefExpr>(stripAll(Written)) && !isa<CallExpr>(stripAll(Written)) &&
        !isa<MemberExpr>(stripAll(Written)))
      Text = "(" + Text + ")";
    std::string Merged = IsOptions ? Text + ".device(" + Device + ")"
                                   : Api.spell(Factory, "TensorOptions") + "(" + Text + ").device(" + Device + ")";
    E.Replacement = Merged;
    return E;
  }
  if (N < 2 || isa<CXXDefaultArgExpr>(Call->getArg(N - 2)))
    return refuse("'" + C.Factory.Name + "' (line " + lineOf(Call, Ctx) +
                  ") leaves other arguments to their defaults before its options");
  SourceLocation End = Lexer::getLocForEndOfToken(SM.getExpansionLoc(Call->getArg(N - 2)->getEndLoc()), 0, SM,
                                                  Ctx.getLangOpts());
  if (End.isInvalid())
    return refuse("the factory at line " + lineOf(Call, Ctx) + " is written in a macro");
  E.Range = CharSourceRange::getCharRange(End, End);
  E.Replacement = ", " + Api.spell(Factory, "device") + "(" + Device + ")";
  return E;
}

llvm::Expected<Edit> analyse(const MatchResult &R, const ApiModel &Api) {
  ASTContext &Ctx = *R.Context;
  auto C = hostCopyOf(R.Nodes.getNodeAs<Expr>("copy"), Api);
  if (!C)
    return refuse("the copied tensor is not built by a factory");
  const std::string Factory = "'" + C->Factory.Name + "' (line " + lineOf(C->Origin.Factory, Ctx) + ")";
  if (C->Origin.ThroughFunction)
    return refuse("the tensor is built by " + Factory +
                  " in another function: give that factory the device (x.options(), torch::device(d)) by hand");
  if (C->Origin.Pinned)
    return refuse("the tensor is copied through pinned memory: make the copy non_blocking=true, which capture "
                  "allows, or build it on the device");
  if (C->Factory.Call->getBeginLoc().isMacroID())
    return refuse("the factory " + Factory + " is written in a macro");
  if (C->Factory.hasTag("random"))
    return refuse(Factory + " draws from the host's random generator; on the device it would draw other "
                  "numbers");
  if (!C->OneNumber && !C->Factory.hasTag("device_invariant"))
    return refuse(Factory + " may compute its values with a different rounding on the device (only factories "
                  "tagged device_invariant give the same values everywhere): create the tensor on the device by "
                  "hand where its values are exact (integers: arange(n, options))");
  if (auto Why = sizesNotIntegers(*C, Ctx))
    return refuse(*Why);
  for (const Expr *Step : C->Origin.Steps)
    if (auto Why = stepBlocks(Step, *C, Ctx, Api))
      return refuse(*Why);
  for (const VarDecl *V : C->Origin.Locals)
    if (auto Why = localBlocks(V, *C, Ctx))
      return refuse(*Why);
  auto Device = destinationDevice(*C, Ctx, Api);
  if (!Device)
    return Device.takeError();
  return deviceOptionEdit(*C, *Device, Ctx, Api);
}

} // namespace

namespace matchers {
/// A copy to the device of a tensor that a factory of sizes built in host memory.
AST_MATCHER_P(Expr, copiesHostFactoryToDevice, const ApiModel *, Api) { return hostCopyOf(&Node, *Api).has_value(); }
} // namespace matchers

NamedRewriteRule makeHostFactoryToDeviceRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = cxxMemberCallExpr(isUserCode(), copiesHostFactoryToDevice(A)).bind("copy");
  EditGenerator GiveDevice = [A](const MatchResult &R) -> llvm::Expected<llvm::SmallVector<Edit, 1>> {
    auto E = analyse(R, *A);
    if (!E)
      return E.takeError();
    return llvm::SmallVector<Edit, 1>{*E};
  };
  return {"host-factory-to-device",
          makeRule(Matcher, GiveDevice,
                   cat("the tensor is created on the device it was copied to, with the same values, so no copy "
                       "from host memory is left in the region")),
          RewriteRuleTraits{{"graphify-host-sync"}}};
}

} // namespace graphify::rewriter
