// early-exit-loop-to-masked:
//   for (int64_t t = 0; t < max_len && !done.all().item<bool>(); ++t) {
//     auto logits = step(tok, h);
//     h = next(h);
//     tok = logits.argmax(-1);
//     done = done | (tok == eos);
//   }
// becomes the fixed-trip loop whose state updates are masked, the static decoding form:
//   auto active = torch::ones({}, h.options().dtype(torch::kBool));
//   for (int64_t t = 0; t < max_len; ++t) {
//     active = torch::logical_and(active, torch::logical_not(done.all()));
//     auto logits = step(tok, h);
//     h = torch::where(active, next(h), h);
//     ...
//   }
// and `if (c) break;` inside a loop with a static trip count updates the mask instead of leaving
// (`active = torch::logical_and(active, torch::logical_not(c'));`).
//
// Why it is exact: once the original loop would have stopped, `active` stays false, so every
// variable of the code outside the loop keeps the value it had when the original left; the
// iterations after that compute values nobody keeps. So every statement of the body must be
// free of side effects apart from those masked updates (assignments to tensors defined before
// the loop, writes into them through basic indexing), the loop counter must be local to the loop
// (its final value would change), and the static part of the condition must exist (it is the
// trip count). Each refusal names the construct and line that cannot be masked.
#include "lib/ConditionLifting.h"
#include "lib/DomainGuard.h"
#include "lib/GrowingBuffers.h"
#include "lib/HostRead.h"
#include "lib/HostWork.h"
#include "lib/IfChain.h"
#include "lib/LoopAccumulators.h"
#include "lib/Outlining.h"
#include "lib/Predication.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"
#include "lib/UserBounds.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Tooling/Transformer/SourceCode.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

/// The loop being rewritten and what the rewrite has learnt of it.
struct MaskedLoop {
  const ForStmt *Loop = nullptr;
  const Stmt *FunctionBody = nullptr;
  std::string Active;                        ///< the mask's name
  std::vector<const VarDecl *> Targets;      ///< tensors of the outside code the body updates
  std::vector<const VarDecl *> Reassigned;   ///< those of them given new values (v = where(...))
  std::vector<const VarDecl *> LiftedLocals; ///< host locals the conditions turn into tensors
  std::vector<Growth> Growths;               ///< tensors it concatenates onto themselves
  std::vector<Accumulation> Accumulations;   ///< host numbers it sums into
  bool HasDataDependentExit = false;
};

/// The masked loop's text and the lifted locals declared outside it (their declarations are
/// edited too).
struct MaskedLoopCode {
  std::string Text;
  std::vector<const VarDecl *> OutsideLocals;
  std::vector<Growth> Growths;
  std::vector<Accumulation> Accumulations;
  std::string TensorType; ///< how the core names the tensor type (its sums' type)
  std::string BoundNote;  ///< the user's static bound the trip count comes from, for the explanation
};

/// The conjuncts of `a && b && c`.
void conjuncts(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_LAnd) {
    conjuncts(BO->getLHS(), Out);
    conjuncts(BO->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

std::string statementText(const Stmt *S, const ASTContext &Ctx) {
  std::string Text = sourceText(S, Ctx);
  return isa<Expr>(S) ? Text + ";" : Text;
}

/// The tensor variable a basic-indexing view chain starts from (`out` in `out[t]`,
/// `out.select(0, t)`, `out.index({t, Slice()})`), when every position is static; else null.
const VarDecl *viewTarget(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  if (const VarDecl *V = referencedVar(E))
    return Api.isTensor(V->getType()) ? V : nullptr;
  const std::string Name = calleeName(E);
  if ((Name != "operator[]" && Name != "select" && Name != "index" && Name != "slice" && Name != "narrow") ||
      Api.entriesFor(E).empty())
    return nullptr;
  for (const Expr *Arg : callArgs(E)) {
    if (readsTensorOnHost(Arg, Api))
      return nullptr;
    for (const Expr *El : bracedListElements(Arg))
      if (Api.isTensorExpr(El))
        return nullptr; // advanced indexing copies
    if (Api.isTensorExpr(Arg))
      return nullptr;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() == 2 && Api.isTensorExpr(OC->getArg(1)))
    return nullptr;
  const Expr *Base = callObject(E);
  return Base ? viewTarget(Base, Api) : nullptr;
}

/// Whether `V` is declared inside `Scope`.
bool declaredIn(const VarDecl *V, const Stmt *Scope) {
  return Scope->getSourceRange().fullyContains(V->getSourceRange());
}

class LoopMasker {
public:
  LoopMasker(MaskedLoop &L, const ApiModel &Api, ASTContext &Ctx) : L(L), Api(Api), Ctx(Ctx) {}

  /// The masked text of the body's statements, or why one of them cannot be masked.
  llvm::Expected<std::string> statements(llvm::ArrayRef<const Stmt *> Stmts) {
    std::string Out;
    for (const Stmt *S : Stmts) {
      auto Text = statement(S);
      if (!Text)
        return Text.takeError();
      Out += *Text + "\n";
    }
    return Out;
  }

private:
  MaskedLoop &L;
  const ApiModel &Api;
  ASTContext &Ctx;

  llvm::Error cannot(const Stmt *S, const std::string &What) {
    // Safety reasons already name their line ("calls 'f', which ... (line 12)").
    const bool Located = llvm::StringRef(What).contains("(line ");
    return refuse("the loop body " + What + (Located ? "" : " (line " + lineOf(S, Ctx) + ")") +
                  ", which cannot be masked");
  }

  /// `where(active, value, old)`, the value's domain-restricted inputs guarded by the mask.
  std::string where(const Expr *Value, const std::string &Old, const Expr *Hint) {
    return Api.spell(Hint, "where") + "(" + L.Active + ", " + guardedArmText(Value, L.Active, true, Api, Ctx) +
           ", " + Old + ")";
  }

  llvm::Expected<std::string> lift(const Expr *Cond) {
    auto Lifted = liftCondition(Cond, LiftScope{L.FunctionBody, L.Loop, /*ConvertIntegerReads=*/true}, Api, Ctx);
    if (!Lifted)
      return Lifted.takeError();
    return Lifted->Text;
  }

  void noteTarget(const VarDecl *V) {
    if (!llvm::is_contained(L.Targets, V))
      L.Targets.push_back(V);
  }

  llvm::Expected<std::string> statement(const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S))
      if (const Accumulation *A = accumulationAt(E->IgnoreImplicit(), L.Accumulations))
        return accumulate(S, *A);
    if (const Expr *Cond = breakCondition(S)) {
      if (!readsTensorOnHost(Cond, Api))
        return statementText(S, Ctx); // a static exit stays a host decision
      auto Lifted = lift(Cond);
      if (!Lifted)
        return Lifted.takeError();
      L.HasDataDependentExit = true;
      return L.Active + " = " + Api.spell(Cond, "logical_and") + "(" + L.Active + ", " +
             Api.spell(Cond, "logical_not") + "(" + *Lifted + "));";
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      // A host local read from a tensor that an exit condition lifts is a tensor from here on.
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()); DS->isSingleDecl() && V &&
                                                                  llvm::is_contained(L.LiftedLocals, V))
        return liftedLocalDeclaration(V, Api, Ctx) + ";";
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          if (auto Why = findSideEffect(V->getInit(), Api))
            return cannot(S, *Why);
      return statementText(S, Ctx);
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->hasInitStorage() || If->hasVarStorage() || readsTensorOnHost(If->getCond(), Api))
        return cannot(S, "branches on a tensor value");
      if (auto Why = findSideEffect(If->getCond(), Api))
        return cannot(S, *Why);
      auto Then = statements(bodyStatements(If->getThen()));
      if (!Then)
        return Then.takeError();
      std::string Text = "if (" + sourceText(If->getCond(), Ctx) + ") {\n" + *Then + "}";
      if (If->getElse()) {
        auto Else = statements(bodyStatements(If->getElse()));
        if (!Else)
          return Else.takeError();
        Text += " else {\n" + *Else + "}";
      }
      return Text;
    }
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
      return cannot(S, "contains a loop");
    if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<ReturnStmt>(S) || isa<GotoStmt>(S))
      return cannot(S, "leaves the iteration early");
    if (isa<CompoundStmt>(S)) {
      auto Inner = statements(bodyStatements(S));
      if (!Inner)
        return Inner.takeError();
      return "{\n" + *Inner + "}";
    }
    if (auto A = asAssignment(S))
      return assignment(S, A->first, A->second);
    if (const auto *E = dyn_cast<Expr>(S))
      if (const auto *Put = dyn_cast<CXXMemberCallExpr>(stripAll(E));
          Put && calleeName(Put) == "index_put_" && Api.callHasTag(Put, "in_place"))
        return indexPut(S, Put);
    if (auto Why = findSideEffect(S, Api))
      return cannot(S, *Why);
    return statementText(S, Ctx);
  }

  /// `v = e;` keeps `v`'s value in masked iterations; `out[t] = e;` keeps the element's.
  llvm::Expected<std::string> assignment(const Stmt *S, const Expr *Lhs, const Expr *Rhs) {
    if (auto Why = findSideEffect(Rhs, Api))
      return cannot(S, *Why);
    if (const VarDecl *V = referencedVar(Lhs)) {
      if (declaredIn(V, L.Loop->getBody()))
        return statementText(S, Ctx);
      if (const Growth *G = growthOf(V, L.Growths))
        return growth(S, *G);
      if (!Api.isTensor(V->getType()))
        return cannot(S, "updates the host variable '" + V->getNameAsString() + "'");
      if (!isDefinedBefore(V, L.Loop, L.FunctionBody, Ctx))
        return refuse("'" + V->getNameAsString() + "' has no value before the loop (line " + lineOf(S, Ctx) +
                      "), so a masked iteration has no value to keep");
      noteTarget(V);
      if (auto Why = loopUpdateIncompatible(Rhs, V, L.Loop, Api, Ctx))
        return cannot(S, "updates '" + V->getNameAsString() + "' with a value of another shape: " + *Why);
      if (!llvm::is_contained(L.Reassigned, V))
        L.Reassigned.push_back(V);
      return sourceText(Lhs, Ctx) + " = " + where(Rhs, sourceText(Lhs, Ctx), Lhs) + ";";
    }
    const VarDecl *Target = viewTarget(Lhs, Api);
    if (!Target)
      return cannot(S, "assigns to '" + sourceText(Lhs, Ctx) + "'");
    if (declaredIn(Target, L.Loop->getBody()))
      return statementText(S, Ctx);
    if (growthOf(Target, L.Growths))
      return cannot(S, "writes into '" + Target->getNameAsString() + "', which it grows");
    noteTarget(Target);
    return sourceText(Lhs, Ctx) + " = " + where(Rhs, sourceText(Lhs, Ctx), Lhs) + ";";
  }

  /// `ys = torch::cat({ys, tok}, 1);` stays: its size at each step is the step's own. Its length
  /// follows it while the iteration is not masked.
  llvm::Expected<std::string> growth(const Stmt *S, const Growth &G) {
    if (!llvm::is_contained(G.Assignments, S))
      return cannot(S, "updates '" + G.V->getNameAsString() + "', which it grows, other than by concatenating onto it");
    if (auto Why = findSideEffect(asAssignment(S)->second, Api))
      return cannot(S, *Why);
    noteTarget(G.V);
    const std::string Name = G.V->getNameAsString();
    if (G.Length.empty())
      return statementText(S, Ctx);
    return statementText(S, Ctx) + "\n" + G.Length + " = " + Api.spell(asAssignment(S)->first, "where") + "(" +
           L.Active + ", " + Name + ".size(" + std::to_string(G.Dim) + "), " + G.Length + ");";
  }

  /// `total += s.item<float>();` adds on the device, in the variable's type, while the iteration
  /// is not masked: the same additions in the same order as the host's.
  llvm::Expected<std::string> accumulate(const Stmt *S, const Accumulation &A) {
    const Expr *Added = nullptr;
    for (const auto &U : A.Updates)
      if (U.first == cast<Expr>(S)->IgnoreImplicit())
        Added = U.second;
    const std::string Var = "'" + A.V->getNameAsString() + "'";
    const QualType T = A.V->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType();
    const std::string DType = Api.spellConstant(Added, A.DType);
    std::string Value;
    if (const CXXMemberCallExpr *Read = Api.elementRead(Added)) {
      const QualType U = stripAll(Added)->getType().getCanonicalType().getUnqualifiedType();
      if (U != T)
        return cannot(S, "adds a value read as '" + U.getAsString() + "' to the host variable " + Var + " of type '" +
                             T.getAsString() + "' (the host converts before it adds)");
      Value = liftedReceiverText(Read->getImplicitObjectArgument(), L.FunctionBody, Api, Ctx) + ".to(" + DType + ")";
    } else if (!readsTensorOnHost(Added, Api)) {
      if (auto Why = findSideEffect(Added, Api))
        return cannot(S, *Why);
      const Expr *Bare = stripAll(Added);
      const QualType U = Bare->getType().getCanonicalType().getUnqualifiedType();
      if (U != T && !(T->isIntegerType() && isa<IntegerLiteral>(Bare)))
        return cannot(S, "adds '" + sourceText(Added, Ctx) + "' of type '" + U.getAsString() +
                             "' to the host variable " + Var + " of type '" + T.getAsString() +
                             "' (the host converts before it adds)");
      Value = "(" + sourceText(Added, Ctx) + ")";
    } else {
      return cannot(S, "adds '" + sourceText(Added, Ctx) + "' to the host variable " + Var +
                           ", which is neither one value read from a tensor nor a host value");
    }
    return A.Tensor + " = " + Api.spell(Added, "where") + "(" + L.Active + ", " + A.Tensor + " + " + Value + ", " +
           A.Tensor + ");";
  }

  /// `out.index_put_({t}, e);` writes the old element back in masked iterations.
  llvm::Expected<std::string> indexPut(const Stmt *S, const CXXMemberCallExpr *Put) {
    auto Args = callArgs(Put);
    const Expr *Obj = Put->getImplicitObjectArgument();
    const VarDecl *Target = viewTarget(Obj, Api);
    if (!Target || Args.size() != 2)
      return cannot(S, "calls '" + sourceText(Put, Ctx) + "'");
    auto Indices = bracedListElements(Args[0]);
    for (const Expr *I : Indices)
      if (Api.isTensorExpr(I) || readsTensorOnHost(I, Api))
        return cannot(S, "writes through the index '" + sourceText(I, Ctx) + "'");
    if (auto Why = findSideEffect(Args[1], Api))
      return cannot(S, *Why);
    if (declaredIn(Target, L.Loop->getBody()))
      return statementText(S, Ctx);
    if (growthOf(Target, L.Growths))
      return cannot(S, "writes into '" + Target->getNameAsString() + "', which it grows");
    noteTarget(Target);
    const std::string Object = sourceText(Obj, Ctx), List = sourceText(Args[0], Ctx);
    return Object + ".index_put_(" + List + ", " +
           where(Args[1], Object + ".index(" + List + ")", Obj) + ");";
  }
};

/// A host container of the code around the loop that the loop runs over (`n < v.size()`) or
/// appends tensors to (`v.push_back(t)`, a void member call): a list whose length follows the data, which
/// no mask makes static. Its form is a preallocated tensor with a validity mask.
std::optional<std::string> hostContainerLoop(const ForStmt *Loop, const ApiModel &Api, ASTContext &Ctx) {
  auto OuterContainer = [&](const Expr *E) -> const VarDecl * {
    const VarDecl *V = E ? referencedVar(E) : nullptr;
    return V && isHostContainerType(V->getType()) && !declaredIn(V, Loop) ? V : nullptr;
  };
  llvm::SmallVector<const Stmt *, 16> Work{Loop->getCond()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(S))
      if (const VarDecl *V = OuterContainer(MC->getImplicitObjectArgument()))
        return "the loop runs over the host container '" + V->getNameAsString() +
               "', whose length follows the data: keep its entries in a fixed-size tensor (one row per candidate "
               "they come from, and a validity mask) and loop over that static size with the mask";
    if (S)
      for (const Stmt *C : S->children())
        Work.push_back(C);
  }
  Work = {Loop->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    // A list of tensors (a list of host values is host work, refused for what it holds).
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
        MC && MC->getType()->isVoidType() && MC->getNumArgs() == 1 && Api.isTensorExpr(MC->getArg(0)))
      if (const VarDecl *V = OuterContainer(MC->getImplicitObjectArgument()))
        return "the loop appends to the host container '" + V->getNameAsString() + "' (line " + lineOf(MC, Ctx) +
               "), a list whose length follows the data: write its entries into a preallocated tensor (one row per "
               "iteration of the static bound) with a validity mask instead";
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return std::nullopt;
}

std::string hostOnlyLoopReason(const ForStmt *Loop, const ApiModel &Api, ASTContext &Ctx) {
  const Stmt *Body = Loop->getBody();
  std::string Work = firstHostWork(llvm::ArrayRef(Body), Api, Ctx);
  return "the loop's body works on host values only" + (Work.empty() ? std::string() : " (" + Work + ")") +
         ", which no graph holds: move the loop out of the graph region, after the replay, reading the tensors "
         "the graph wrote (a selection padded to a static size and its count)";
}

llvm::Expected<MaskedLoopCode> maskLoop(const MatchResult &R, const ApiModel &Api) {
  ASTContext &Ctx = *R.Context;
  MaskedLoop L;
  L.Loop = R.Nodes.getNodeAs<ForStmt>("loop");
  L.FunctionBody = functionBody(enclosingFunction(L.Loop, Ctx));
  if (!L.FunctionBody)
    return refuse("the loop is not inside a function body");
  // A body with no tensor in it (drawing, host strings, host buffers) has nothing to mask: the
  // loop belongs after the replay, whatever its bound.
  if (worksOnHostOnly(L.Loop->getBody(), Api))
    return refuse(hostOnlyLoopReason(L.Loop, Api, Ctx));
  if (auto Why = hostContainerLoop(L.Loop, Api, Ctx))
    return refuse(*Why);
  if (!L.Loop->getCond())
    return refuse("the loop has no condition, so it has no static trip count");
  // The header: a static bound (the trip count) and the data-dependent conditions.
  llvm::SmallVector<const Expr *, 2> Parts, Static, Dynamic;
  conjuncts(L.Loop->getCond(), Parts);
  for (const Expr *P : Parts)
    (readsTensorOnHost(P, Api) ? Dynamic : Static).push_back(P);
  // A header bounded only by a value read from the data gets its trip count from the user's
  // static bound on that value; the comparison stays, as the mask's condition.
  std::string BoundedCond, BoundNote;
  if (Static.empty())
    if (auto Trip = userBoundedTrip(L.Loop, Dynamic, Api, Ctx)) {
      BoundedCond = Trip->StaticText;
      BoundNote = " (the trip count is " + std::to_string(Trip->Bound) + ", the static bound given for '" +
                  Trip->Var->getNameAsString() + "': exact while '" + Trip->Var->getNameAsString() +
                  "' stays within it)";
    }
  if (Static.empty() && BoundedCond.empty()) {
    // Host work in the body (a host list filled per iteration) stays host work under any bound:
    // the loop belongs after the replay, which a static bound would not change.
    if (std::string Work = firstHostWork(llvm::ArrayRef(L.Loop->getBody()), Api, Ctx); !Work.empty())
      return refuse("the loop's body does host work (" + Work + "), which no graph holds, and its trip count "
                    "comes from the data: move the loop out of the graph region, after the replay, reading the "
                    "tensors the graph wrote (a selection padded to a static size and its count)");
    // A loop over the rows of a selection has a static bound: the rows they were selected from.
    for (const Expr *D : Dynamic)
      if (const DataFacts *Facts = Api.facts())
        if (const TaintOrigin *O = Facts->taintOf(D); O && O->SizeOfSelection)
          return refuse("the loop runs over the rows of a value-dependent selection: loop over the static number "
                        "of rows they were selected from and mask the rows that were not selected (the padded "
                        "form)");
    std::string Advice = staticBoundAdvice(L.Loop, Dynamic, dyn_cast_or_null<FunctionDecl>(enclosingFunction(L.Loop, Ctx)),
                                           Api, Ctx);
    return refuse("the loop has no static bound beside its data-dependent condition" +
                  (Advice.empty() ? std::string() : " (" + Advice + ")"));
  }
  auto Growths = loopGrowths(L.Loop, Api, Ctx);
  if (!Growths)
    return Growths.takeError();
  L.Growths = std::move(*Growths);
  if (L.Loop->getInit() && !isa<DeclStmt>(L.Loop->getInit()))
    return refuse("the loop counter is declared outside the loop, so its final value would change");
  std::vector<std::string> Taken;
  L.Active = freshName("active", L.FunctionBody, Taken);
  for (Growth &G : L.Growths) {
    if (!isDefinedBefore(G.V, L.Loop, L.FunctionBody, Ctx))
      return refuse("'" + G.V->getNameAsString() + "' has no value before the loop that grows it (line " +
                    lineOf(G.Assignments.front(), Ctx) + ")");
    if (readAfterLoop(G.V, L.Loop, L.FunctionBody, Ctx))
      G.Length = freshName(G.V->getNameAsString() + "_length", L.FunctionBody, Taken);
  }
  L.Accumulations = loopAccumulations(L.Loop, Api, Ctx);
  for (Accumulation &A : L.Accumulations)
    A.Tensor = freshName(A.V->getNameAsString() + "_on_device", L.FunctionBody, Taken);
  // Lift every data-dependent condition first: the host locals they read become tensors, also
  // where the body declares them (before the exit that reads them).
  llvm::SmallVector<const Expr *, 4> Conditions(Dynamic.begin(), Dynamic.end());
  for (const Expr *C : loopExitConditions(L.Loop))
    if (readsTensorOnHost(C, Api))
      Conditions.push_back(C);
  for (const Expr *C : Conditions) {
    auto Lifted = liftCondition(C, LiftScope{L.FunctionBody, L.Loop, /*ConvertIntegerReads=*/true}, Api, Ctx);
    if (!Lifted)
      return Lifted.takeError();
    for (const VarDecl *V : Lifted->Locals)
      if (!llvm::is_contained(L.LiftedLocals, V))
        L.LiftedLocals.push_back(V);
  }
  // After lifting: a condition on a host object (a string looked up from a token id) is refused
  // for that object, not for the comparison operator it calls.
  if (auto Why = findSideEffect(L.Loop->getCond(), Api, /*AllowHostReads=*/true))
    return refuse("the loop condition " + *Why);
  LoopMasker M(L, Api, Ctx);
  std::string Head;
  for (const Expr *D : Dynamic) {
    auto Lifted = liftCondition(D, LiftScope{L.FunctionBody, L.Loop, /*ConvertIntegerReads=*/true}, Api, Ctx);
    if (!Lifted)
      return Lifted.takeError();
    Head += L.Active + " = " + Api.spell(D, "logical_and") + "(" + L.Active + ", " + Lifted->Text + ");\n";
  }
  auto Body = M.statements(bodyStatements(L.Loop->getBody()));
  if (!Body)
    return Body.takeError();
  if (Dynamic.empty() && !L.HasDataDependentExit)
    return refuse("the loop does not depend on tensor values");
  if (L.Targets.empty())
    return refuse("the loop updates no tensor of the code around it, so there is nothing to mask");
  for (const VarDecl *V : L.Reassigned)
    if (auto Why = storageSharingLost(V, L.Loop, L.FunctionBody, Api, Ctx))
      return refuse(*Why);
  // The mask starts true, on the device (and with the options) of the first updated tensor.
  const std::string First = L.Targets.front()->getNameAsString();
  std::string Init = "auto " + L.Active + " = " + Api.spell(L.Loop->getCond(), "ones") + "({}, " + First +
                     ".options().dtype(" + Api.spellConstant(L.Loop->getCond(), "kBool") + "));\n";
  // A sum starts at the host variable's value, on the device of the mask.
  for (const Accumulation &A : L.Accumulations)
    Init += "auto " + A.Tensor + " = " + Api.spell(L.Loop->getCond(), "full") + "({}, " + A.V->getNameAsString() +
            ", " + First + ".options().dtype(" + Api.spellConstant(L.Loop->getCond(), A.DType) + "));\n";
  // A grown tensor's length starts at its size before the loop, on its device.
  for (const Growth &G : L.Growths) {
    if (G.Length.empty())
      continue;
    const std::string Name = G.V->getNameAsString();
    Init += "auto " + G.Length + " = " + Api.spell(L.Loop->getCond(), "full") + "({}, " + Name + ".size(" +
            std::to_string(G.Dim) + "), " + Name + ".options().dtype(" +
            Api.spellConstant(L.Loop->getCond(), "kLong") + "));\n";
  }
  std::string StaticCond = BoundedCond;
  for (const Expr *S : Static)
    StaticCond += (StaticCond.empty() ? "" : " && ") + sourceText(S, Ctx);
  std::string Header = "for (" + (L.Loop->getInit() ? sourceText(L.Loop->getInit(), Ctx) : std::string(";")) + " " +
                       StaticCond + "; " + (L.Loop->getInc() ? sourceText(L.Loop->getInc(), Ctx) : "") + ") {\n";
  bool InBlock = false;
  for (const DynTypedNode &P : Ctx.getParents(*L.Loop))
    InBlock |= P.get<CompoundStmt>() != nullptr;
  std::string Text = Init + Header + Head + *Body + "}";
  MaskedLoopCode Code;
  Code.Text = InBlock ? Text : "{\n" + Text + "\n}";
  for (const VarDecl *V : L.LiftedLocals)
    if (!declaredIn(V, L.Loop))
      Code.OutsideLocals.push_back(V);
  Code.Growths = L.Growths;
  Code.Accumulations = L.Accumulations;
  Code.BoundNote = BoundNote;
  Code.TensorType = nameableType(L.Targets.front()->getType().getNonReferenceType().getUnqualifiedType(), Ctx,
                                 dyn_cast_or_null<FunctionDecl>(enclosingFunction(L.Loop, Ctx)));
  return Code;
}

} // namespace

namespace matchers {
/// The loop's condition, or the condition of an `if (c) break;` that leaves it, reads a tensor
/// value on the host.
AST_MATCHER_P(ForStmt, exitsOnTensorValue, const ApiModel *, Api) {
  if (Node.getCond() && readsTensorOnHost(Node.getCond(), *Api))
    return true;
  for (const Expr *C : loopExitConditions(&Node))
    if (readsTensorOnHost(C, *Api))
      return true;
  return false;
}
} // namespace matchers

NamedRewriteRule makeEarlyExitLoopToMaskedRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = forStmt(isUserCode(), exitsOnTensorValue(A)).bind("loop");
  const std::string Masked = "the loop runs to its static bound and masks the updates of the iterations after the "
                             "original would have stopped, so its trip count no longer depends on tensor values";
  auto Explanation = std::make_shared<std::string>();
  EditGenerator Edits = [A, Explanation, Masked](const MatchResult &R) -> llvm::Expected<llvm::SmallVector<Edit, 1>> {
    *Explanation = Masked;
    auto Code = maskLoop(R, *A);
    if (!Code)
      return Code.takeError();
    const auto *Loop = R.Nodes.getNodeAs<ForStmt>("loop");
    if (!Code->Growths.empty() || !Code->Accumulations.empty()) {
      // A grown tensor or a sum the code after the loop reads leaves the loop on the device: split there.
      // The host locals the loop's conditions lift, declared before it: the core declares them as
      // tensors (each alone in its statement, at the top of the body, where the core's text is cut).
      std::map<const Stmt *, std::string> LocalDecls;
      for (const VarDecl *V : Code->OutsideLocals) {
        const DeclStmt *DS = nullptr;
        for (const DynTypedNode &P : R.Context->getParents(*V))
          DS = P.get<DeclStmt>();
        if (!DS || !DS->isSingleDecl())
          return refuse("the loop's exit reads '" + V->getNameAsString() + "', declared before it with other "
                        "variables in one statement, which the split after the loop would have to lift too");
        LocalDecls[DS] = liftedLocalDeclaration(V, *A, *R.Context) + ";";
      }
      auto Split = splitAfterMaskedLoop(Loop, Code->Text, Code->Growths, Code->Accumulations, Code->TensorType,
                                        LocalDecls, *A, *R.Context, *Explanation);
      if (!Split)
        return Split.takeError();
      if (*Split) {
        const auto *F = cast<FunctionDecl>(enclosingFunction(Loop, *R.Context));
        auto Range = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(F->getSourceRange()), *R.Context);
        if (!Range)
          return refuse("the function is produced by a macro expansion");
        *Explanation += Code->BoundNote;
        llvm::SmallVector<Edit, 1> All;
        All.push_back(Edit{EditKind::Range, *Range, **Split, {}});
        if (auto Include = includeEdit("tuple", *R.Context))
          All.push_back(std::move(*Include));
        return All;
      }
    }
    // A body without braces ends before its semicolon, which the masked loop's block replaces too.
    CharSourceRange Whole = CharSourceRange::getTokenRange(Loop->getSourceRange());
    if (!isa<CompoundStmt>(Loop->getBody()))
      Whole = tooling::maybeExtendRange(Whole, tok::semi, *R.Context);
    auto Range = tooling::getFileRangeForEdit(Whole, *R.Context);
    if (!Range)
      return refuse("the loop is produced by a macro expansion");
    auto Locals = liftedLocalEdits(Code->OutsideLocals, *A, *R.Context);
    if (!Locals)
      return Locals.takeError();
    *Explanation += Code->BoundNote;
    llvm::SmallVector<Edit, 1> All;
    All.push_back(Edit{EditKind::Range, *Range, Code->Text, {}});
    All.append(Locals->begin(), Locals->end());
    return All;
  };
  return {"early-exit-loop-to-masked",
          makeRule(Matcher, Edits, computed([Explanation](const MatchResult &) -> llvm::Expected<std::string> {
                     return *Explanation;
                   }))};
}

} // namespace graphify::rewriter
