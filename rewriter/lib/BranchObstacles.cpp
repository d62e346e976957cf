// Why a condition has no tensor form whatever the statement around it: the host work of the
// branch it decides, a compaction or host counting in its arms, a host object it tests. The
// rewrites refuse with these first, and the advice on a read that decides such a branch names
// the branch (docs/rewrites.md, "The obstacle that blocks").
#include "BranchObstacles.h"

#include "Compaction.h"
#include "Counting.h"
#include "ExprUtil.h"
#include "HostWork.h"
#include "RuleSupport.h"
#include "SelectionSizeAdvice.h"

#include "graphify/analyzer/Analysis.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>

using namespace clang;

namespace graphify::rewriter {

bool isHostObject(QualType T, const ApiModel &Api) {
  T = T.getNonReferenceType();
  return !T->isArithmeticType() && !Api.isTensor(T) && T->getAsCXXRecordDecl();
}

bool isHostTable(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return (RD && RD->getName() == "basic_string") || isIterableContainer(T.getNonReferenceType());
}

std::string hostObjectReason(const VarDecl *V, const Expr *Use, const ApiModel &Api, ASTContext &Ctx) {
  QualType T = V->getType().getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const bool Iterable = isIterableContainer(T);
  std::string What = RD && RD->getName() == "basic_string" ? "'" + V->getNameAsString() + "', a host string"
                     : Iterable
                         ? "the host container '" + V->getNameAsString() + "'"
                         : "'" + V->getNameAsString() + "', a host '" +
                               T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) + "' (not a number)";
  std::string From;
  if (const TaintOrigin *O = Api.facts() ? Api.facts()->taintOf(Use) : nullptr; O && O->Source)
    From = std::string(O->FromSelection ? " computed on the host from a value-dependent selection (line "
                                        : " computed from a value read from a tensor (line ") +
           std::to_string(Ctx.getSourceManager().getExpansionLineNumber(O->Source->getBeginLoc())) +
           "): test the tensor value itself on the device (an id, a count) and move the host object out of the "
           "region";
  // A table the condition reads with values that follow the data (`decode[ids[t]] == '*'`); a
  // struct whose fields a host computation filled (`box.bottom < box.top`).
  const bool Table = (RD && RD->getName() == "basic_string") || Iterable;
  if (From.empty() && Table)
    From = ", which the condition reads with values that follow tensor data: keep the table as a tensor and "
           "index it on the device (index_select), or move the test and the host code it steers out of the graph "
           "region, after the replay";
  else if (From.empty())
    From = ", whose fields follow tensor data: move the test, and the host code that computes the object, out "
           "of the graph region, after the replay (or compute the fields as tensors and select with torch::where)";
  return "the condition depends on " + What + From;
}

/// `p->` or `*p` of a class's operator (a smart pointer's, an optional's).
static bool isDereference(const CXXOperatorCallExpr *Call) {
  return Call->getOperator() == OO_Arrow || (Call->getOperator() == OO_Star && Call->getNumArgs() == 1);
}

const Expr *objectRead(const DeclRefExpr *Use, ASTContext &Ctx) {
  const Expr *Read = Use;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const DynTypedNodeList Parents = Ctx.getParents(*Read);
    const Expr *Up = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Up || !(isa<MemberExpr, CXXMemberCallExpr, ImplicitCastExpr, ParenExpr>(Up) ||
                 (isa<CXXOperatorCallExpr>(Up) && isDereference(cast<CXXOperatorCallExpr>(Up)))))
      break;
    // A conversion of the object itself (to bool, to a number) is the use: stop at the object.
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Up);
        Cast && Cast->getCastKind() != CK_NoOp && Cast->getCastKind() != CK_LValueToRValue &&
        Cast->getCastKind() != CK_UncheckedDerivedToBase && Cast->getCastKind() != CK_DerivedToBase)
      break;
    Read = Up;
  }
  return Read;
}

std::string untaintedObjectReason(const VarDecl *V, const DeclRefExpr *Use, ASTContext &Ctx) {
  const Expr *Read = objectRead(Use, Ctx);
  const std::string Text = sourceText(Read, Ctx);
  const std::string What = "the condition reads the host object '" + V->getNameAsString() + "'" +
                           (Read != Use && !Text.empty() ? " ('" + Text + "')" : std::string());
  // `vocab.idx_to_token(next) == "<eos>"`: what it gives is no number a local could hold for a
  // tensor test; the values that pass the test are.
  const QualType T = Read->getType();
  if (Read != Use && !T->isArithmeticType() && !T->isEnumeralType())
    return What + ", which has no tensor form and gives no number: find on the host, before the graph region, "
                  "the values read from the tensor that pass the test (the id of the token it looks for), and "
                  "compare the tensor with them on the device";
  return What + ", which has no tensor form: read the number it gives into a local before the loop or branch "
                "(`const auto v = " + (Text.empty() ? V->getNameAsString() : Text) + ";`) and test that";
}

/// Whether `S` ends by leaving its block: `continue`, `break`, `return`, `throw`, alone or last in
/// braces.
static bool endsWithJump(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->body_empty() ? nullptr : CS->body_back();
  return isa_and_nonnull<ContinueStmt, BreakStmt, ReturnStmt, CXXThrowExpr>(S);
}

std::optional<std::string> loopExitObstacle(const Expr *Cond, ASTContext &Ctx) {
  const IfStmt *If = Cond ? ifTesting(Cond, Ctx) : nullptr;
  const Stmt *Then = If ? If->getThen() : nullptr;
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Then))
    Then = CS->body_empty() ? nullptr : CS->body_back();
  if (!isa_and_nonnull<BreakStmt>(Then))
    return std::nullopt;
  // The statement `break` leaves: the innermost loop or switch around the if.
  for (DynTypedNodeList Parents = Ctx.getParents(*If); !Parents.empty(); Parents = Ctx.getParents(Parents[0])) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || isa<SwitchStmt>(P) || isa<LambdaExpr>(P))
      return std::nullopt;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return "the branch leaves the loop at line " +
             std::to_string(Ctx.getSourceManager().getExpansionLineNumber(P->getBeginLoc())) +
             " early, which no select expresses and a graph, a fixed sequence of steps, cannot do: run the "
             "loop to a static number of steps (its largest trip count) and mask the updates of the rows "
             "that are done with a flag kept as a tensor, or capture one step as the graph and keep the loop "
             "and its exit test on the host, reading the test once per replay";
  }
  return std::nullopt;
}

/// A branch that runs host code (writes a file, fills a host container), or that jumps past it,
/// has no where() form whatever its condition: that code must leave the region, so it is the
/// reason given.
static std::optional<std::string> hostWorkObstacle(const Expr *Cond, const ApiModel &Api, ASTContext &Ctx) {
  const IfStmt *If = ifTesting(Cond, Ctx);
  if (!If)
    return std::nullopt;
  const Stmt *Arms[] = {If->getThen(), If->getElse()};
  if (std::string Work = firstHostWork(Arms, Api, Ctx, /*TensorFills=*/true, /*CalleeDepth=*/2); !Work.empty())
    return "the branch runs host code: " + Work + ", which no graph holds: move the test and that code out of "
           "the graph region, after the replay";
  // `if (s < t) continue;` decides whether the rest of the loop body runs: its host work (a
  // drawing, a push) is what blocks, not the read.
  if (!endsWithJump(If->getThen()) && !endsWithJump(If->getElse()))
    return std::nullopt;
  auto Parents = Ctx.getParents(*If);
  const auto *Block = Parents.size() == 1 ? Parents[0].get<CompoundStmt>() : nullptr;
  if (!Block)
    return std::nullopt;
  const auto *After = llvm::find(Block->body(), If);
  if (After == Block->body_end())
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 8> Rest(std::next(After), Block->body_end());
  if (std::string Work = firstHostWork(Rest, Api, Ctx); !Work.empty()) {
    // `if (!active.any().item<bool>()) break;` ahead of host work: the early exit is what a graph
    // cannot do; the host work after it leaves the region first.
    if (auto Exit = loopExitObstacle(Cond, Ctx))
      return *Exit + "; the host code the loop runs after the test (" + Work +
             ") leaves the graph region first, since no graph holds it";
    return "the branch decides whether host code runs: " + Work + ", which no graph holds: move the test and that "
           "code out of the graph region, after the replay";
  }
  return std::nullopt;
}

/// The innermost loop around `S` in its function, or null.
static const Stmt *enclosingLoop(const Stmt *S, ASTContext &Ctx) {
  for (DynTypedNodeList Parents = Ctx.getParents(*S); !Parents.empty(); Parents = Ctx.getParents(Parents[0])) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || isa<LambdaExpr>(P))
      return nullptr;
    if (loopBody(P))
      return P;
  }
  return nullptr;
}

std::optional<std::string> conditionObstacle(const Expr *Cond, const ApiModel &Api, ASTContext &Ctx) {
  if (!Cond)
    return std::nullopt;
  // The size of a selection blocks the condition whatever else it holds (a host flag, a bitwise
  // '&' of two tests): the selection must become padded first, so that is the reason given,
  // with the host work of the branch it decides (selectionSizeAdvice) — unless the test is in a
  // loop that works on host values only (a host NMS over a grid drawn from the points read out:
  // `if (grid.at<char>(v, u) != 1) continue;`), which leaves the region whole: padding the
  // selection and dropping the `continue` would change which points the grid keeps.
  if (const Expr *Size = selectionSizeIn(Cond, Api)) {
    if (const Stmt *Loop = enclosingLoop(Cond, Ctx); Loop && worksOnHostOnly(loopBody(Loop), Api))
      return "the test is in a loop whose body works on host values only (line " +
             std::to_string(Ctx.getSourceManager().getExpansionLineNumber(Loop->getBeginLoc())) +
             "), which no graph runs: move the loop, and the reads that decide it, out of the graph region, after "
             "the replay (the region returns the tensors they read)";
    return selectionSizeAdvice(Size, Api, Ctx);
  }
  return branchObstacle(Cond, Api, Ctx);
}

/// Whether the condition names a variable of a host object type (a string, a host container).
static bool readsHostObject(const Expr *Cond, const ApiModel &Api) {
  llvm::SmallVector<const Stmt *, 16> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && isHostObject(V->getType().getNonReferenceType(), Api))
        return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

std::optional<std::string> branchObstacle(const Expr *Cond, const ApiModel &Api, ASTContext &Ctx) {
  if (!Cond)
    return std::nullopt;
  if (auto Work = hostWorkObstacle(Cond, Api, Ctx))
    return Work;
  if (const IfStmt *If = ifTesting(Cond, Ctx)) {
    const Stmt *Arms[] = {If->getThen(), If->getElse()};
    // Writes at a count of the iterations that passed: each position depends on the earlier tests.
    if (std::string Write = compactionIn(Arms, Ctx); !Write.empty())
      return compactionRefusal(Write);
  }
  if (std::string Function = hostOnlyFunction(Cond, Api, Ctx); !Function.empty()) {
    // `if (GetWinner() != Player::NONE) return true;`: the host value comes from a function that
    // reads tensors, whose result can be a tensor instead.
    if (std::string Call = hostValueCallIn(Cond, Api, Ctx); !Call.empty())
      return "the condition tests what " + Call + " returns, a host value it computes from tensor data: return "
             "it as a 0-d tensor instead (its own findings say how) and test it here with tensor ops "
             "(torch::ne, torch::logical_or), returning the test as a bool tensor; or move the call and the "
             "test out of the graph region, after the replay";
    return hostFunctionAdvice(Function);
  }
  // A host object computed from tensor values (a string looked up from an id, a struct a host
  // library computed from copied data) tested by the condition.
  llvm::SmallVector<const Stmt *, 16> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    // The object itself, or a member read from it (`size_i.width` of a cv::Size filled from a
    // rectangle a host library computed): field-sensitive taint may sit on the member only.
    if (const auto *E = dyn_cast<Expr>(S); E && (isa<DeclRefExpr>(E) || isa<MemberExpr>(E))) {
      const Expr *Root = E;
      while (const auto *ME = dyn_cast<MemberExpr>(Root->IgnoreParenImpCasts()))
        Root = ME->getBase();
      const auto *DR = dyn_cast<DeclRefExpr>(Root->IgnoreParenImpCasts());
      const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      if (V && isHostObject(V->getType(), Api) && Api.facts() && Api.facts()->taintOf(E))
        return hostObjectReason(V, E, Api, Ctx);
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  // Arms that only count or flag on host numbers: no select of them exists. A condition that
  // reads a host object (a table looked up at a read position) is refused for that first.
  if (const IfStmt *If = ifTesting(Cond, Ctx); If && !readsHostObject(Cond, Api)) {
    const Stmt *Arms[] = {If->getThen(), If->getElse()};
    if (std::string Count = countingIn(Arms, Cond, Api, Ctx); !Count.empty())
      return "the branch counts on the host: " + Count + " advances or sets a host number when the test holds, "
             "which no select can express: compute the test for every element at once as a mask on the device "
             "and keep the count as mask.sum() (a flag: mask.any(); a sum: torch::where(mask, x, 0).sum()), a "
             "0-d tensor";
  }
  return std::nullopt;
}

} // namespace graphify::rewriter
