// selection-to-padded:
//   torch::Tensor confident(torch::Tensor boxes, torch::Tensor scores, double t) {
//     auto keep = scores > t;
//     auto kept = boxes.index({keep});
//     if (kept.size(0) == 0) return torch::zeros({0, 4});
//     return kept * 2;
//   }
// becomes a capturable core that keeps every selection padded to the static size it came from
// (lib/PaddedSelection.h) and returns fixed-size outputs plus counts, and a host epilogue with
// the original signature that reads the counts, slices, and takes the early returns — the
// "fixed max detections + num_detections" contract of inference engines:
//   static std::tuple<torch::Tensor, torch::Tensor, ...> confident_padded(...) { ...; return {...}; }
//   /// graphify: host epilogue of 'confident_padded' ...
//   torch::Tensor confident(torch::Tensor boxes, torch::Tensor scores, double t) {
//     auto padded = confident_padded(boxes, scores, t);
//     const int64_t rows = std::get<1>(padded).item<int64_t>();
//     if (std::get<2>(padded).narrow(0, 0, rows2).size(0) == 0) return torch::zeros({0, 4});
//     return std::get<0>(padded).narrow(0, 0, rows);
//   }
//
// Why it is exact: the core computes every value the original computed, padded (its first
// `count` rows are the original's rows), so the epilogue's slices are the original's values. The
// core runs all of the function, where the original may have returned early; that is only
// allowed when what follows a return is free of side effects and of ops that raise on values
// (findSideEffect), so the extra work is unobservable. The code must be straight-line: locals,
// assignments, early returns tested on selections, and a final return — or a host tail: from
// the first statement the padded form does not take (a copy to the host, a loop over the rows, a
// host value of a selection) to the end, when that part reads tensor data on the host or the
// function returns host data, the statements run in the epilogue on the sliced values, which are
// the original's (anything else refuses, naming the statement). A method's core is a function
// beside the class (a static member when the method is defined in it) that takes the fields the
// body uses by reference (lib/Outlining.h, outlineMethodBody); the epilogue is the method.
#include "lib/ExprUtil.h"
#include "lib/HostRead.h"
#include "lib/HostWork.h"
#include "lib/IfChain.h"
#include "lib/Outlining.h"
#include "lib/PaddedSelection.h"
#include "lib/Predication.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"
#include "lib/SettledParameters.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <map>
#include <optional>
#include <set>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

/// An early return the epilogue takes: `if (Cond) return Value;`.
struct Guard {
  const Expr *Cond = nullptr;
  const Expr *Value = nullptr;
  /// Padded variables the condition reads, with the kept output (Plan::Kept) holding their value there.
  std::map<const ValueDecl *, unsigned> Reads;
  /// Host variables holding a selection's row count (`int n = kept.size(0);`) that the condition
  /// reads, with the count: the epilogue reads it in their place.
  std::map<const ValueDecl *, std::string> CountReads;
};

/// One output of the core: a padded value (sliced by its group's count) or a static one.
struct Output {
  std::string Text;
  std::string Count; ///< the 0-d count of its group, or empty (not padded)
  /// A value of each iteration of the loop (LoopPlan): the core returns the vector `Text` of
  /// them, one per iteration.
  bool Each = false;
};

/// What the epilogue's loop does at one point of an iteration: take a guard (`continue`) or
/// push a sliced value into the vector the original pushed into.
struct LoopStep {
  int Guard = -1;                ///< an index into LoopPlan::Guards, or -1 for a push
  const VarDecl *Into = nullptr; ///< the vector the original pushes into
  std::string Method;            ///< push_back or emplace_back
  unsigned Value = 0;            ///< an index into LoopPlan::Outputs
  SourceRange PushLoc;           ///< the push statement (or the slot assignment)
  /// `out[i] = e;` rather than a push: the element, as written (`out[i]`), which the epilogue's
  /// loop (under the original header) rebinds to the sliced value.
  std::string Slot;
};

/// A loop whose iterations each select and collect what they keep into vectors of tensors:
///   std::vector<torch::Tensor> out;
///   for (int64_t i = 0; i < preds.size(0); ++i) {
///     auto kept = preds[i].index({preds[i].select(1, 4) > t});
///     if (kept.size(0) == 0) continue;
///     out.push_back(kept);
///   }
/// The core runs the same loop without its `continue`s, padded, and keeps each iteration's
/// pushed values, the values its guards test and its counts in vectors (Output::Each); the
/// epilogue loops over them, one iteration per element, takes the guards on the sliced values
/// and pushes the slices into its own vectors, which the statements after the loop (the host
/// tail) read as the original's.
struct LoopPlan {
  const ForStmt *For = nullptr;
  std::string Type;            ///< the tensor type the collected vectors hold, as written
  std::vector<Output> Outputs; ///< per iteration: the values pushed and the values guards test
  std::vector<Guard> Guards;   ///< their Reads index Outputs
  std::vector<LoopStep> Steps;
  /// The count of each group the loop's iterations select, with the vector the core collects it in.
  std::map<std::string, std::string> EachCounts;
  /// The iteration's host part: from the first statement of the body the padded form does not
  /// take, when the rest reads tensor data on the host, to the end of the body; the epilogue's
  /// loop runs it on the sliced values of the tensors it reads (TailReads: an index into Outputs,
  /// an element per iteration for the body's locals, one value for the locals before the loop).
  const Stmt *TailBegin = nullptr;
  std::vector<std::pair<const VarDecl *, unsigned>> TailReads;
  /// The epilogue needs the loop counter (its host part reads it): it runs the original header.
  bool ReadsCounter = false;
};

struct Plan {
  const FunctionDecl *Function = nullptr;
  std::string Core;                     ///< the core's statements
  /// The returned values: one for a function returning a tensor, one per element for a tuple,
  /// pair or vector of tensors (returned as a braced list).
  std::vector<Output> Returned;
  bool ReturnsAggregate = false;
  std::vector<Output> Kept;             ///< values the guards test, kept by the core
  std::vector<std::string> LeadingGuards; ///< guards on parameters alone, taken before the core runs
  std::vector<Guard> Guards;
  /// The host tail: the first statement of the part the epilogue runs after the guards, on the
  /// core's tensor locals it reads (TailReads, sliced like the other outputs); null when the
  /// function ends with a return the core computes.
  const Stmt *TailBegin = nullptr;
  std::vector<std::pair<const VarDecl *, Output>> TailReads;
  /// Host declarations that run no code and that the core does not read (`std::vector<Det> out;`,
  /// `int n = 0;`): declared by the epilogue before it calls the core.
  std::vector<const DeclStmt *> HostDecls;
  /// In a method: the fields of `*this` the body uses, which the core (a function outside the
  /// class, or a static member for a method defined in it) takes by reference under their names.
  std::vector<const FieldDecl *> Fields;
  /// The loop whose iterations select, if any, and the vectors of tensors it pushes into
  /// (declared by the epilogue, which does the pushes).
  std::optional<LoopPlan> Loop;
  std::set<const VarDecl *> Collected;
  /// Loops before the selecting one that only fill collected vectors with values the epilogue
  /// can compute (`for (...) out.push_back(torch::zeros({0, 6}));`): the epilogue runs them.
  std::vector<const ForStmt *> Prefills;
  /// The prefills that read a settled reference parameter (SettledParameters.h): the epilogue
  /// runs them after calling the core, which leaves the parameter as they read it.
  std::set<const ForStmt *> PrefillsAfterCore;
  /// Tensor parameters taken by non-const reference that the body assigns (referenceParameters):
  /// the core takes them by value, the epilogue repeats these assignments after calling it.
  std::set<const ParmVarDecl *> ByValueInCore;
  std::vector<const Stmt *> RepeatedAssignments;
};

/// The one statement of the then-branch of `if (c) s;` (braces allowed, no else, no init
/// statement, no condition variable), or null.
const Stmt *soleThen(const IfStmt *If) {
  if (If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
    Then = CS->body_front();
  return Then;
}

/// `if (c) return v;`, or null.
const ReturnStmt *guardReturn(const IfStmt *If) { return dyn_cast_or_null<ReturnStmt>(soleThen(If)); }

/// The first reference to each declaration in the statements [It, End), in the order of one
/// walk (the host parts' reads: the order of the core's outputs follows it).
std::vector<const DeclRefExpr *> firstReferences(const Stmt *const *It, const Stmt *const *End) {
  std::vector<const DeclRefExpr *> Found;
  std::set<const ValueDecl *> Seen;
  for (; It != End; ++It) {
    llvm::SmallVector<const Stmt *, 32> Work{*It};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      for (const Stmt *C : S->children())
        Work.push_back(C);
      if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && Seen.insert(DR->getDecl()).second)
        Found.push_back(DR);
    }
  }
  return Found;
}

/// `if (c) continue;`.
bool isContinueGuard(const IfStmt *If) { return isa_and_nonnull<ContinueStmt>(soleThen(If)); }

/// The local vector `v` of `v.push_back(e)` or `v.emplace_back(e)` (one argument), or null.
const VarDecl *pushInto(const Stmt *S, const Expr *&Value, std::string &Method) {
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || (MD->getName() != "push_back" && MD->getName() != "emplace_back") ||
      Call->getNumArgs() != 1)
    return nullptr;
  const auto *Obj = dyn_cast<DeclRefExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *V = Obj ? dyn_cast<VarDecl>(Obj->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return nullptr;
  Value = Call->getArg(0);
  Method = MD->getName().str();
  return V;
}

/// The element type of a std::vector, or a null type.
QualType vectorElementType(QualType T) {
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!RD || !RD->isInStdNamespace() || RD->getName() != "vector" || RD->getTemplateArgs().size() == 0 ||
      RD->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return RD->getTemplateArgs()[0].getAsType();
}

/// The local vector `v` of `v[i] = e;` (an element rebound, `i` the variable `Index`), or null.
const VarDecl *slotInto(const Stmt *S, const VarDecl *Index, const Expr *&Value) {
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const auto *Assign = dyn_cast<CXXOperatorCallExpr>(S);
  if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2)
    return nullptr;
  const auto *Element = dyn_cast<CXXOperatorCallExpr>(Assign->getArg(0)->IgnoreParenImpCasts());
  if (!Element || Element->getOperator() != OO_Subscript || Element->getNumArgs() != 2 ||
      referencedVar(Element->getArg(1)->IgnoreParenImpCasts()) != Index || !Index)
    return nullptr;
  const VarDecl *V = referencedVar(Element->getArg(0)->IgnoreParenImpCasts());
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() || vectorElementType(V->getType()).isNull())
    return nullptr;
  Value = Assign->getArg(1);
  return V;
}

/// The counter a `for` declares (`for (int64_t i = 0; ...)`), or null.
const VarDecl *loopCounter(const ForStmt *For) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Index = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
  return Index && Index->getType()->isIntegerType() ? Index : nullptr;
}

/// Why `E` (evaluated in the epilogue) may not see the values it names there: it reads a local
/// of the body, or a parameter the body assigns. Null when it reads only parameters the body
/// leaves alone, globals and constants; `Allowed` variables are supplied by the core.
std::optional<std::string> readsBodyState(const Stmt *E, const Stmt *Body,
                                          const std::map<const ValueDecl *, unsigned> &Allowed) {
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && !Allowed.count(DR->getDecl())) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if ((V && V->hasLocalStorage() && !isa<ParmVarDecl>(V)) || isa<BindingDecl>(DR->getDecl()))
        return "reads '" + DR->getDecl()->getNameAsString() + "', which the function computes";
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(V); P && isReassigned(P, Body))
        return "reads the parameter '" + P->getNameAsString() + "', which the function assigns";
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return std::nullopt;
}

/// The local or by-value parameter `v` of `v = e;` (a tensor assignment), or null.
const VarDecl *assignedLocal(const Stmt *S, const Expr *&Value) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    OC = dyn_cast<CXXOperatorCallExpr>(EWC->getSubExpr());
  if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
    return nullptr;
  const VarDecl *V = referencedVar(OC->getArg(0));
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return nullptr;
  Value = OC->getArg(1);
  return V;
}

/// Whether a tuple, pair or vector type holds tensors only (what the split can return element
/// by element).
bool isTensorAggregate(QualType T, const ApiModel &Api) {
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!RD || !RD->isInStdNamespace())
    return false;
  const TemplateArgumentList &Args = RD->getTemplateArgs();
  llvm::SmallVector<TemplateArgument, 4> Types;
  for (const TemplateArgument &A : Args.asArray()) {
    if (A.getKind() == TemplateArgument::Pack)
      Types.append(A.pack_begin(), A.pack_end());
    else
      Types.push_back(A);
  }
  auto IsTensor = [&](const TemplateArgument &A) {
    return A.getKind() == TemplateArgument::Type && Api.isTensor(A.getAsType());
  };
  if (RD->getName() == "vector")
    return !Types.empty() && IsTensor(Types.front());
  if (RD->getName() == "tuple" || RD->getName() == "pair")
    return !Types.empty() && llvm::all_of(Types, IsTensor);
  return false;
}

/// The elements of a returned tuple, pair or vector built in the return statement: a braced
/// list (`return {a, b};`), a constructor given the elements, or a standard-library maker
/// (`std::make_tuple(a, b)`). Empty when the value is built some other way (a local, a call).
llvm::SmallVector<const Expr *, 4> returnedElements(const Expr *V) {
  V = V->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(V))
    V = Cast->getSubExpr()->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(V))
    return {List->inits().begin(), List->inits().end()};
  if (const auto *CE = dyn_cast<CXXConstructExpr>(V)) {
    const bool RestDefaulted = llvm::all_of(llvm::drop_begin(CE->arguments()),
                                            [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); });
    if (CE->getNumArgs() >= 1 && RestDefaulted)
      if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(CE->getArg(0)->IgnoreImplicit()))
        if (const auto *List = dyn_cast<InitListExpr>(IL->getSubExpr()->IgnoreImplicit()))
          return {List->inits().begin(), List->inits().end()};
    if (CE->isListInitialization() || isa<CXXTemporaryObjectExpr>(CE))
      return {CE->arg_begin(), CE->arg_end()};
    return {};
  }
  if (const auto *Call = dyn_cast<CallExpr>(V))
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->isInStdNamespace() && !isa<CXXMethodDecl>(FD))
      return {Call->arg_begin(), Call->arg_end()};
  return {};
}

/// A cap on the rows of a selection: `if (k.size(0) > m) k = k.slice(0, 0, m);` — several
/// variables of the selection may be capped together, and a host condition may be ANDed to the
/// size test (`if (m != -1 && k.size(0) > m)`).
struct Cap {
  const Expr *Host = nullptr;  ///< the host conjunct, or null
  const Expr *Bound = nullptr; ///< m
  const ValueDecl *Tested = nullptr;
  std::vector<const VarDecl *> Capped;
};

std::string textBetween(SourceLocation B, SourceLocation E, const ASTContext &Ctx);
std::string statementText(const Stmt *S, const ASTContext &Ctx);

class Planner {
public:
  Planner(const FunctionDecl &F, const ApiModel &Api, ASTContext &Ctx)
      : F(F), Body(F.getBody()), Api(Api), Ctx(Ctx), Lifter(Body, Api, Ctx, Taken) {}

  /// Why evaluating `E` in the core could change what the program does (findSideEffect). The
  /// nodes the padded form replaces (greedy suppression, the positions of a mask's true
  /// elements) are not evaluated as written: their operands are checked instead, and the calls
  /// around them by their own effect (pure calls and gathers, which stay in range once padded);
  /// so are gathers by variables holding such positions (isPaddedGather).
  std::optional<std::string> sideEffect(const Expr *E) const {
    const Expr *Stripped = stripAll(E);
    if (isReplaced(Stripped)) {
      // nms(boxes, scores, t): its arguments; m.nonzero().select(1, 0): the mask m.
      const Expr *Call = Api.callHasTag(Stripped, "greedy_suppression") ? Stripped : stripAll(callObject(Stripped));
      for (const Expr *Operand : callOperands(Call))
        if (auto Why = sideEffect(Operand))
          return Why;
      return std::nullopt;
    }
    if (Lifter.isPaddedGather(Stripped)) {
      for (const Expr *Operand : callOperands(Stripped))
        if (auto Why = sideEffect(Operand))
          return Why;
      return std::nullopt;
    }
    if (!containsReplaced(Stripped))
      return findSideEffect(E, Api, false, Ran);
    if (isa<CallExpr>(Stripped) && (Api.callHasTag(Stripped, "pure") || Api.callHasTag(Stripped, "gathers_rows") ||
                                    Api.callHasTag(Stripped, "bool_mask_index"))) {
      for (const Expr *Operand : callOperands(Stripped))
        if (auto Why = sideEffect(Operand))
          return Why;
      return std::nullopt;
    }
    return "calls '" + calleeName(firstReplaced(Stripped)) + "' inside an expression the padded form cannot "
           "take apart (give its result a name: auto keep = " + calleeName(firstReplaced(Stripped)) + "(...);)";
  }

  /// A node under `E` that the padded form replaces by its own computation, or null.
  const Expr *firstReplaced(const Expr *E) const {
    llvm::SmallVector<const Stmt *, 16> Work{E};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *Sub = dyn_cast_or_null<Expr>(S); Sub && isReplaced(Sub))
        return Sub;
      if (S)
        for (const Stmt *C : S->children())
          Work.push_back(C);
    }
    return nullptr;
  }
  bool containsReplaced(const Expr *E) const { return firstReplaced(E) != nullptr; }
  /// A selection the padded form computes another way than written (not a boolean-mask index,
  /// whose operands stay as they are).
  bool isReplaced(const Expr *E) const {
    return isa<CallExpr>(E) && isPaddableSelection(E, Api) && !Api.callHasTag(E, "bool_mask_index");
  }

  llvm::Expected<Plan> plan() {
    if (auto Err = checkSignature())
      return std::move(Err);
    const auto *Block = cast<CompoundStmt>(Body);
    Plan P;
    P.Function = &F;
    // The core may take any field as a parameter of its name: no local it declares may have one.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&F))
      for (const std::string &Name : fieldNames(MD->getParent()))
        Taken.push_back(Name);
    P.ReturnsAggregate = !Api.isTensor(F.getReturnType());
    bool Started = false;
    // Every statement so far is a host declaration the epilogue may run as well.
    bool OnlyHostDeclsSoFar = true;
    for (auto It = Block->body_begin(); It != Block->body_end(); ++It) {
      const Stmt *S = *It;
      const bool Last = It + 1 == Block->body_end();
      OnlyHostDeclsSoFar &= It == Block->body_begin() || (!P.HostDecls.empty() && P.HostDecls.back() == *(It - 1));
      if (const auto *If = dyn_cast<IfStmt>(S); If && guardReturn(If)) {
        if (auto Err = guard(If, Started, P))
          return std::move(Err);
        continue;
      }
      if (const auto *DS = dyn_cast<DeclStmt>(S);
          DS && (isIdleHostDecl(DS) || (OnlyHostDeclsSoFar && readsOnlyParameterSizes(DS, P)))) {
        P.HostDecls.push_back(DS);
        continue;
      }
      if (const auto *DS = dyn_cast<DeclStmt>(S); DS && isCollectedVector(DS, It + 1, Block->body_end())) {
        P.HostDecls.push_back(DS);
        P.Collected.insert(cast<VarDecl>(DS->getSingleDecl()));
        continue;
      }
      if (const auto *For = dyn_cast<ForStmt>(S); For && !P.Loop && !firstSelection(For) && pushesIntoCollected(For, P)) {
        auto AfterCore = prefill(For, llvm::ArrayRef(Block->body_begin(), It), llvm::ArrayRef(It + 1, Block->body_end()), P);
        if (!AfterCore)
          return refuse("the loop at line " + lineOf(For, Ctx) + " fills a vector before the selection with values "
                        "the epilogue cannot compute: it " + llvm::toString(AfterCore.takeError()));
        P.Prefills.push_back(For);
        if (*AfterCore)
          P.PrefillsAfterCore.insert(For);
        continue;
      }
      Started = true;
      llvm::Error Err = llvm::Error::success();
      if (const auto *For = dyn_cast<ForStmt>(S); For && !P.Loop && (pushesIntoCollected(For, P) || firstSelection(For))) {
        if (auto LoopErr = loop(For, P))
          return std::move(LoopErr);
        // What follows reads what the loop collected, which the epilogue does: it is the host tail.
        // A function that returns nothing may end with a loop whose host part does the work.
        if (Last && (!P.Loop->TailBegin || !F.getReturnType()->isVoidType()))
          return refuse("nothing after the loop at line " + lineOf(For, Ctx) + " reads what it collects");
        if (Last)
          break;
        if (auto TailErr = hostTail(It + 1, Block->body_end(), P))
          return std::move(TailErr);
        break;
      }
      if (const auto *R = dyn_cast<ReturnStmt>(S)) {
        if (!Last || !R->getRetValue())
          Err = refuseOutOfScope("the return at line " + lineOf(S, Ctx) + " is not the last statement");
        else
          Err = finalReturn(R, P);
      } else if (const auto *If = dyn_cast<IfStmt>(S); If && isCap(If)) {
        Err = cap(If, P);
      } else {
        Err = statement(S, P);
      }
      if (!Err)
        continue;
      // Before the first selection and any early return, the core runs what it does not take as
      // written: it runs there once, in the original's order, as in the original.
      if (isVerbatimPrefix(S, P)) {
        llvm::consumeError(std::move(Err));
        P.Core += statementText(S, Ctx) + "\n";
        continue;
      }
      // What the padded form does not take may start a host tail: the epilogue runs it on the
      // sliced values.
      if (Lifter.groupCount() == 0 || !startsHostTail(It, Block->body_end(), P))
        return std::move(Err);
      llvm::consumeError(std::move(Err));
      if (auto TailErr = hostTail(It, Block->body_end(), P))
        return std::move(TailErr);
      break;
    }
    if (auto Err = checkCountAliases())
      return std::move(Err);
    if (!P.TailBegin && !P.Loop)
      if (auto Err = checkReturnType())
        return std::move(Err);
    if (auto Err = referenceParameters(P))
      return std::move(Err);
    if (auto Err = placeHostDecls(P))
      return std::move(Err);
    if (P.Returned.empty() && !P.TailBegin && !P.Loop)
      return refuseOutOfScope("the function does not end with a return of a tensor");
    if (Lifter.groupCount() == 0)
      return refuseOutOfScope("no value-dependent selection reaches a return");
    if (isa<CXXMethodDecl>(F)) {
      auto Outlined = outlineMethodBody(F, Ctx, stayInMethod(P));
      if (!Outlined)
        return Outlined.takeError();
      P.Fields = Outlined->Fields;
    }
    return P;
  }

  const FunctionDecl &F;
  const Stmt *Body;
  std::vector<std::string> Taken;

private:
  const ApiModel &Api;
  ASTContext &Ctx;
  PaddedLifter Lifter;
  Evaluation Ran = Evaluation::AsBefore;
  /// The loop being planned (LoopPlan), whose body may not assign what was declared before it.
  const ForStmt *InLoop = nullptr;
  /// Host variables that hold a selection's row count (`int n = kept.size(0);`), with its group:
  /// the core does not compute them, the guards that read them read the count in the epilogue
  /// (checkCountAliases: nothing else may read them).
  std::map<const ValueDecl *, int> CountAliases;
  std::vector<const Expr *> GuardConds; ///< the conditions of the guards taken so far

  /// A statement before the first selection and before any guard (`torch::Tensor boxes;`, an
  /// `if`/`else` on a parameter's shape, a loop that prepares inputs): the core runs it verbatim.
  /// It may not leave the function (a return or goto anywhere in it but a lambda; at the top
  /// level of a body a break or continue belongs to a loop inside it), mention a selection, or
  /// read tensor data on the host, which would keep the core from being captured (that is a host
  /// tail's or the finding's own fix).
  bool isVerbatimPrefix(const Stmt *S, const Plan &P) const {
    if (Lifter.groupCount() > 0 || !P.Guards.empty() || InLoop || readsOnHost(S) ||
        findExpr(S, [&](const Expr *E) { return Lifter.isSelection(E); }))
      return false;
    llvm::SmallVector<const Stmt *, 16> Work{S};
    while (!Work.empty()) {
      const Stmt *T = Work.pop_back_val();
      if (!T || isa<LambdaExpr>(T))
        continue;
      if (isa<ReturnStmt>(T) || isa<GotoStmt>(T) || isa<CoreturnStmt>(T))
        return false;
      for (const Stmt *C : T->children())
        Work.push_back(C);
    }
    return true;
  }

  /// The statements of the body the epilogue runs and the core does not: the host tail, the
  /// loop's host part, the guards (the epilogue tests them on the sliced values), the host
  /// declarations and the loops that fill collected vectors beforehand. They stay in the method,
  /// where they may call its class's other members.
  std::set<const Stmt *> stayInMethod(const Plan &P) const {
    std::set<const Stmt *> Stay(P.HostDecls.begin(), P.HostDecls.end());
    Stay.insert(P.Prefills.begin(), P.Prefills.end());
    bool InTail = false;
    for (const Stmt *S : cast<CompoundStmt>(Body)->body()) {
      InTail |= S == P.TailBegin;
      const auto *If = dyn_cast<IfStmt>(S);
      if (InTail || (If && guardReturn(If)))
        Stay.insert(S);
    }
    if (!P.Loop)
      return Stay;
    bool InLoopTail = false;
    for (const Stmt *S : cast<CompoundStmt>(P.Loop->For->getBody())->body()) {
      InLoopTail |= S == P.Loop->TailBegin;
      const auto *If = dyn_cast<IfStmt>(S);
      if (InLoopTail || (If && isContinueGuard(If)))
        Stay.insert(S);
    }
    return Stay;
  }

  /// Every read of a row-count variable is in a guard's condition.
  llvm::Error checkCountAliases() const {
    for (const auto &[D, Group] : CountAliases)
      for (const DeclRefExpr *Use : usesOf(cast<VarDecl>(D), Body))
        if (llvm::none_of(GuardConds, [&](const Expr *Cond) {
              return !(Use->getBeginLoc() < Cond->getBeginLoc()) && !(Cond->getEndLoc() < Use->getEndLoc());
            }))
          return refuse("'" + D->getNameAsString() + "' holds the row count of a value-dependent selection, which "
                        "the padded form reads only in the test of a return or a 'continue'; line " +
                        lineOf(Use, Ctx) + " reads it otherwise");
    return llvm::Error::success();
  }

  llvm::Error checkSignature() {
    if (auto Err = checkCoreCanStandBeside(F))
      return Err;
    if (F.isTemplated())
      return refuseOutOfScope("'" + F.getNameAsString() + "' is a template");
    for (const ParmVarDecl *P : F.parameters())
      if (P->getName().empty())
        return refuse("a parameter of '" + F.getNameAsString() + "' has no name, so the epilogue cannot pass it on");
    return llvm::Error::success();
  }

  /// A tensor parameter taken by non-const reference that the body assigns is the caller's
  /// variable: a replay of the captured core runs its kernels again but assigns nothing. The core
  /// takes it by value and the epilogue repeats the assignments after calling it — each a
  /// top-level statement `p = <views of p>` (calls tagged shares_storage and pure, their other
  /// arguments host values the epilogue has), which reads no tensor data and launches nothing.
  /// Writes into its elements (`p.index_put_(...)`) are kernels on the caller's storage, which a
  /// replay runs again.
  llvm::Error referenceParameters(Plan &P) {
    for (const ParmVarDecl *Param : F.parameters()) {
      const QualType T = Param->getType();
      if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified() || !Api.isTensor(T) ||
          !isReassigned(Param, Body))
        continue;
      for (const Stmt *S : cast<CompoundStmt>(Body)->body()) {
        if (!isReassigned(Param, S))
          continue;
        if (!isViewOfItself(S, Param, P))
          return refuse("the core would assign the reference parameter '" + Param->getNameAsString() + "' (line " +
                        lineOf(S, Ctx) + "), which a replay of the captured core does not do: the epilogue repeats "
                        "only top-level assignments of views of it (" + Param->getNameAsString() + " = " +
                        Param->getNameAsString() + ".transpose(1, 2);)");
        P.RepeatedAssignments.push_back(S);
      }
      P.ByValueInCore.insert(Param);
    }
    return llvm::Error::success();
  }

  /// `p = p.transpose(-1, -2)` (also chains of views): `p` assigned a view of itself whose other
  /// arguments are host values the epilogue has before the core runs.
  bool isViewOfItself(const Stmt *S, const ParmVarDecl *Param, const Plan &P) const {
    const auto *OC = isa<Expr>(S) ? dyn_cast<CXXOperatorCallExpr>(stripAll(cast<Expr>(S))) : nullptr;
    if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2 || referencedVar(OC->getArg(0)) != Param)
      return false;
    const Expr *E = stripAll(OC->getArg(1));
    bool Viewed = false;
    while (isa<CallExpr>(E) && callObject(E) && Api.callHasTag(E, "shares_storage") && Api.callHasTag(E, "pure") &&
           !Api.callHasTag(E, "in_place") && !Api.callHasTag(E, "device_transfer")) {
      for (const Expr *Arg : callArgs(E))
        if (Api.isTensorExpr(Arg) || readsBodyState(Arg, Body, withHostDecls({}, P)) ||
            findSideEffect(Arg, Api, false, Evaluation::AsBefore))
          return false;
      E = stripAll(callObject(E));
      Viewed = true;
    }
    return Viewed && referencedVar(E) == Param;
  }

  /// Without a host tail the core computes what the function returns: tensors.
  llvm::Error checkReturnType() {
    const QualType Result = F.getReturnType();
    if (Result->getContainedAutoType() || (!Api.isTensor(Result) && !isTensorAggregate(Result, Api)))
      return refuseOutOfScope("'" + F.getNameAsString() + "' returns '" + Result.getAsString() +
                    "', not a tensor or a tuple, pair or vector of tensors (the split returns fixed-size tensors "
                    "and counts)");
    return llvm::Error::success();
  }

  /// `Allowed` and the host declarations the epilogue makes before it takes the guards.
  static std::map<const ValueDecl *, unsigned> withHostDecls(std::map<const ValueDecl *, unsigned> Allowed,
                                                             const Plan &P) {
    for (const DeclStmt *DS : P.HostDecls)
      Allowed.emplace(cast<VarDecl>(DS->getSingleDecl()), ~0u);
    return Allowed;
  }

  /// `std::vector<torch::Tensor> out;` that a later loop pushes into (pushesIntoCollected): the
  /// epilogue declares it and does the pushes, with the sliced values.
  bool isCollectedVector(const DeclStmt *DS, const Stmt *const *Next, const Stmt *const *End) const {
    const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!V || isa<DecompositionDecl>(V) || V->getType()->isReferenceType() || !V->hasLocalStorage())
      return false;
    // The epilogue declares it: an initialiser that changes nothing and reads only what the
    // epilogue has (`out(preds.size(0), torch::empty({0, 6}))`) may run there.
    const QualType Element = vectorElementType(V->getType());
    if (Element.isNull() || !Api.isTensor(Element) ||
        (!initRunsNoUserCode(V->getInit(), Api, Ctx) &&
         (findSideEffect(V->getInit(), Api, false, Evaluation::AsBefore) || readsBodyState(V->getInit(), Body, {}))))
      return false;
    for (; Next != End; ++Next)
      if (const auto *For = dyn_cast<ForStmt>(*Next);
          For && (llvm::is_contained(loopPushes(For), V) || llvm::is_contained(loopSlots(For), V)))
        return true;
    return false;
  }

  /// `for (int64_t i = 0; i < preds.size(0); ++i) out.push_back(torch::zeros({0, 6}));` before
  /// the selecting loop: a loop whose body only pushes into collected vectors, whose header and
  /// values run no user code, change nothing and read only what the epilogue has (parameters the
  /// function leaves alone, host declarations, the counter). The epilogue runs it; the result says
  /// whether after calling the core — when it reads the metadata of a reference parameter the
  /// statements before it assign, which the epilogue's parameter holds again once the core has
  /// run and the epilogue has repeated the assignments (SettledParameters.h). The error says why
  /// it is no prefill.
  llvm::Expected<bool> prefill(const ForStmt *For, llvm::ArrayRef<const Stmt *> Earlier, llvm::ArrayRef<const Stmt *> Later,
                               const Plan &P) const {
    const VarDecl *Index = loopCounter(For);
    if (!Index || !For->getCond() || !For->getInc() || !incrementsOnly(For->getInc(), Index))
      return refuse("does not count with an integer it declares");
    std::map<const ValueDecl *, unsigned> Allowed = withHostDecls({{Index, ~0u}}, P);
    const std::set<const ParmVarDecl *> Settled = settledReferenceParameters(For, Later, F, Api);
    for (const ParmVarDecl *Param : Settled)
      Allowed.emplace(Param, ~0u);
    const std::string AfterCoreNote = " (the epilogue runs it after the core, which leaves only a reference "
                                      "parameter's last value, and that only for its shape or metadata)";
    // Run before the core, the loop would not see what the statements before it write into a
    // parameter's elements (readsBodyState sees assignments only); its metadata stays.
    for (const ParmVarDecl *Param : F.parameters())
      if (!Settled.count(Param) && !usesOf(Param, For).empty() && !readsOnlyMetadata(For, Param, Api))
        if (const Stmt *Write = firstChangeOf(Param, Earlier, Api))
          return refuse("reads '" + Param->getNameAsString() + "', which the function writes in place before it (line " +
                        lineOf(Write, Ctx) + "), and the epilogue runs it before the core");
    for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()}) {
      if (auto Why = findSideEffect(Part, Api, false, Evaluation::AsBefore))
        return refuse(*Why);
      if (auto Why = readsBodyState(Part, Body, Allowed))
        return refuse(*Why + AfterCoreNote);
    }
    for (const Stmt *S : bodyStatements(For->getBody())) {
      const Expr *Value = nullptr;
      std::string Method;
      const VarDecl *Into = pushInto(S, Value, Method);
      if (!Into || !P.Collected.count(Into) || !Api.isTensorExpr(Value))
        return refuse("does other work than pushing tensors into it (line " + lineOf(S, Ctx) + ")");
      if (auto Why = findSideEffect(Value, Api, false, Evaluation::AsBefore))
        return refuse(*Why);
      if (auto Why = readsBodyState(Value, Body, Allowed))
        return refuse(*Why + AfterCoreNote);
    }
    return !Settled.empty();
  }

  /// The vectors the top-level statements of the loop's body assign by the counter (`out[i] = e;`).
  static llvm::SmallVector<const VarDecl *, 4> loopSlots(const ForStmt *For) {
    llvm::SmallVector<const VarDecl *, 4> Into;
    for (const Stmt *S : bodyStatements(For->getBody())) {
      const Expr *Value = nullptr;
      if (const VarDecl *V = slotInto(S, loopCounter(For), Value))
        Into.push_back(V);
    }
    return Into;
  }

  /// The vectors the top-level statements of the loop's body push into.
  static llvm::SmallVector<const VarDecl *, 4> loopPushes(const ForStmt *For) {
    llvm::SmallVector<const VarDecl *, 4> Into;
    for (const Stmt *S : bodyStatements(For->getBody())) {
      const Expr *Value = nullptr;
      std::string Method;
      if (const VarDecl *V = pushInto(S, Value, Method))
        Into.push_back(V);
    }
    return Into;
  }

  bool pushesIntoCollected(const ForStmt *For, const Plan &P) const {
    return llvm::any_of(loopPushes(For), [&](const VarDecl *V) { return P.Collected.count(V) > 0; }) ||
           llvm::any_of(loopSlots(For), [&](const VarDecl *V) { return P.Collected.count(V) > 0; });
  }

  /// The loop whose iterations select (LoopPlan). Its trip count must not depend on what the
  /// body computes: the header reads no selection, runs nothing that could change behaviour, and
  /// reads nothing the body assigns; every statement of the body is one the padded form takes,
  /// a guard `if (c) continue;` testing a selection, or a push into a collected vector.
  llvm::Error loop(const ForStmt *For, Plan &P) {
    const std::string Line = lineOf(For, Ctx);
    const auto *Block = dyn_cast<CompoundStmt>(For->getBody());
    if (!Block)
      return refuse("the body of the loop at line " + Line + " is not a block");
    const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
    const auto *Index = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
    if (!Index || !Index->getType()->isIntegerType() || !For->getCond() || !For->getInc())
      return refuse("the loop at line " + Line + " does not count with an integer it declares (for (int64_t i = 0; "
                    "i < n; ++i))");
    for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()}) {
      if (!Part)
        continue;
      if (Lifter.touchesPadded(Part))
        return refuse("the header of the loop at line " + Line + " reads a value-dependent selection, so its trip "
                      "count is not static");
      if (auto Why = findSideEffect(Part, Api, false, Ran))
        return refuse("the header of the loop at line " + Line + " " + *Why);
    }
    if (!incrementsOnly(For->getInc(), Index))
      return refuse("the loop at line " + Line + " steps something other than its counter '" +
                    Index->getNameAsString() + "'");
    for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()})
      if (const Expr *Read = findExpr(Part, [&](const Expr *E) {
            const auto *DR = dyn_cast<DeclRefExpr>(E);
            const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
            return V && isReassigned(V, Block);
          }))
        return refuse("the body of the loop at line " + Line + " assigns '" + sourceText(Read, Ctx) +
                      "', which its header reads: the trip count is not static");
    if (isReassigned(Index, Block))
      return refuse("the body of the loop at line " + Line + " assigns its counter '" + Index->getNameAsString() + "'");

    LoopPlan L;
    L.For = For;
    const VarDecl *First = nullptr;
    for (const VarDecl *V : loopPushes(For))
      if (P.Collected.count(V) && !First)
        First = V;
    for (const VarDecl *V : loopSlots(For))
      if (P.Collected.count(V) && !First)
        First = V;
    L.Type = First ? elementTypeText(First) : Api.spell(firstSelection(For), "Tensor");
    if (L.Type.empty())
      return refuse("the type of '" + First->getNameAsString() + "' cannot be written outside the function");
    const size_t FirstGroup = Lifter.groupCount();
    std::string Outer = std::move(P.Core);
    P.Core.clear();
    InLoop = For;
    std::string Collect;
    for (auto It = Block->body_begin(); It != Block->body_end(); ++It) {
      const Stmt *S = *It;
      llvm::Error Err = llvm::Error::success();
      const Expr *Value = nullptr;
      std::string Method;
      if (const auto *If = dyn_cast<IfStmt>(S); If && isContinueGuard(If))
        Err = loopGuard(If, L, P);
      else if (const VarDecl *Into = pushInto(S, Value, Method); Into && P.Collected.count(Into))
        Err = push(S, Into, Method, Value, L, P);
      else if (const VarDecl *Slot = slotInto(S, Index, Value); Slot && P.Collected.count(Slot))
        Err = push(S, Slot, "", Value, L, P);
      else if (If && isCap(If))
        Err = cap(If, P);
      else
        Err = statement(S, P);
      if (!Err)
        continue;
      // What the padded form does not take may start the iteration's host part, which the
      // epilogue's loop runs on the sliced values.
      const bool Tail = Lifter.groupCount() > FirstGroup && !hasDeviceFormOfItsOwn(S) &&
                        std::any_of(It, Block->body_end(), [&](const Stmt *T) { return readsOnHost(T); });
      if (Tail) {
        llvm::consumeError(std::move(Err));
        Err = loopTail(It, Block, L, Collect, P);
      }
      InLoop = nullptr;
      if (Err)
        return Err;
      break;
    }
    InLoop = nullptr;
    // A collected vector is the epilogue's: the body may only push into it (or use it in its
    // host part, which the epilogue runs).
    for (const VarDecl *V : P.Collected)
      for (const DeclRefExpr *Use : usesOf(V, Block))
        if (!inLoopTail(Use, L) && !llvm::any_of(L.Steps, [&](const LoopStep &Step) {
              return Step.Guard < 0 && Step.Into == V &&
                     Use->getBeginLoc() >= Step.PushLoc.getBegin() && Use->getEndLoc() <= Step.PushLoc.getEnd();
            }))
          return refuse("'" + sourceText(Use, Ctx) + "' (line " + lineOf(Use, Ctx) + ") is read by the loop at line " +
                        Line + " other than by a push, and the epilogue fills it after the core has run");
    if (llvm::none_of(L.Outputs, [](const Output &O) { return O.Each; }))
      return refuse("the loop at line " + Line + " collects nothing");
    if (L.ReadsCounter) {
      std::map<const ValueDecl *, unsigned> Allowed = withHostDecls({}, P);
      Allowed.emplace(Index, ~0u);
      // The epilogue's loop runs after the core: a reference parameter the header reads is the
      // value the core left, the same as the original's when nothing from the loop on changes it.
      const auto *Block = cast<CompoundStmt>(Body);
      const auto *At = llvm::find(Block->body(), For);
      for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()})
        for (const ParmVarDecl *Param :
             settledReferenceParameters(Part, llvm::ArrayRef<const Stmt *>(At, Block->body_end()), F, Api))
          Allowed.emplace(Param, ~0u);
      for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond(), (const Stmt *)For->getInc()})
        if (auto Why = readsBodyState(Part, Body, Allowed))
          return refuse("the host part of the loop at line " + Line + " reads the counter '" +
                        Index->getNameAsString() + "', and the loop's header " + *Why +
                        ", so the epilogue cannot run it");
    }
    // The counts of the groups the iterations select are collected at the end of each iteration.
    std::string Declared;
    for (size_t G = FirstGroup; G < Lifter.groupCount(); ++G) {
      const std::string &Count = Lifter.countOf(G);
      const bool Read = llvm::any_of(L.Outputs, [&](const Output &O) { return O.Count == Count; }) ||
                        llvm::any_of(L.Guards, [&](const Guard &G) {
                          return llvm::any_of(G.CountReads, [&](const auto &R) { return R.second == Count; });
                        });
      if (!Read || L.EachCounts.count(Count))
        continue;
      const std::string Each = freshName(Count + "_each", Body, Taken);
      L.EachCounts[Count] = Each;
      Declared += "std::vector<" + L.Type + "> " + Each + ";\n";
      Collect += Each + ".push_back(" + Count + ");\n";
    }
    for (const Output &O : L.Outputs)
      if (O.Each)
        Declared += "std::vector<" + L.Type + "> " + O.Text + ";\n";
    const std::string Header = textBetween(For->getBeginLoc(), Block->getBeginLoc(), Ctx);
    if (Header.empty())
      return refuse("the header of the loop at line " + Line + " is produced by a macro expansion");
    P.Core = Outer + Declared + Header + "{\n" + P.Core + Collect + "}\n";
    P.Loop = std::move(L);
    return llvm::Error::success();
  }

  /// The element type of the vector `V` as its declaration spells it (`torch::Tensor`), else as
  /// it can be written outside the function.
  std::string elementTypeText(const VarDecl *V) const {
    TypeLoc Loc = V->getTypeSourceInfo() ? V->getTypeSourceInfo()->getTypeLoc() : TypeLoc();
    if (auto Elaborated = Loc.getAs<ElaboratedTypeLoc>())
      Loc = Elaborated.getNamedTypeLoc();
    if (auto Spec = Loc.getAs<TemplateSpecializationTypeLoc>(); Spec && Spec.getNumArgs() > 0) {
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange R = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Spec.getArgLoc(0).getSourceRange()), SM, Ctx.getLangOpts());
      if (R.isValid())
        return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
    }
    return nameableType(vectorElementType(V->getType()), Ctx, &F);
  }

  /// A selection in a top-level statement of the loop's body (not in a nested loop or lambda), or null.
  const Expr *firstSelection(const ForStmt *For) const {
    for (const Stmt *S : bodyStatements(For->getBody())) {
      if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
        continue;
      if (const Expr *Sel = findExpr(S, [&](const Expr *E) { return Lifter.isSelection(E); }))
        return Sel;
    }
    return nullptr;
  }

  /// A call that writes tensor data: an in-place op (tag in_place), or an assignment to a tensor
  /// expression other than a variable (`x.select(1, 0) = v`, `keep[i] = v` copy into the view).
  bool writesTensorData(const Expr *E) const {
    if (isa<CallExpr>(E) && Api.callHasTag(E, "in_place"))
      return true;
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
    return OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && returnsTensorByValue(OC->getArg(0));
  }

  /// Whether `E` is a call that returns a tensor by value (`x.select(1, 0)`, `keep[i]`): assigning
  /// to it copies into the elements it views. Assigning to a reference (`out[i]` of a vector, a
  /// variable) rebinds the handle instead.
  bool returnsTensorByValue(const Expr *E) const {
    const auto *Call = dyn_cast<CallExpr>(stripAll(E));
    return Call && Api.isTensorExpr(E) && !Call->getCallReturnType(Ctx)->isReferenceType();
  }

  /// Whether the write `E` (writesTensorData) goes into a tensor the host part of the loop makes
  /// itself: a local it declares, given only new tensors (calls the packs describe that share
  /// no storage: `auto keep = torch::empty({n}); keep[c] = v;`), which no device part can read.
  bool writesOwnTensor(const Expr *E, const LoopPlan &L) const {
    const Expr *Target = nullptr;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() == 2)
      Target = OC->getArg(0);
    else if (isa<CallExpr>(E))
      Target = callObject(E) ? callObject(E) : Api.argAt(E, 0);
    const VarDecl *V = Target ? viewedVariable(Target, Api) : nullptr;
    if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getType()->isReferenceType() ||
        V->getBeginLoc() < L.TailBegin->getBeginLoc() || L.For->getBody()->getEndLoc() < V->getBeginLoc())
      return false;
    auto IsNew = [&](const Expr *Value) {
      Value = Value ? stripAll(Value) : nullptr;
      return Value && isa<CallExpr>(Value) && !Api.entriesFor(Value).empty() &&
             !Api.callHasTag(Value, "shares_storage") && !Api.callHasTag(Value, "in_place");
    };
    if (!IsNew(V->getInit()))
      return false;
    // Every later value: `keep = keep.toType(torch::kInt64);` in the loop's body.
    return !findExpr(L.For->getBody(), [&](const Expr *A) {
      const Expr *Lhs = nullptr, *Rhs = nullptr;
      if (const auto *BO = dyn_cast<BinaryOperator>(A); BO && BO->isAssignmentOp())
        Lhs = BO->getLHS(), Rhs = BO->getRHS();
      else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(A); OC && OC->getOperator() == OO_Equal &&
                                                                   OC->getNumArgs() == 2)
        Lhs = OC->getArg(0), Rhs = OC->getArg(1);
      return Lhs && referencedVar(stripAll(Lhs)) == V && !IsNew(Rhs);
    });
  }

  /// Whether `S` is in the host part of the loop's iterations.
  bool inLoopTail(const Stmt *S, const LoopPlan &L) const {
    return L.TailBegin && !(S->getBeginLoc() < L.TailBegin->getBeginLoc()) &&
           !(L.For->getBody()->getEndLoc() < S->getEndLoc());
  }

  /// The iteration's host part, from `It` to the end of the loop's body: the tensors it reads
  /// that the iteration computes are collected for each iteration (`Collect`, at the end of the
  /// core's body), those computed before the loop are outputs once; it may not read other host
  /// values the core computes, or parameters the function assigns.
  llvm::Error loopTail(const Stmt *const *It, const CompoundStmt *Block, LoopPlan &L, std::string &Collect,
                       const Plan &P) {
    L.TailBegin = *It;
    const std::string Line = lineOf(L.TailBegin, Ctx);
    // The core runs every iteration's device part before the epilogue runs any host part: a host
    // part that wrote tensor data could change what a later iteration's device part read in the
    // original (a tensor from before the loop, a view of a parameter), so none may, except into
    // tensors the host part makes itself (writesOwnTensor).
    for (auto T = It; T != Block->body_end(); ++T)
      if (const Expr *Write =
              findExpr(*T, [&](const Expr *E) { return writesTensorData(E) && !writesOwnTensor(E, L); }))
        return refuse("the host part of the loop from line " + Line + " writes tensor data in place ('" +
                      sourceText(Write, Ctx) + "', line " + lineOf(Write, Ctx) + "), which a later iteration may "
                      "read: the core runs every iteration's device part before the epilogue runs the host parts");
    const auto *Index = cast<VarDecl>(cast<DeclStmt>(L.For->getInit())->getSingleDecl());
    for (const DeclRefExpr *DR : firstReferences(It, Block->body_end())) {
      {
        const SourceLocation At = DR->getDecl()->getBeginLoc();
        const bool BeforeTail = At < L.TailBegin->getBeginLoc() && Body->getBeginLoc() < At;
        if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()); B && BeforeTail)
          return refuse("the host part of the loop from line " + Line + " reads '" + B->getNameAsString() +
                        "' (line " + lineOf(DR, Ctx) + "), a structured binding of the statements before it (give "
                        "it a local of its own)");
        const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        if (!V || !V->hasLocalStorage())
          continue;
        if (V == Index) {
          L.ReadsCounter = true;
          continue;
        }
        if (isa<ParmVarDecl>(V)) {
          if (isReassigned(V, Body))
            return refuse("the host part of the loop from line " + Line + " reads the parameter '" +
                          V->getNameAsString() + "', which the function assigns");
          continue;
        }
        if (!BeforeTail || P.Collected.count(V) ||
            llvm::any_of(P.HostDecls, [&](const DeclStmt *DS) { return DS->getSingleDecl() == V; }))
          continue; // declared in the host part, or by the epilogue
        if (!Api.isTensor(V->getType()) || V->getType()->isReferenceType())
          return refuse("the host part of the loop from line " + Line + " reads '" + V->getNameAsString() +
                        "' (line " + lineOf(V->getInit() ? (const Stmt *)V->getInit() : DR, Ctx) + "), a host value the statements before it compute");
        const int Group = Lifter.groupOf(V);
        const std::string Count = Group >= 0 ? Lifter.countOf(Group) : "";
        if (L.For->getBody()->getBeginLoc() < At) { // the iteration's own
          const std::string Each = freshName(V->getNameAsString() + "_each", Body, Taken);
          Collect += Each + ".push_back(" + V->getNameAsString() + ");\n";
          L.TailReads.push_back({V, unsigned(L.Outputs.size())});
          L.Outputs.push_back({Each, Count, true});
        } else {
          L.TailReads.push_back({V, unsigned(L.Outputs.size())});
          L.Outputs.push_back({V->getNameAsString(), Count, false});
        }
      }
    }
    return llvm::Error::success();
  }

  /// `++i`, `i++`, `i += c` or `--i`, `i--`, `i -= c` with a constant or a variable the loop
  /// leaves alone.
  bool incrementsOnly(const Expr *Inc, const VarDecl *Index) const {
    Inc = Inc->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
      return UO->isIncrementDecrementOp() && referencedVar(UO->getSubExpr()) == Index;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
      return (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
             referencedVar(CA->getLHS()) == Index && !findSideEffect(CA->getRHS(), Api, false, Ran);
    return false;
  }

  /// `if (c) continue;` in the loop: the epilogue takes it on the sliced values the core keeps
  /// for that point of each iteration.
  llvm::Error loopGuard(const IfStmt *If, LoopPlan &L, Plan &P) {
    const Expr *Cond = If->getCond();
    const std::string Line = lineOf(If, Ctx);
    if (auto Why = findSideEffect(Cond, Api, /*AllowHostReads=*/true, Evaluation::AsBefore))
      return refuse("the condition at line " + Line + " " + *Why);
    if (!Lifter.touchesPadded(Cond) && !readsComputedTensor(Cond) && !readsCountAlias(Cond))
      return refuse("the 'continue' at line " + Line + " depends on no tensor the function computes, and the core "
                    "runs every iteration to its end");
    Guard G;
    G.Cond = Cond;
    keepReads(Cond, Line, G, L.Outputs, /*Each=*/true, P);
    if (auto Why = readsBodyState(Cond, Body, withHostDecls(guardReads(G), P)))
      return refuse("the condition at line " + Line + " " + *Why + " (the epilogue tests it on the core's outputs)");
    GuardConds.push_back(Cond);
    LoopStep Step;
    Step.Guard = int(L.Guards.size());
    L.Steps.push_back(Step);
    L.Guards.push_back(std::move(G));
    Ran = Evaluation::Conditional;
    if (const ValueDecl *Tested = emptinessTested(Cond))
      Lifter.markNonEmpty(CountAliases.count(Tested) ? CountAliases.at(Tested) : Lifter.groupOf(Tested));
    return llvm::Error::success();
  }

  /// A tensor whose value at a guard the core keeps for the epilogue: a padded value, or a
  /// tensor the function computes (a local, a parameter it assigns), which a guard may test
  /// (`if (!m.any().item<bool>()) continue;`) as the original did, on the core's copy.
  bool isComputedTensor(const ValueDecl *D) const {
    if (Lifter.groupOf(D) >= 0)
      return true;
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() || !Api.isTensor(V->getType()))
      return false;
    return !isa<ParmVarDecl>(V) || isReassigned(V, Body);
  }
  bool readsCountAlias(const Expr *E) const {
    return findExpr(E, [&](const Expr *Sub) {
             const auto *DR = dyn_cast<DeclRefExpr>(Sub);
             return DR && CountAliases.count(DR->getDecl());
           }) != nullptr;
  }
  bool readsComputedTensor(const Expr *E) const {
    return findExpr(E, [&](const Expr *Sub) {
             const auto *DR = dyn_cast<DeclRefExpr>(Sub);
             return DR && isComputedTensor(DR->getDecl());
           }) != nullptr;
  }

  /// What a guard's condition may read in the epilogue besides parameters and host declarations.
  static std::map<const ValueDecl *, unsigned> guardReads(const Guard &G) {
    std::map<const ValueDecl *, unsigned> Allowed = G.Reads;
    for (const auto &[D, Count] : G.CountReads)
      Allowed.emplace(D, ~0u);
    return Allowed;
  }

  /// The core keeps the values of the tensors a guard's condition reads, as they are at the
  /// guard (later assignments may rebind the variables), as outputs the epilogue tests: `auto
  /// kept_at_12 = kept;`, or pushed into a vector with one element per iteration in the loop.
  void keepReads(const Expr *Cond, const std::string &Line, Guard &G, std::vector<Output> &Into, bool Each,
                 Plan &P) {
    llvm::SmallVector<const Stmt *, 16> Work{Cond};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S)) {
        auto Alias = CountAliases.find(DR->getDecl());
        if (Alias != CountAliases.end())
          G.CountReads[DR->getDecl()] = Lifter.countOf(Alias->second);
      }
      if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S); DR && isComputedTensor(DR->getDecl()) &&
                                                             !G.Reads.count(DR->getDecl())) {
        // The core may write into the tensor after the guard (write()), where the original tested
        // it before: the guard then tests a copy, unless it reads no element of it.
        const std::string Name = DR->getDecl()->getNameAsString();
        const std::string Value = writesInPlace() && !readsOnlyMetadataOf(Cond, DR->getDecl()) ? Name + ".clone()" : Name;
        const std::string Kept = freshName(Name + "_at_" + Line, Body, Taken);
        P.Core += Each ? Kept + ".push_back(" + Value + ");\n" : "auto " + Kept + " = " + Value + ";\n";
        const int Group = Lifter.groupOf(DR->getDecl());
        G.Reads[DR->getDecl()] = Into.size();
        Into.push_back({Kept, Group >= 0 ? Lifter.countOf(Group) : "", Each});
      }
      if (S)
        for (const Stmt *C : S->children())
          Work.push_back(C);
    }
  }

  /// Whether the function writes tensor data anywhere (writesTensorData).
  bool writesInPlace() const {
    return findExpr(Body, [&](const Expr *E) { return writesTensorData(E); }) != nullptr;
  }

  /// Whether every read of `D` in `Cond` is the object of a query of its shape or metadata
  /// (`kept.size(0)`, `kept.sizes()[0]`, `kept.dim()`, `kept.dtype()`), which a write into its
  /// elements leaves unchanged.
  bool readsOnlyMetadataOf(const Expr *Cond, const ValueDecl *D) const {
    std::set<const Expr *> Queried;
    unsigned Reads = 0;
    llvm::SmallVector<const Stmt *, 16> Work{Cond};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E) && callObject(E) &&
                                              (Api.callHasTag(E, "shape_query") || Api.callHasTag(E, "rank_query") ||
                                               Api.callHasTag(E, "metadata_query")))
        Queried.insert(stripAll(callObject(E)));
      if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == D)
        ++Reads;
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
    const unsigned QueriedReads = llvm::count_if(Queried, [&](const Expr *E) {
      const auto *DR = dyn_cast<DeclRefExpr>(E);
      return DR && DR->getDecl() == D;
    });
    return QueriedReads == Reads;
  }

  /// `out.push_back(e)` into a collected vector, or `out[i] = e` (Method empty) into one the
  /// statements before the loop filled: the core collects `e`, padded, for each iteration.
  llvm::Error push(const Stmt *S, const VarDecl *Into, const std::string &Method, const Expr *Value, LoopPlan &L,
                   Plan &P) {
    if (!Api.isTensorExpr(Value))
      return refuse("'" + sourceText(Value, Ctx) + "' (line " + lineOf(S, Ctx) + ") is pushed into '" +
                    Into->getNameAsString() + "' but is not a tensor");
    if (auto Why = sideEffect(Value))
      return refuse("the value pushed at line " + lineOf(S, Ctx) + " " + *Why);
    std::string Prelude;
    auto Lifted = Lifter.lift(Value, Into->getName(), Prelude);
    if (!Lifted)
      return Lifted.takeError();
    const std::string Each = freshName(Into->getNameAsString() + "_each", Body, Taken);
    P.Core += Prelude + Each + ".push_back(" + Lifted->Text + ");\n";
    LoopStep Step;
    Step.Into = Into;
    Step.Method = Method;
    Step.Value = L.Outputs.size();
    Step.PushLoc = S->getSourceRange();
    if (Method.empty()) { // out[i] = e: the epilogue rebinds the element under the original header
      const Stmt *Assign = isa<ExprWithCleanups>(S) ? cast<ExprWithCleanups>(S)->getSubExpr() : S;
      Step.Slot = sourceText(cast<CXXOperatorCallExpr>(Assign)->getArg(0), Ctx);
      L.ReadsCounter = true;
    }
    L.Steps.push_back(Step);
    L.Outputs.push_back({Each, Lifted->Group >= 0 ? Lifter.countOf(Lifted->Group) : "", true});
    return llvm::Error::success();
  }

  /// `auto nc = pred.size(1) - 5;`, `int64_t n = boxes.sizes()[0];` at the top of the body: one
  /// host number computed from the parameters' sizes (calls tagged shape_query or rank_query, or
  /// pure calls returning no tensor) and from such numbers declared before it. Nothing before it
  /// can have changed what it reads, so the epilogue computes the same value before it calls the
  /// core, which computes its own; the host parts read the epilogue's.
  bool readsOnlyParameterSizes(const DeclStmt *DS, const Plan &P) const {
    const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!V || !V->getInit() || isa<DecompositionDecl>(V) || V->getType()->isReferenceType() || !V->hasLocalStorage() ||
        V->isStaticLocal() || !V->getType()->isArithmeticType() || findSideEffect(V->getInit(), Api, false, Ran))
      return false;
    return !findExpr(V->getInit(), [&](const Expr *E) {
      if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
        const auto *Read = dyn_cast<VarDecl>(DR->getDecl());
        return Read && Read->hasLocalStorage() && !isa<ParmVarDecl>(Read) &&
               llvm::none_of(P.HostDecls, [&](const DeclStmt *D) { return D->getSingleDecl() == Read; });
      }
      if (!isa<CallExpr>(E) || Api.isTensorExpr(E))
        return false;
      auto Call = Api.resolver().resolve(E);
      return !Call || !(Call->hasTag("shape_query") || Call->hasTag("rank_query") || Call->hasTag("pure"));
    });
  }

  /// `std::vector<Det> out;`, `int n = 0;`, `float best = -1.0f;`: one host variable whose
  /// initialisation runs no code of the user's and reads nothing the function computes, so the
  /// epilogue may declare it before the core runs (placeHostDecls says where it goes).
  bool isIdleHostDecl(const DeclStmt *DS) const {
    const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!V || isa<DecompositionDecl>(V) || V->getType()->isReferenceType() || !V->hasLocalStorage() ||
        Api.isTensor(V->getType()) || isTensorAggregate(V->getType(), Api))
      return false;
    return initRunsNoUserCode(V->getInit(), Api, Ctx);
  }

  /// Where each deferred host declaration goes: the core declares those its statements read (it
  /// has its own copy, initialised alike); the epilogue those that the guards or the host tail
  /// read, or that nothing reads (as the original declared them). A variable the core writes and
  /// the epilogue reads is refused: the epilogue's copy would not see the write.
  llvm::Error placeHostDecls(Plan &P) {
    const auto *Block = cast<CompoundStmt>(Body);
    // Where each declaration goes, decided last to first: a declaration read by a later one
    // (`width` by `row_bytes = width * 4`) goes wherever that one went.
    std::map<const Stmt *, std::pair<bool, bool>> Placed; // (in the core, in the epilogue)
    for (auto It = P.HostDecls.rbegin(); It != P.HostDecls.rend(); ++It) {
      const DeclStmt *DS = *It;
      const auto *V = cast<VarDecl>(DS->getSingleDecl());
      bool CoreUses = false, CoreWrites = false, EpilogueUses = false, InTail = false;
      for (const Stmt *S : Block->body()) {
        InTail |= S == P.TailBegin;
        if (S == DS || usesOf(V, S).empty())
          continue;
        if (auto Later = Placed.find(S); Later != Placed.end()) {
          CoreUses |= Later->second.first;
          EpilogueUses |= Later->second.second;
          continue;
        }
        if (llvm::is_contained(P.Prefills, S)) {
          EpilogueUses = true;
          continue;
        }
        if (P.Loop && S == P.Loop->For) {
          // The epilogue does the loop's pushes, takes its guards and runs its host part (and its
          // header, when the host part reads the counter); the core runs the rest.
          const LoopPlan &L = *P.Loop;
          size_t InEpilogueLoop = 0, InBoth = 0;
          for (const Guard &G : L.Guards)
            InEpilogueLoop += usesOf(V, G.Cond).size();
          for (const Stmt *T : bodyStatements(L.For->getBody()))
            if (inLoopTail(T, L))
              InEpilogueLoop += usesOf(V, T).size();
          if (L.ReadsCounter)
            for (const Stmt *Part : {L.For->getInit(), (const Stmt *)L.For->getCond(), (const Stmt *)L.For->getInc()})
              InBoth += usesOf(V, Part).size();
          if (P.Collected.count(V))
            InEpilogueLoop = usesOf(V, S).size();
          EpilogueUses |= InEpilogueLoop + InBoth > 0;
          if (usesOf(V, S).size() > InEpilogueLoop) {
            CoreUses = true;
            CoreWrites |= isReassigned(V, S);
          }
          continue;
        }
        const auto *If = dyn_cast<IfStmt>(S);
        if (InTail || (If && guardReturn(If))) {
          EpilogueUses = true;
          continue;
        }
        CoreUses = true;
        CoreWrites |= isReassigned(V, S);
      }
      if (CoreWrites && EpilogueUses)
        return refuse("'" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) +
                      ") is host data that the statements before the host part write and the host part reads");
      Placed[DS] = {CoreUses, EpilogueUses || !CoreUses};
    }
    std::string InCore;
    std::vector<const DeclStmt *> InEpilogue;
    for (const DeclStmt *DS : P.HostDecls) {
      if (Placed[DS].first)
        InCore += sourceText(DS, Ctx) + "\n";
      if (Placed[DS].second)
        InEpilogue.push_back(DS);
    }
    P.Core = InCore + P.Core;
    P.HostDecls = std::move(InEpilogue);
    return llvm::Error::success();
  }

  /// Whether the statements from `It` to the end may run as a host tail: they read tensor data on
  /// the host (a copy to the CPU, a pointer or accessor, a scalar read, a print), or the function
  /// returns host data, which the epilogue computes anyway — and the first of them is not a
  /// construct with a device form.
  bool startsHostTail(const Stmt *const *It, const Stmt *const *End, const Plan &P) const {
    if (!P.Returned.empty())
      return false;
    if (hasDeviceFormOfItsOwn(*It))
      return false;
    const QualType Result = F.getReturnType();
    if (!Result->isVoidType() && !Api.isTensor(Result) && !isTensorAggregate(Result, Api))
      return true;
    for (; It != End; ++It)
      if (readsOnHost(*It))
        return true;
    return false;
  }

  /// A first obstacle with a device form of its own (a selection, greedy suppression, a call
  /// that cannot be captured) keeps its refusal: moving it to the host is not its fix.
  bool hasDeviceFormOfItsOwn(const Stmt *S) const {
    return findExpr(S, [&](const Expr *E) {
             return Api.callHasTag(E, "dynamic_output_shape") || Api.callHasTag(E, "bool_mask_index") ||
                    Api.callHasTag(E, "capture_unsafe") || Api.callHasTag(E, "greedy_suppression");
           }) != nullptr;
  }

  /// `S` reads tensor data on the host (a copy to the CPU, a pointer or accessor, a scalar read),
  /// itself or in a function of the file it calls.
  bool readsOnHost(const Stmt *S) const { return firstHostRead(S, &F, Api, Ctx).has_value(); }

  /// The host tail from `It`: the core's tensor locals it reads become outputs, and so do tensor
  /// parameters taken by value that the core assigns (the epilogue assigns its own); it may not
  /// read the core's host values or other parameters the core assigns, which the epilogue does
  /// not have.
  llvm::Error hostTail(const Stmt *const *It, const Stmt *const *End, Plan &P) {
    P.TailBegin = *It;
    const auto *Block = cast<CompoundStmt>(Body);
    for (const DeclRefExpr *DR : firstReferences(It, End)) {
      {
        if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()); B && B->getBeginLoc() < P.TailBegin->getBeginLoc())
          return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads '" + B->getNameAsString() +
                        "' (line " + lineOf(DR, Ctx) + "), a structured binding of the statements before it (give "
                        "it a local of its own)");
        const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        if (!V || !V->hasLocalStorage())
          continue;
        if (const auto *Param = dyn_cast<ParmVarDecl>(V)) {
          bool Assigned = false;
          for (const Stmt *C : Block->body()) {
            if (C == P.TailBegin)
              break;
            Assigned |= isReassigned(Param, C);
          }
          if (!Assigned)
            continue;
          // `pred = pred.index({m});` then `pred.cpu()`: a tensor parameter taken by value is the
          // core's own copy; the epilogue gives its own the sliced value.
          if (!Api.isTensor(Param->getType()) || Param->getType()->isReferenceType())
            return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads the parameter '" +
                          Param->getNameAsString() + "', which the statements before it assign");
          int Group = Lifter.groupOf(Param);
          P.TailReads.push_back({Param, Output{Param->getNameAsString(), Group >= 0 ? Lifter.countOf(Group) : ""}});
          continue;
        }
        const DeclStmt *Declared = nullptr;
        for (const Stmt *C : Block->body()) {
          if (C == P.TailBegin)
            break;
          if (const auto *DS = dyn_cast<DeclStmt>(C); DS && llvm::is_contained(DS->decls(), V))
            Declared = DS;
        }
        if (!Declared || llvm::is_contained(P.HostDecls, Declared))
          continue; // declared in the tail, or by the epilogue
        if (P.Loop && llvm::any_of(P.Loop->TailReads, [&](const auto &R) { return R.first == V; }))
          continue; // the epilogue declares it before the loop, whose host part reads it too
        if (!Api.isTensor(V->getType()) || V->getType()->isReferenceType())
          return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads '" + V->getNameAsString() +
                        "' (line " + lineOf(Declared, Ctx) + "), a host value the statements before it compute");
        int Group = Lifter.groupOf(V);
        P.TailReads.push_back({V, Output{V->getNameAsString(), Group >= 0 ? Lifter.countOf(Group) : ""}});
      }
    }
    // The core's outputs in the order the tail first reads them, for a stable rendering.
    std::stable_sort(P.TailReads.begin(), P.TailReads.end(),
                     [](const auto &A, const auto &B) { return A.first->getBeginLoc() < B.first->getBeginLoc(); });
    return llvm::Error::success();
  }

  llvm::Error guard(const IfStmt *If, bool Started, Plan &P) {
    const Expr *Cond = If->getCond();
    const Expr *Value = guardReturn(If)->getRetValue();
    if (!Value)
      return refuse("the return at line " + lineOf(If, Ctx) + " returns nothing");
    if (auto Why = findSideEffect(Cond, Api, /*AllowHostReads=*/true, Evaluation::AsBefore))
      return refuse("the condition at line " + lineOf(If, Ctx) + " " + *Why);
    if (!Lifter.touchesPadded(Cond) && !readsComputedTensor(Cond) && !readsCountAlias(Cond)) {
      if (Started)
        return refuse("the early return at line " + lineOf(If, Ctx) + " does not depend on a selection, and the core "
                      "cannot return early");
      if (auto Why = readsBodyState(If, Body, withHostDecls({}, P)))
        return refuse("the early return at line " + lineOf(If, Ctx) + " " + *Why);
      P.LeadingGuards.push_back(sourceText(If, Ctx));
      return llvm::Error::success();
    }
    Guard G;
    G.Cond = Cond;
    G.Value = Value;
    keepReads(Cond, lineOf(If, Ctx), G, P.Kept, /*Each=*/false, P);
    if (auto Why = readsBodyState(Cond, Body, withHostDecls(guardReads(G), P)))
      return refuse("the condition at line " + lineOf(If, Ctx) + " " + *Why + " (the epilogue tests it on the core's outputs)");
    if (auto Why = readsBodyState(Value, Body, withHostDecls({}, P)))
      return refuse("the early return at line " + lineOf(If, Ctx) + " " + *Why);
    GuardConds.push_back(Cond);
    P.Guards.push_back(std::move(G));
    Ran = Evaluation::Conditional;
    if (const ValueDecl *Tested = emptinessTested(Cond))
      Lifter.markNonEmpty(CountAliases.count(Tested) ? CountAliases.at(Tested) : Lifter.groupOf(Tested));
    return llvm::Error::success();
  }

  llvm::Error finalReturn(const ReturnStmt *R, Plan &P) {
    const Expr *V = R->getRetValue();
    llvm::SmallVector<const Expr *, 4> Elements{V};
    if (P.ReturnsAggregate) {
      Elements = returnedElements(V);
      if (Elements.empty())
        return refuse("the return at line " + lineOf(R, Ctx) + " builds its value in a way the split cannot take apart "
                      "(return a braced list {a, b} or std::make_tuple(a, b) of tensors)");
    }
    std::string Prelude;
    for (const Expr *E : Elements) {
      if (!Api.isTensorExpr(E))
        return refuse("'" + sourceText(E, Ctx) + "' (line " + lineOf(E, Ctx) + ") is returned but is not a tensor");
      auto Value = Lifter.lift(E, "result", Prelude);
      if (!Value)
        return Value.takeError();
      if (auto Why = sideEffect(E))
        return refuse("the return at line " + lineOf(R, Ctx) + " " + *Why);
      P.Returned.push_back({Value->Text, Value->Group >= 0 ? Lifter.countOf(Value->Group) : ""});
    }
    P.Core += Prelude;
    return llvm::Error::success();
  }

  /// The variable whose row count `E` reads (`v.size(0)`, `v.sizes()[0]`), when it is padded.
  const ValueDecl *rowCountOf(const Expr *E) const {
    E = stripAll(E);
    bool Subscripted = false;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript) {
      if (OC->getNumArgs() != 2 || !isIntegerConstant(OC->getArg(1), 0, Ctx))
        return nullptr;
      E = stripAll(OC->getArg(0));
      Subscripted = true;
    }
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call || !Api.callHasTag(E, "shape_query") || callArgs(E).size() != (Subscripted ? 0u : 1u) ||
        (!Subscripted && !isIntegerConstant(callArgs(E)[0], 0, Ctx)))
      return nullptr;
    const auto *Obj = callObject(E) ? dyn_cast<DeclRefExpr>(stripAll(callObject(E))) : nullptr;
    return Obj && Lifter.groupOf(Obj->getDecl()) >= 0 ? Obj->getDecl() : nullptr;
  }

  /// The padded variable whose size `E` reads, when a size of 0 means no row: `v.size(0)`,
  /// `v.sizes()[0]`, `v.numel()`.
  const ValueDecl *emptinessSizeOf(const Expr *E) const {
    if (const ValueDecl *Rows = rowCountOf(E))
      return Rows;
    E = stripAll(E);
    if (const auto *DR = dyn_cast<DeclRefExpr>(E); DR && CountAliases.count(DR->getDecl()))
      return DR->getDecl(); // int n = kept.size(0);
    const auto *Obj = callObject(E) ? dyn_cast<DeclRefExpr>(stripAll(callObject(E))) : nullptr;
    if (!Obj || !Api.callHasTag(E, "shape_query") || !callArgs(E).empty() || !Api.isTensorExpr(Obj) ||
        Lifter.groupOf(Obj->getDecl()) < 0)
      return nullptr;
    return Obj->getDecl(); // numel(): no other shape query returns a number
  }

  /// The padded variable that a condition tests for emptiness, so that it has a row where the
  /// condition is false: `v.size(0) == 0`, `!v.numel()`, `v.size(0) < 1`, `v.size(0) <= 0`, or
  /// such a test ORed with others. Null otherwise.
  const ValueDecl *emptinessTested(const Expr *Cond) const {
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
      return emptinessSizeOf(UO->getSubExpr());
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    if (!BO)
      return nullptr;
    if (BO->getOpcode() == BO_LOr) {
      const ValueDecl *Left = emptinessTested(BO->getLHS());
      return Left ? Left : emptinessTested(BO->getRHS());
    }
    const Expr *Size = BO->getLHS(), *Bound = BO->getRHS();
    BinaryOperatorKind Op = BO->getOpcode();
    if (!emptinessSizeOf(Size)) { // 0 == n, 1 > n, 0 >= n
      std::swap(Size, Bound);
      Op = Op == BO_GT ? BO_LT : Op == BO_GE ? BO_LE : Op == BO_LT ? BO_GT : Op == BO_LE ? BO_GE : Op;
    }
    const ValueDecl *Tested = emptinessSizeOf(Size);
    if (!Tested)
      return nullptr;
    const bool Empty = ((Op == BO_EQ || Op == BO_LE) && isIntegerConstant(Bound, 0, Ctx)) ||
                       (Op == BO_LT && isIntegerConstant(Bound, 1, Ctx));
    return Empty ? Tested : nullptr;
  }

  /// The end `m` of `v.slice(0, 0, m)` or `v.index({Slice(0, m)})` (tag range_slice: the first m
  /// rows of `v`, start 0 or None, step 1 or left out), or null.
  const Expr *rowPrefixEnd(const Expr *E, const VarDecl *V) const {
    E = stripAll(E);
    const auto *Obj = callObject(E) ? dyn_cast<DeclRefExpr>(stripAll(callObject(E))) : nullptr;
    if (!isa<CallExpr>(E) || !Obj || Obj->getDecl() != V || Api.callHasTag(E, "in_place"))
      return nullptr;
    auto EndOf = [&](const Expr *Range, const ApiEntry &Entry) -> const Expr * {
      if (Entry.SizeArgs.size() != 3)
        return nullptr;
      const Expr *Start = Api.argAt(Range, Entry.SizeArgs[0]), *End = Api.argAt(Range, Entry.SizeArgs[1]),
                 *Step = Api.argAt(Range, Entry.SizeArgs[2]);
      if (!(isAbsent(Start) || isIntegerConstant(Start, 0, Ctx)) || !(isAbsent(Step) || isIntegerConstant(Step, 1, Ctx)) ||
          isAbsent(End))
        return nullptr;
      return End;
    };
    for (const ApiEntry *Entry : Api.entriesFor(E)) {
      if (Entry->hasTag("range_slice") && Entry->DimArgs.size() == 1 &&
          isIntegerConstant(Api.argAt(E, Entry->DimArgs[0]), 0, Ctx))
        return EndOf(E, *Entry);
      if (Entry->IndexArgs.size() != 1)
        continue;
      const Expr *List = Api.argAt(E, Entry->IndexArgs[0]);
      auto Elements = List ? bracedListElements(List) : llvm::SmallVector<const Expr *, 4>{};
      if (Elements.size() != 1)
        return nullptr;
      for (const ApiEntry *Range : Api.entriesFor(stripAll(Elements[0])))
        if (Range->hasTag("range_slice"))
          return EndOf(stripAll(Elements[0]), *Range);
      return nullptr;
    }
    return nullptr;
  }

  /// Whether `E` tests a capped variable's row count against the cap's bound: `v.size(0) > m`
  /// or `>=` (when it fails the slice would keep every row, so only the count changes).
  bool sizeTestOf(const Expr *E, Cap &C) const {
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!BO)
      return false;
    const Expr *Size = BO->getLHS(), *Other = BO->getRHS();
    if (BO->getOpcode() == BO_LT || BO->getOpcode() == BO_LE)
      std::swap(Size, Other);
    else if (BO->getOpcode() != BO_GT && BO->getOpcode() != BO_GE)
      return false;
    const ValueDecl *Tested = rowCountOf(Size);
    if (!Tested || sourceText(stripAll(Other), Ctx) != sourceText(stripAll(C.Bound), Ctx))
      return false;
    C.Tested = Tested;
    return true;
  }

  std::optional<Cap> capOf(const IfStmt *If) const {
    if (If->getElse() || If->getInit() || If->getConditionVariable())
      return std::nullopt;
    Cap C;
    for (const Stmt *S : bodyStatements(If->getThen())) {
      const Expr *Value = nullptr;
      const VarDecl *V = assignedLocal(S, Value);
      if (!V || Lifter.groupOf(V) < 0)
        return std::nullopt;
      const Expr *End = rowPrefixEnd(Value, V);
      if (!End || (C.Bound && sourceText(stripAll(End), Ctx) != sourceText(stripAll(C.Bound), Ctx)))
        return std::nullopt;
      C.Bound = End;
      C.Capped.push_back(V);
    }
    if (C.Capped.empty())
      return std::nullopt;
    const Expr *Cond = If->getCond()->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_And)) {
      if (sizeTestOf(BO->getRHS(), C))
        C.Host = BO->getLHS();
      else if (sizeTestOf(BO->getLHS(), C))
        C.Host = BO->getRHS();
      else
        return std::nullopt;
      return Lifter.touchesPadded(C.Host) ? std::nullopt : std::optional<Cap>(C);
    }
    return sizeTestOf(Cond, C) ? std::optional<Cap>(C) : std::nullopt;
  }

  bool isCap(const IfStmt *If) const { return capOf(If).has_value(); }

  /// The count of the first `Bound` rows of a selection of `Before` rows, as Python's slicing
  /// (which `slice` and `Slice` follow) takes them: min(count, m) for m >= 0, count + m clamped at
  /// 0 for m < 0 (counted from the end).
  std::string prefixCount(const std::string &Before, const Expr *BoundExpr) const {
    const Expr *Bound = stripAll(BoundExpr);
    const std::string M = isa<DeclRefExpr>(Bound) || isa<IntegerLiteral>(Bound) ? sourceText(Bound, Ctx)
                                                                              : "(" + sourceText(BoundExpr, Ctx) + ")";
    // A constant bound picks its side of Python's slicing now.
    auto Constant = Bound->getIntegerConstantExpr(Ctx);
    const std::string Prefix = Before + ".clamp_max(" + M + ")", FromEnd = "(" + Before + " + " + M + ").clamp_min(0)";
    return Constant ? (Constant->isNegative() ? FromEnd : Prefix) : M + " >= 0 ? " + Prefix + " : " + FromEnd;
  }

  /// `i = i.index({Slice(None, max_det)})` or `auto top = kept.slice(0, 0, k)` of a padded
  /// variable: the first rows of the selection, which the padded form keeps whole with the count
  /// clamped (prefixCount), in a group derived from the sliced one. Null when `Init` is no such
  /// slice.
  std::optional<llvm::Error> prefixOfSelection(const Stmt *S, const VarDecl *V, const Expr *Init, Plan &P) {
    const auto *Call = dyn_cast<CallExpr>(stripAll(Init));
    const VarDecl *Sliced = Call && callObject(Call) ? referencedVar(stripAll(callObject(Call))) : nullptr;
    const int Group = Sliced ? Lifter.groupOf(Sliced) : -1;
    const Expr *End = Group >= 0 ? rowPrefixEnd(Init, Sliced) : nullptr;
    if (!End || !Api.isTensor(V->getType()) || V->getType()->isReferenceType())
      return std::nullopt;
    if (auto Why = findSideEffect(End, Api, false, Ran))
      return refuse("the bound of the slice at line " + lineOf(S, Ctx) + " " + *Why);
    if (Lifter.touchesPadded(End))
      return refuse("the bound of the slice at line " + lineOf(S, Ctx) + " reads a value-dependent selection");
    const std::string Count = freshName(V->getNameAsString() + "_count", Body, Taken);
    P.Core += "auto " + Count + " = " + prefixCount(Lifter.countOf(Group), End) + ";\n";
    if (isa<DeclStmt>(S))
      P.Core += textWithReplacements(S, {{stripAll(Init), Sliced->getNameAsString()}}, Ctx) + "\n";
    else if (V != Sliced)
      P.Core += V->getNameAsString() + " = " + Sliced->getNameAsString() + ";\n";
    Lifter.setGroup(V, Lifter.derive(Group, Count));
    Lifter.forget(V);
    return llvm::Error::success();
  }

  /// The padded form keeps the rows and clamps the count: when the test fails, m >= count and the
  /// slice would keep every row; when it holds, the slice keeps m rows (m >= 0) or count + m
  /// (m < 0, counted from the end) — Python's slicing, which `slice` and `Slice` follow.
  llvm::Error cap(const IfStmt *If, Plan &P) {
    Cap C = *capOf(If);
    for (const Expr *Part : {C.Host, C.Bound})
      if (Part)
        if (auto Why = findSideEffect(Part, Api, false, Ran))
          return refuse("the condition at line " + lineOf(If, Ctx) + " " + *Why);
    const int Group = Lifter.groupOf(C.Tested);
    for (const VarDecl *V : C.Capped)
      if (Lifter.groupOf(V) != Group)
        return refuse("the cap at line " + lineOf(If, Ctx) + " tests the rows of '" + C.Tested->getNameAsString() +
                      "' but slices '" + V->getNameAsString() + "', which comes from another selection");
    const std::string Count = freshName(C.Capped.front()->getNameAsString() + "_count", Body, Taken);
    const std::string &Before = Lifter.countOf(Group);
    const std::string Sliced = prefixCount(Before, C.Bound);
    if (C.Host)
      P.Core += "auto " + Count + " = " + Before + ";\nif (" + sourceText(C.Host, Ctx) + ")\n  " + Count + " = " +
                Sliced + ";\n";
    else
      P.Core += "auto " + Count + " = " + Sliced + ";\n";
    const int Capped = Lifter.derive(Group, Count);
    for (const VarDecl *V : C.Capped) {
      Lifter.setGroup(V, Capped);
      Lifter.forget(V);
    }
    return llvm::Error::success();
  }

  llvm::Error statement(const Stmt *S, Plan &P) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (const auto *DD = DS->isSingleDecl() ? dyn_cast<DecompositionDecl>(DS->getSingleDecl()) : nullptr;
          DD && DD->getInit())
        return bindings(DS, DD, P);
      if (!DS->isSingleDecl())
        return declarations(DS, P);
      if (!isa<VarDecl>(DS->getSingleDecl()) || isa<DecompositionDecl>(DS->getSingleDecl()))
        return refuse("the declaration at line " + lineOf(S, Ctx) + " declares something other than a variable");
      const auto *V = cast<VarDecl>(DS->getSingleDecl());
      if (!V->getInit())
        return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") has no initialiser");
      return value(S, V, V->getInit(), P);
    }
    const Expr *Value = nullptr;
    if (const VarDecl *V = assignedLocal(S, Value); V && Api.isTensor(V->getType()))
      return value(S, V, Value, P);
    if (const auto *OC = isa<Expr>(S) ? dyn_cast<CXXOperatorCallExpr>(stripAll(cast<Expr>(S))) : nullptr;
        OC && isColumnWrite(OC))
      return write(OC, P);
    std::string Kind = isa<Expr>(S) ? "'" + sourceText(S, Ctx) + "'" : std::string(S->getStmtClassName());
    if (const auto *For = dyn_cast<ForStmt>(S); For)
      Kind = "the loop";
    else if (isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
      Kind = "the loop";
    else if (const auto *If = dyn_cast<IfStmt>(S)) {
      Kind = "the if";
      // `if (c) break;` and `if (c) return v;` in a loop: name the jump, which is what is not taken.
      auto Then = bodyStatements(If->getThen());
      if (InLoop && !If->getElse() && Then.size() == 1 && (isa<BreakStmt>(Then[0]) || isa<ReturnStmt>(Then[0]))) {
        S = Then[0];
        Kind = isa<BreakStmt>(S) ? "the 'break'" : "the return";
      }
    } else if (isa<BreakStmt>(S))
      Kind = "the 'break'";
    else if (isa<ContinueStmt>(S))
      Kind = "the 'continue'";
    else if (isa<ReturnStmt>(S))
      Kind = "the return";
    if (InLoop) // the loop is a shape the split covers: say what in it is not
      return refuse("the padded form covers loops whose body is straight-line code (locals, assignments, "
                    "'continue' tested on selections, pushes into vectors of tensors); " + Kind + " at line " +
                    lineOf(S, Ctx) + " is not");
    return refuseOutOfScope("the padded form covers straight-line code (locals, assignments, returns tested on selections); " +
                  Kind + " at line " + lineOf(S, Ctx) + " is not");
  }

  /// `t = v` or `t op= v` (+, -, *, /) with `t` a tensor expression other than a variable: a
  /// write through a view (`pred.select(1, 0) = ...`).
  bool isColumnWrite(const CXXOperatorCallExpr *OC) const {
    const OverloadedOperatorKind Op = OC->getOperator();
    return OC->getNumArgs() == 2 && returnsTensorByValue(OC->getArg(0)) &&
           (Op == OO_Equal || Op == OO_PlusEqual || Op == OO_MinusEqual || Op == OO_StarEqual || Op == OO_SlashEqual);
  }

  /// The variable whose storage a chain of views reaches (`pred` in `pred.select(1, 0)`, `keep`
  /// in `keep[c]`: calls the packs tag shares_storage), or null.
  static const VarDecl *viewedVariable(const Expr *E, const ApiModel &Api) {
    E = stripAll(E);
    while (isa<CallExpr>(E) && callObject(E) && Api.callHasTag(E, "shares_storage") &&
           !Api.callHasTag(E, "device_transfer"))
      E = stripAll(callObject(E));
    return referencedVar(E);
  }

  /// `pred.select(1, 0) = pred.select(1, 0) - pred.select(1, 2) / 2;` (also +=, -=, *=, /=): a
  /// write through a view that keeps every row of a padded variable, each row from the same row
  /// of a value of its group or from one element. The padded rows take values nobody reads; the
  /// selected ones the original's. The variable must be the iteration's own in a loop (the core
  /// runs the statements after a 'continue' in every iteration), and not a capped value, which
  /// the original holds as a view of rows another variable still has.
  llvm::Error write(const CXXOperatorCallExpr *OC, Plan &P) {
    const std::string Line = lineOf(OC, Ctx);
    const Expr *Target = OC->getArg(0), *Source = OC->getArg(1);
    const VarDecl *V = viewedVariable(Target, Api);
    const int Group = V ? Lifter.groupOf(V) : -1;
    if (Group < 0)
      return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes into a tensor that is not the rows of a "
                    "value-dependent selection: the padded form writes only through views of such rows");
    if (InLoop && V->getBeginLoc() < InLoop->getBody()->getBeginLoc())
      return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes into '" + V->getNameAsString() +
                    "', declared before the loop at line " + lineOf(InLoop, Ctx) + ", which the core would write in "
                    "iterations the original skips");
    if (Lifter.isDerived(Group))
      return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes into '" + V->getNameAsString() +
                    "' after a cap on its rows: the original writes through a view of the first rows, the padded "
                    "form would write every row");
    if (auto Why = sideEffect(Source))
      return refuse("the value written at line " + Line + " " + *Why);
    if (auto Why = sideEffect(Target))
      return refuse("the view written at line " + Line + " " + *Why);
    std::string Prelude;
    auto Into = Lifter.lift(Target, "", Prelude);
    if (!Into)
      return Into.takeError();
    if (Into->Group != Group)
      return refuse("'" + sourceText(Target, Ctx) + "' (line " + Line + ") is not a view that keeps every row of '" +
                    V->getNameAsString() + "'");
    std::map<const Stmt *, std::string> Replaced{{stripAll(Target), Into->Text}};
    if (Api.isTensorExpr(Source)) {
      auto From = Lifter.lift(Source, "", Prelude);
      if (!From)
        return From.takeError();
      if (From->Group >= 0 && From->Group != Group)
        return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes the rows of one selection into "
                      "those of another, which do not line up once padded");
      if (From->Group < 0 && !isProvablySingleElement(Source, Body, Api))
        return refuse("cannot prove that '" + sourceText(Source, Ctx) + "' (line " + Line + ") lines up with the "
                      "rows of '" + sourceText(Target, Ctx) + "' (write one element, or a value computed from "
                      "them)");
      Replaced[stripAll(Source)] = From->Text;
    } else if (Lifter.touchesPadded(Source)) {
      return refuse("'" + sourceText(Source, Ctx) + "' (line " + Line + ") is a host value computed from a "
                    "value-dependent selection");
    }
    P.Core += Prelude + textWithReplacements(OC, Replaced, Ctx) + ";\n";
    Lifter.forget(V);
    return llvm::Error::success();
  }

  /// `auto [values, indices] = torch::max(kept, 1);`: each binding holds the rows of the call.
  /// `auto box = parts[0], cls = parts[1];`: each name declared on its own in the core, in order
  /// (a later initialiser may read an earlier name, and its prelude must come after it).
  llvm::Error declarations(const DeclStmt *DS, Plan &P) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || isa<DecompositionDecl>(V) || !V->getInit() || V->getType()->isReferenceType())
        return refuse("the declaration at line " + lineOf(DS, Ctx) + " declares several names, one of them without "
                      "a value of its own (declare it on its own line)");
    }
    for (const Decl *D : DS->decls()) {
      const auto *V = cast<VarDecl>(D);
      const bool Deduced = V->getTypeSourceInfo() && V->getTypeSourceInfo()->getType()->getContainedAutoType();
      const std::string Type = Deduced ? "auto" : nameableType(V->getType(), Ctx, &F);
      if (Type.empty())
        return refuse("the type of '" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) + ") cannot be written "
                      "on a declaration of its own");
      if (!Api.isTensor(V->getType()) && Lifter.touchesPadded(V->getInit()))
        return refuse("'" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) + ") is a host value computed from a "
                      "value-dependent selection");
      if (auto Why = sideEffect(V->getInit()))
        return refuse("the value of '" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) + ") " + *Why);
      std::string Prelude;
      auto Lifted = Lifter.lift(V->getInit(), V->getName(), Prelude);
      if (!Lifted)
        return Lifted.takeError();
      P.Core += Prelude + Type + " " + V->getNameAsString() + " = " + Lifted->Text + ";\n";
      Lifter.setGroup(V, Lifted->Group);
      Lifter.forget(V);
    }
    return llvm::Error::success();
  }

  llvm::Error bindings(const DeclStmt *S, const DecompositionDecl *DD, Plan &P) {
    const Expr *Init = DD->getInit();
    if (auto Why = sideEffect(Init))
      return refuse("the value of the bindings at line " + lineOf(S, Ctx) + " " + *Why);
    if (!isTensorAggregate(DD->getType(), Api)) {
      if (Lifter.touchesPadded(Init))
        return refuse("the bindings at line " + lineOf(S, Ctx) + " are host values computed from a value-dependent "
                      "selection");
      P.Core += sourceText(S, Ctx) + "\n";
      return llvm::Error::success();
    }
    std::string Prelude;
    auto Lifted = Lifter.lift(Init, "", Prelude);
    if (!Lifted)
      return Lifted.takeError();
    std::map<const Stmt *, std::string> Replaced{{stripAll(Init), Lifted->Text}};
    P.Core += Prelude + textWithReplacements(S, Replaced, Ctx) + "\n";
    for (const BindingDecl *B : DD->bindings()) {
      Lifter.setGroup(B, Lifted->Group);
      Lifter.forget(B);
    }
    return llvm::Error::success();
  }

  llvm::Error value(const Stmt *S, const VarDecl *V, const Expr *Init, Plan &P) {
    if (InLoop && !isa<DeclStmt>(S))
      if (const Stmt *LoopBody = InLoop->getBody();
          V->getBeginLoc() < LoopBody->getBeginLoc() || LoopBody->getEndLoc() < V->getBeginLoc())
        return refuse("'" + V->getNameAsString() + "' is assigned in the loop at line " + lineOf(InLoop, Ctx) +
                      " (line " + lineOf(S, Ctx) + ") and carries a value from one iteration to the next");
    // A tuple a call returns (`std::tuple<Tensor, Tensor> t = torch::max(kept, 1);`) holds the
    // rows of the call, which the lifting checks; a vector gathers tensors before the return.
    // So does a vector of parts split along another dimension (`x.split({4, nc}, 1)`, tag
    // along_dims), each part holding every row.
    const bool CallTuple = isTensorAggregate(V->getType(), Api) &&
                           (vectorElementType(V->getType()).isNull() || Api.callHasTag(stripAll(Init), "along_dims")) &&
                           isa<CallExpr>(stripAll(Init)) && !Api.entriesFor(stripAll(Init)).empty() &&
                           isa<DeclStmt>(S);
    if (isTensorAggregate(V->getType(), Api) && !CallTuple && Lifter.touchesPadded(Init))
      return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") gathers tensors of a value-dependent "
                    "selection before the return; the split takes apart only a tuple, pair or vector built in the "
                    "return (return {a, b} or std::make_tuple(a, b))");
    if (auto Why = sideEffect(Init))
      return refuse("the value of '" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") " + *Why);
    if (auto Capped = prefixOfSelection(S, V, Init, P))
      return std::move(*Capped);
    // `int n = kept.size(0);`: the count, read by the guards in the epilogue.
    if (const ValueDecl *Rows = rowCountOf(Init);
        Rows && isa<DeclStmt>(S) && V->getType()->isIntegerType() && !isReassigned(V, Body)) {
      CountAliases[V] = Lifter.groupOf(Rows);
      return llvm::Error::success();
    }
    if (!Api.isTensor(V->getType()) && !CallTuple) {
      if (Lifter.touchesPadded(Init))
        return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") is a host value computed from a "
                      "value-dependent selection");
      P.Core += sourceText(S, Ctx) + (isa<Expr>(S) ? ";\n" : "\n");
      return llvm::Error::success();
    }
    std::string Prelude;
    auto Lifted = Lifter.lift(Init, V->getName(), Prelude);
    if (!Lifted)
      return Lifted.takeError();
    std::map<const Stmt *, std::string> Replaced{{stripAll(Init), Lifted->Text}};
    P.Core += Prelude + textWithReplacements(S, Replaced, Ctx) + (isa<Expr>(S) ? ";\n" : "\n");
    Lifter.setGroup(V, Lifted->Group);
    Lifter.forget(V);
    return llvm::Error::success();
  }
};

/// The source text of a whole statement: a statement that ends in an expression statement
/// (`x = 1`, `for (...) v.push_back(e)`) ends before its ';' in the AST, which this adds.
std::string statementText(const Stmt *S, const ASTContext &Ctx) {
  std::string Text = sourceText(S, Ctx);
  if (Text.empty() || (Text.back() != ';' && Text.back() != '}'))
    Text += ";";
  return Text;
}

/// The text of the file between two locations of `F`'s definition.
std::string textBetween(SourceLocation B, SourceLocation E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  B = SM.getExpansionLoc(B);
  E = SM.getExpansionLoc(E);
  unsigned Begin = SM.getFileOffset(B), End = SM.getFileOffset(E);
  if (SM.getFileID(B) != SM.getFileID(E) || End < Begin)
    return "";
  return SM.getBufferData(SM.getFileID(B)).substr(Begin, End - Begin).str();
}

/// `torch::Tensor pred` for the parameter `torch::Tensor &pred`: its type as written without
/// the reference (as Clang names it when the spelling is not at hand).
std::string byValueDeclText(const ParmVarDecl &Param, const ASTContext &Ctx, const FunctionDecl &F) {
  std::string Type;
  if (const TypeSourceInfo *TSI = Param.getTypeSourceInfo())
    if (auto Ref = TSI->getTypeLoc().getAs<ReferenceTypeLoc>()) {
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Ref.getPointeeLoc().getSourceRange()),
                                                   SM, Ctx.getLangOpts());
      if (R.isValid())
        Type = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
    }
  if (Type.empty())
    Type = nameableType(Param.getType().getNonReferenceType(), Ctx, &F);
  return Type + " " + Param.getNameAsString();
}

/// The spelling of the function's return type as written (`torch::Tensor`).
std::string returnTypeText(const FunctionDecl &F, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(F.getReturnTypeSourceRange()), SM,
                                               Ctx.getLangOpts());
  std::string Text = R.isValid() ? Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str() : "";
  return Text.empty() ? F.getReturnType().getAsString() : Text;
}

/// The spelling of the tensor type the function returns: its return type, or the first element
/// type of a returned tuple, pair or vector as written (`torch::Tensor`), else as Clang prints it.
std::string tensorTypeText(const FunctionDecl &F, bool Aggregate, const ASTContext &Ctx) {
  if (!Aggregate)
    return returnTypeText(F, Ctx);
  TypeLoc Loc = F.getFunctionTypeLoc() ? F.getFunctionTypeLoc().getReturnLoc() : TypeLoc();
  if (auto Elaborated = Loc.getAs<ElaboratedTypeLoc>())
    Loc = Elaborated.getNamedTypeLoc();
  if (auto Spec = Loc.getAs<TemplateSpecializationTypeLoc>(); Spec && Spec.getNumArgs() > 0) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Spec.getArgLoc(0).getSourceRange()),
                                                 SM, Ctx.getLangOpts());
    if (R.isValid())
      return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  }
  const auto *RD = cast<ClassTemplateSpecializationDecl>(F.getReturnType()->getAsCXXRecordDecl());
  const TemplateArgument &First = RD->getTemplateArgs()[0];
  QualType Element = First.getKind() == TemplateArgument::Pack ? First.pack_begin()->getAsType() : First.getAsType();
  return Element.getAsString(Ctx.getPrintingPolicy());
}

/// `Text` with every `this->` (spaces allowed around the arrow) removed.
std::string withoutThisArrows(std::string Text) {
  auto IsIdentifier = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t At = Text.find("this"); At != std::string::npos; At = Text.find("this", At + 1)) {
    if (At > 0 && IsIdentifier(Text[At - 1]))
      continue;
    size_t End = At + 4;
    while (End < Text.size() && llvm::isSpace(Text[End]))
      ++End;
    if (Text.compare(End, 2, "->") != 0)
      continue;
    End += 2;
    while (End < Text.size() && llvm::isSpace(Text[End]))
      ++End;
    Text.erase(At, End - At);
  }
  return Text;
}

/// The core and the epilogue that replace the function.
llvm::Expected<std::string> render(const Plan &P, std::vector<std::string> &Taken, ASTContext &Ctx) {
  const FunctionDecl &F = *P.Function;
  const Stmt *Body = F.getBody();
  // The core's outputs: the returned values, then the values the guards test, then those the
  // host tail reads, then what the loop collects per iteration.
  std::vector<Output> Outputs = P.Returned;
  Outputs.insert(Outputs.end(), P.Kept.begin(), P.Kept.end());
  for (const auto &[V, O] : P.TailReads)
    Outputs.push_back(O);
  const size_t LoopBase = Outputs.size();
  size_t FirstEach = LoopBase;
  if (P.Loop) {
    Outputs.insert(Outputs.end(), P.Loop->Outputs.begin(), P.Loop->Outputs.end());
    while (!Outputs[FirstEach].Each)
      ++FirstEach;
  }
  std::string T;
  if (P.Loop)
    T = P.Loop->Type;
  else if (!P.TailBegin)
    T = tensorTypeText(F, P.ReturnsAggregate, Ctx);
  else if (!P.TailReads.empty())
    T = nameableType(P.TailReads.front().first->getType(), Ctx, &F);
  if (T.empty())
    return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads no tensor the core computes");
  std::string CoreName = F.getNameAsString() + "_padded";
  for (int N = 2; Ctx.Idents.find(CoreName) != Ctx.Idents.end(); ++N)
    CoreName = F.getNameAsString() + "_padded" + std::to_string(N);
  for (const ParmVarDecl *Param : F.parameters())
    Taken.push_back(Param->getNameAsString());

  // The core returns the values, then one count per group they use (a vector of them, one per
  // iteration, for a group the loop's iterations select).
  auto EachCount = [&](const std::string &Count) -> const std::string * {
    if (!P.Loop)
      return nullptr;
    auto It = P.Loop->EachCounts.find(Count);
    return It == P.Loop->EachCounts.end() ? nullptr : &It->second;
  };
  std::vector<std::string> Counts;
  for (const Output &O : Outputs)
    if (!O.Count.empty() && !llvm::is_contained(Counts, O.Count))
      Counts.push_back(O.Count);
  std::vector<const Guard *> AllGuards;
  for (const Guard &G : P.Guards)
    AllGuards.push_back(&G);
  if (P.Loop)
    for (const Guard &G : P.Loop->Guards)
      AllGuards.push_back(&G);
  for (const Guard *G : AllGuards)
    for (const auto &[D, Count] : G->CountReads)
      if (!llvm::is_contained(Counts, Count))
        Counts.push_back(Count);
  const std::string Vector = "std::vector<" + T + ">";
  std::string Types, Returned, Params, Args;
  for (const Output &O : Outputs) {
    Returned += (Returned.empty() ? "" : ", ") + O.Text;
    Types += (Types.empty() ? "" : ", ") + (O.Each ? Vector : T);
  }
  for (const std::string &C : Counts) {
    Returned += ", " + (EachCount(C) ? *EachCount(C) : C);
    Types += ", " + (EachCount(C) ? Vector : T);
  }
  for (const ParmVarDecl *Param : F.parameters()) {
    Params += (Params.empty() ? "" : ", ") +
              (P.ByValueInCore.count(Param) ? byValueDeclText(*Param, Ctx, F) : declText(*Param, Ctx));
    Args += (Args.empty() ? "" : ", ") + Param->getNameAsString();
  }
  // A method's fields reach the core by reference under their own names (outlineMethodBody
  // refuses a body that declares one of them), so the core's text names them as the body does;
  // `this->` goes, every use of `this` being a field's.
  const bool ConstFields = isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F).isConst();
  for (const FieldDecl *Field : P.Fields) {
    Params += (Params.empty() ? "" : ", ") + std::string(ConstFields && !Field->isMutable() ? "const " : "") +
              nameableType(Field->getType(), Ctx, &F) + " &" + Field->getNameAsString();
    Args += (Args.empty() ? "" : ", ") + std::string("this->") + Field->getNameAsString();
  }
  std::string Core = "static std::tuple<" + Types + "> " + CoreName + "(" + Params + ") {\n" + P.Core +
                     "return std::make_tuple(" + Returned + ");\n}\n\n";
  if (isa<CXXMethodDecl>(F))
    Core = withoutThisArrows(Core);

  // The epilogue: read each count once (per iteration for the loop's), slice each output, take
  // the early returns in order.
  const std::string Padded = freshName("padded", Body, Taken);
  std::string Epilogue = "auto " + Padded + " = " + CoreName + "(" + Args + ");\n";
  for (const Stmt *S : P.RepeatedAssignments)
    Epilogue += statementText(S, Ctx) + "\n";
  for (const ForStmt *For : P.Prefills)
    if (P.PrefillsAfterCore.count(For))
      Epilogue += statementText(For, Ctx) + "\n";
  const std::string Iteration = P.Loop ? freshName("iteration", Body, Taken) : "";
  std::map<std::string, std::string> Rows;
  std::string EachRows;
  for (size_t I = 0; I < Counts.size(); ++I) {
    Rows[Counts[I]] = freshName("rows", Body, Taken);
    const std::string Get = "std::get<" + std::to_string(Outputs.size() + I) + ">(" + Padded + ")";
    (EachCount(Counts[I]) ? EachRows : Epilogue) += "const int64_t " + Rows[Counts[I]] + " = " + Get +
                                                    (EachCount(Counts[I]) ? "[" + Iteration + "]" : "") +
                                                    ".item<int64_t>();\n";
  }
  auto Sliced = [&](unsigned I) {
    const Output &O = Outputs[I];
    std::string Get = "std::get<" + std::to_string(I) + ">(" + Padded + ")" + (O.Each ? "[" + Iteration + "]" : "");
    return O.Count.empty() ? Get : Get + ".narrow(0, 0, " + Rows[O.Count] + ")";
  };
  auto Tested = [&](const Guard &G, unsigned Base) {
    std::map<const Stmt *, std::string> Replaced;
    llvm::SmallVector<const Stmt *, 16> Work{G.Cond};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S)) {
        if (auto It = G.Reads.find(DR->getDecl()); It != G.Reads.end())
          Replaced[DR] = Sliced(Base + It->second);
        if (auto It = G.CountReads.find(DR->getDecl()); It != G.CountReads.end())
          Replaced[DR] = Rows[It->second];
      }
      if (S)
        for (const Stmt *C : S->children())
          Work.push_back(C);
    }
    return textWithReplacements(G.Cond, Replaced, Ctx);
  };
  for (const Guard &G : P.Guards)
    Epilogue += "if (" + Tested(G, P.Returned.size()) + ")\n  return " + sourceText(G.Value, Ctx) + ";\n";
  if (P.TailBegin || P.Loop) {
    for (unsigned I = 0; I < P.TailReads.size(); ++I)
      Epilogue += std::string(isa<ParmVarDecl>(P.TailReads[I].first) ? "" : "auto ") +
                  P.TailReads[I].first->getNameAsString() + " = " +
                  Sliced(P.Returned.size() + P.Kept.size() + I) + ";\n";
    if (P.Loop) {
      const LoopPlan &L = *P.Loop;
      for (const auto &[V, I] : L.TailReads)
        if (!Outputs[LoopBase + I].Each)
          Epilogue += "auto " + V->getNameAsString() + " = " + Sliced(LoopBase + I) + ";\n";
      // One iteration per element of what the core collected — under the original's header when
      // the host part reads the counter — in the original's order of guards and pushes, then the
      // host part on the iteration's sliced values.
      if (L.ReadsCounter)
        Epilogue += "size_t " + Iteration + " = 0;\n" +
                    textBetween(L.For->getBeginLoc(), L.For->getRParenLoc(), Ctx) + ", ++" + Iteration + ") {\n";
      else
        Epilogue += "for (size_t " + Iteration + " = 0; " + Iteration + " < std::get<" + std::to_string(FirstEach) +
                    ">(" + Padded + ").size(); ++" + Iteration + ") {\n";
      Epilogue += EachRows;
      for (const LoopStep &Step : L.Steps)
        Epilogue += Step.Guard >= 0      ? "if (" + Tested(L.Guards[Step.Guard], LoopBase) + ")\n  continue;\n"
                    : !Step.Slot.empty() ? Step.Slot + " = " + Sliced(LoopBase + Step.Value) + ";\n"
                                         : Step.Into->getNameAsString() + "." + Step.Method + "(" +
                                               Sliced(LoopBase + Step.Value) + ");\n";
      if (L.TailBegin) {
        for (const auto &[V, I] : L.TailReads)
          if (Outputs[LoopBase + I].Each)
            Epilogue += "auto " + V->getNameAsString() + " = " + Sliced(LoopBase + I) + ";\n";
        Epilogue += textBetween(L.TailBegin->getBeginLoc(), cast<CompoundStmt>(L.For->getBody())->getRBracLoc(), Ctx);
      }
      Epilogue += "}\n";
    }
    if (P.TailBegin)
      Epilogue += textBetween(P.TailBegin->getBeginLoc(), cast<CompoundStmt>(Body)->getRBracLoc(), Ctx);
  } else if (P.ReturnsAggregate) {
    std::string Values;
    for (unsigned I = 0; I < P.Returned.size(); ++I)
      Values += (I ? ", " : "") + Sliced(I);
    Epilogue += "return {" + Values + "};\n";
  } else {
    Epilogue += "return " + Sliced(0) + ";\n";
  }
  std::string Leading;
  for (const DeclStmt *DS : P.HostDecls)
    Leading += sourceText(DS, Ctx) + "\n";
  for (const ForStmt *For : P.Prefills)
    if (!P.PrefillsAfterCore.count(For))
      Leading += statementText(For, Ctx) + "\n";
  for (const std::string &L : P.LeadingGuards)
    Leading += L + "\n";
  std::string Signature = textBetween(F.getBeginLoc(), Body->getBeginLoc(), Ctx);
  if (Signature.empty())
    return refuse("the function's signature is produced by a macro expansion");
  std::string Doc;
  if (P.Loop) {
    std::string Host;
    if (P.Loop->TailBegin)
      Host = "from line " + lineOf(P.Loop->TailBegin, Ctx) + " in the loop";
    if (P.TailBegin)
      Host += (Host.empty() ? "from line " : ", from line ") + lineOf(P.TailBegin, Ctx) + " after it";
    Doc = "' (reads the counts and slices the padded outputs of each iteration of the loop at line " +
          lineOf(P.Loop->For, Ctx) + ", then runs the original's host code (" + Host + ") on them; not a graph "
          "region)\n";
  } else {
    Doc = P.TailBegin ? "' (reads the counts, slices the padded outputs and runs the host part, from "
                                    "line " + lineOf(P.TailBegin, Ctx) + ", on them; not a graph region)\n"
                                  : "' (reads the counts and slices the padded outputs; not a graph region)\n";
  }
  return Core + "/// graphify: host epilogue of '" + CoreName + Doc + Signature + "{\n" + Leading + Epilogue + "}";
}

} // namespace

namespace matchers {
/// The block holds a selection by a boolean mask that the padded form could keep.
AST_MATCHER_P(CompoundStmt, containsPaddableSelection, const ApiModel *, Api) {
  llvm::SmallVector<const Stmt *, 32> Work{&Node};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *E = dyn_cast<Expr>(S); E && isPaddableSelection(E, *Api))
      return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}
} // namespace matchers

NamedRewriteRule makeSelectionToPaddedRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher =
      compoundStmt(isUserCode(), hasParent(functionDecl(isDefinition())), containsPaddableSelection(A)).bind("body");
  EditGenerator Edits = [A](const MatchResult &R) -> llvm::Expected<llvm::SmallVector<Edit, 1>> {
    const auto *Body = R.Nodes.getNodeAs<CompoundStmt>("body");
    const FunctionDecl *F = functionWithBody(Body, *R.Context);
    if (!F)
      return refuseOutOfScope("the block is not a function body");
    Planner Plan(*F, *A, *R.Context);
    auto P = Plan.plan();
    if (!P)
      return P.takeError();
    auto Text = render(*P, Plan.Taken, *R.Context);
    if (!Text)
      return Text.takeError();
    auto Range = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(F->getSourceRange()), *R.Context);
    if (!Range)
      return refuse("the function is produced by a macro expansion");
    llvm::SmallVector<Edit, 1> All;
    All.push_back(Edit{EditKind::Range, *Range, *Text, {}});
    return All;
  };
  return {"selection-to-padded",
          makeRule(Matcher, Edits,
                   cat("the function is split into a capturable core that keeps each value-dependent selection "
                       "padded to the size it came from (the selected rows first, with their count) and a host "
                       "epilogue with the original signature that slices the padded outputs by the counts"))};
}

} // namespace graphify::rewriter
