// if-assign-to-where:
//   if (c) { y = a; } else { y = b; }    ->  y = torch::where(c', a, b);
//   if (c) y = a;                        ->  y = torch::where(c', a, y);
//   several variables                    ->  auto cond = c'; y = torch::where(cond, a, b); z = ...;
//   else-if chains                       ->  nested where(), innermost default last
// Every branch must consist only of assignments `v = expr;` to tensor variables. Emitting the
// assignments one after the other must not change what any right-hand side reads: a variable
// written by the rewrite before another right-hand side reads it must have been written before
// that read in the original branch too (or not at all in that branch).
#include "lib/ConditionLifting.h"
#include "lib/DomainGuard.h"
#include "lib/IfChain.h"
#include "lib/Predication.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

#include <map>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

struct Assignment {
  const VarDecl *Var;
  const Expr *Lhs;
  const Expr *Rhs;
};

/// `v = e;` on a tensor variable, or null.
std::optional<Assignment> asAssignment(const Stmt *S, const ApiModel &Api) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return std::nullopt;
  E = stripAll(E);
  const Expr *L = nullptr, *Rhs = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign) {
    L = BO->getLHS();
    Rhs = BO->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Equal &&
                                                                  OC->getNumArgs() == 2) {
    L = OC->getArg(0);
    Rhs = OC->getArg(1);
  }
  const VarDecl *V = referencedVar(L);
  if (!V || !Api.isTensor(V->getType()))
    return std::nullopt;
  return Assignment{V, L, Rhs};
}

struct AssignSelect {
  IfChain Chain;
  size_t NumArms = 0; // branches + final else (when present)
  std::vector<std::vector<Assignment>> Arms;
  std::vector<const VarDecl *> Order;
  std::vector<LiftedCondition> Conds;
  const Stmt *Body = nullptr;
  bool InBlock = true;
};

std::string armLabel(const AssignSelect &S, size_t I) {
  return "the " + (I < S.Chain.Branches.size() ? S.Chain.armName(I) : std::string("else")) + " branch";
}

bool reads(const Expr *E, const VarDecl *V) { return !usesOf(V, E).empty(); }

llvm::Expected<AssignSelect> analyse(const MatchResult &R, const ApiModel &Api) {
  ASTContext &Ctx = *R.Context;
  const auto *If = R.Nodes.getNodeAs<IfStmt>("if");
  AssignSelect S;
  S.Body = functionBody(enclosingFunction(If, Ctx));
  if (!S.Body)
    return refuse("the if is not inside a function body");
  S.Chain = decomposeIfChain(If);
  S.InBlock = false;
  for (const DynTypedNode &P : Ctx.getParents(*If))
    S.InBlock |= P.get<CompoundStmt>() != nullptr;
  std::vector<const Stmt *> Bodies;
  for (const IfChain::Branch &B : S.Chain.Branches) {
    if (B.If->hasInitStorage() || B.If->hasVarStorage() || B.If->isConstexpr() || B.If->isConsteval())
      return refuse("the if declares a variable or is constexpr");
    Bodies.push_back(B.Body);
  }
  if (S.Chain.Else)
    Bodies.push_back(S.Chain.Else);
  S.NumArms = Bodies.size();
  // Each branch: a list of assignments to distinct tensor variables, free of side effects.
  for (size_t I = 0; I < Bodies.size(); ++I) {
    std::vector<Assignment> Arm;
    for (const Stmt *St : bodyStatements(Bodies[I])) {
      auto A = asAssignment(St, Api);
      if (!A) {
        if (const VarDecl *V = [&]() -> const VarDecl * {
              if (const auto *E = dyn_cast<Expr>(St)) {
                E = stripAll(E);
                if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign)
                  return referencedVar(BO->getLHS());
              }
              return nullptr;
            }())
          return refuse(armLabel(S, I) + " assigns to '" + V->getNameAsString() + "', which is not a tensor");
        if (auto Why = findSideEffect(St, Api))
          return refuse(armLabel(S, I) + " " + *Why);
        return refuse(armLabel(S, I) + " does more than assign tensors");
      }
      for (const Assignment &Prev : Arm)
        if (Prev.Var == A->Var)
          return refuse(armLabel(S, I) + " assigns '" + A->Var->getNameAsString() + "' twice");
      if (auto Why = findSideEffect(A->Rhs, Api))
        return refuse(armLabel(S, I) + " " + *Why);
      Arm.push_back(*A);
      if (!llvm::is_contained(S.Order, A->Var))
        S.Order.push_back(A->Var);
    }
    S.Arms.push_back(std::move(Arm));
  }
  if (S.Order.empty())
    return refuse("the branches assign nothing");
  auto Find = [&](size_t Arm, const VarDecl *V) -> const Assignment * {
    for (const Assignment &A : S.Arms[Arm])
      if (A.Var == V)
        return &A;
    return nullptr;
  };
  auto Position = [&](size_t Arm, const VarDecl *V) -> int {
    for (size_t K = 0; K < S.Arms[Arm].size(); ++K)
      if (S.Arms[Arm][K].Var == V)
        return static_cast<int>(K);
    return -1;
  };
  // Branches that do not assign a variable keep its value, which must then exist.
  for (const VarDecl *V : S.Order) {
    bool Everywhere = S.NumArms == S.Chain.Branches.size() + 1;
    for (size_t I = 0; I < S.NumArms; ++I)
      Everywhere &= Find(I, V) != nullptr;
    if (!Everywhere && !isDefinedBefore(V, If, S.Body, Ctx))
      return refuse("'" + V->getNameAsString() + "' may be undefined when a branch does not assign it");
  }
  // Emission order must not change what a right-hand side reads (see the file comment).
  for (size_t K = 0; K < S.Order.size(); ++K) {
    for (size_t I = 0; I < S.NumArms; ++I) {
      const Assignment *A = Find(I, S.Order[K]);
      if (!A)
        continue;
      int MyPos = Position(I, S.Order[K]);
      for (size_t U = 0; U < S.Order.size(); ++U) {
        const VarDecl *Other = S.Order[U];
        if (!reads(A->Rhs, Other))
          continue;
        int OtherPos = Position(I, Other);
        bool OriginalSeesNew = OtherPos >= 0 && OtherPos < MyPos;
        bool RewriteSeesNew = U < K && OtherPos >= 0;
        // When the rewrite sees the new value of a variable the branch does not assign, that
        // value is the old one (where() keeps it), so only assigned variables matter.
        if (OriginalSeesNew != RewriteSeesNew)
          return refuse("'" + Other->getNameAsString() + "' is read by " + armLabel(S, I) +
                        " before another branch writes it, so the assignments cannot be reordered");
      }
    }
  }
  // Shapes and dtypes: every value a variable can take must be compatible with the others.
  for (const VarDecl *V : S.Order) {
    const Expr *First = nullptr;
    const Expr *Self = nullptr;
    for (size_t I = 0; I < S.NumArms; ++I)
      if (const Assignment *A = Find(I, V)) {
        Self = Self ? Self : A->Lhs;
        if (!First)
          First = A->Rhs;
        else if (auto Why = armsIncompatible(First, A->Rhs, Api, Ctx))
          return refuse(*Why);
      }
    bool Everywhere = S.NumArms == S.Chain.Branches.size() + 1;
    for (size_t I = 0; I < S.NumArms; ++I)
      Everywhere &= Find(I, V) != nullptr;
    if (!Everywhere)
      if (auto Why = armsIncompatible(First, Self, Api, Ctx))
        return refuse(*Why);
    if (auto Why = storageSharingLost(V, If, S.Body, Api, Ctx))
      return refuse(*Why);
  }
  LiftScope Scope{S.Body, If};
  for (size_t I = 0; I < S.Chain.Branches.size(); ++I) {
    const Expr *C = S.Chain.Branches[I].Cond;
    if (I > 0)
      if (auto Why = findSideEffect(C, Api, /*AllowHostReads=*/true))
        return refuse("the " + S.Chain.armName(I) + " condition " + *Why);
    for (const VarDecl *V : S.Order)
      if (reads(C, V) && I > 0)
        return refuse("the " + S.Chain.armName(I) + " condition reads '" + V->getNameAsString() +
                      "', which an earlier branch assigns");
    auto L = liftCondition(C, Scope, Api, Ctx);
    if (!L)
      return L.takeError();
    S.Conds.push_back(std::move(*L));
  }
  return S;
}

/// The rewrite of one if statement: the select form of `analyse`, or where it refuses, the general
/// if-conversion (predicateAssignIf), whose refusal is the precise one (it handles branch
/// locals, nested ifs, assignments that read each other).
llvm::Expected<PredicatedCode> planOf(const MatchResult &R, const ApiModel &Api) {
  auto S = analyse(R, Api);
  if (!S) {
    llvm::consumeError(S.takeError());
    auto P = predicateAssignIf(R.Nodes.getNodeAs<IfStmt>("if"), Api, *R.Context);
    if (!P)
      return P.takeError();
    return std::move(*P);
  }
  ASTContext &Ctx = *R.Context;
  std::string Out;
  std::vector<std::string> CondNames;
  // The condition is computed once when several variables select on it, or when guards of
  // domain-restricted inputs would repeat it.
  bool Hoist = S->Order.size() > 1;
  for (const auto &Arm : S->Arms)
    for (const Assignment &As : Arm)
      Hoist = Hoist || armNeedsGuards(As.Rhs, Api, Ctx);
  std::vector<std::string> Taken;
  for (size_t I = 0; I < S->Conds.size(); ++I) {
    if (!Hoist) {
      CondNames.push_back(S->Conds[I].Text);
      continue;
    }
    std::string Name = freshName("cond", S->Body, Taken);
    Out += "auto " + Name + " = " + S->Conds[I].Text + ";\n";
    CondNames.push_back(Name);
  }
  for (const VarDecl *V : S->Order) {
    std::string Name = V->getNameAsString();
    const Expr *Hint = nullptr;
    // Each branch's value is guarded by its own condition; the final else's by the innermost
    // one (it is taken where every condition is false).
    auto ValueIn = [&](size_t Arm) -> std::string {
      if (Arm < S->Arms.size())
        for (const Assignment &As : S->Arms[Arm])
          if (As.Var == V) {
            Hint = Hint ? Hint : As.Rhs;
            const bool IsBranch = Arm < CondNames.size();
            return guardedArmText(As.Rhs, IsBranch ? CondNames[Arm] : CondNames.back(), IsBranch, Api, Ctx);
          }
      return Name;
    };
    size_t NumBranches = S->Chain.Branches.size();
    std::string Acc = S->NumArms > NumBranches ? ValueIn(NumBranches) : Name;
    for (size_t I = NumBranches; I-- > 0;) {
      std::string Then = ValueIn(I);
      Acc = Api.spell(Hint, "where") + "(" + CondNames[I] + ", " + Then + ", " + Acc + ")";
    }
    Out += Name + " = " + Acc + ";\n";
  }
  Out.pop_back();
  if (!S->InBlock)
    Out = "{\n" + Out + "\n}";
  PredicatedCode Plan{std::move(Out), {}};
  for (const LiftedCondition &C : S->Conds)
    Plan.LiftedLocals.insert(Plan.LiftedLocals.end(), C.Locals.begin(), C.Locals.end());
  return Plan;
}

} // namespace

NamedRewriteRule makeIfAssignToWhereRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = ifStmt(isUserCode(), unless(isInsideIfChain()), unless(isLoopExit()),
                        unless(hasThen(anyOf(returnStmt(), hasDescendant(returnStmt())))))
                     .bind("if");
  auto Edits = planOnce<PredicatedCode>([A](const MatchResult &R) { return planOf(R, *A); },
                                    [A](const MatchResult &R, const PredicatedCode &P) {
                                      return selectEdits(R, statement("if"), P.Text, P.LiftedLocals, *A);
                                    });
  return {"if-assign-to-where",
          makeRule(Matcher, Edits,
                   cat("each assigned variable becomes a where() select on a 0-d tensor condition, so "
                       "the graph computes both branches and keeps the choice on the device"))};
}

} // namespace graphify::rewriter
