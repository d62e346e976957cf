// SelectionSizeAdvice. The advice is chosen by what the tested statement does, read from the
// AST: an exit (continue, break, return) at the end of the branch, host work before it (host
// containers filled, host functions called), or a branch that assigns a variable from itself
// and the bound it was compared with (a cap on the rows). No API names: the shapes are
// statements and dataflow, so any op that truncates is recognised.
#include "SelectionSizeAdvice.h"

#include "ExprUtil.h"
#include "HostWork.h"
#include "IfChain.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

bool isSelectionSize(const Expr *E, const ApiModel &Api) {
  if (!Api.facts())
    return false;
  const TaintOrigin *O = Api.facts()->taintOf(E);
  return O && O->SizeOfSelection;
}

/// The other operand of the comparison that tests `E` (`max_num` in `n > max_num`), or null.
const Expr *comparedWith(const Expr *E, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*E);
  const Stmt *Child = E;
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    N = Parents[0];
    const auto *BO = N.get<BinaryOperator>();
    if (BO && BO->isComparisonOp())
      return BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
    const auto *P = N.get<Expr>();
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P)))
      return nullptr;
    Child = P;
  }
  return nullptr;
}

bool mentions(const Stmt *S, const Decl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() == D)
    return true;
  for (const Stmt *C : S->children())
    if (mentions(C, D))
      return true;
  return false;
}

/// `x = <expression of x and Bound>`: the variable assigned, when `S` is such an assignment.
const ValueDecl *cappedBy(const Stmt *S, const Expr *Bound) {
  const Expr *LHS = nullptr, *RHS = nullptr;
  if (const auto *E = dyn_cast<Expr>(S))
    S = E->IgnoreImplicit(); // ExprWithCleanups around a tensor assignment
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
    LHS = BO->getLHS();
    RHS = BO->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_Equal &&
                                                                  OC->getNumArgs() == 2) {
    LHS = OC->getArg(0);
    RHS = OC->getArg(1);
  }
  const auto *Target = LHS ? dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()) : nullptr;
  if (!Bound)
    return nullptr;
  const auto *B = Bound ? dyn_cast<DeclRefExpr>(Bound->IgnoreParenImpCasts()) : nullptr;
  if (!Target || !mentions(RHS, Target->getDecl()))
    return nullptr;
  if (B && !mentions(RHS, B->getDecl()))
    return nullptr;
  if (!B && !isa<IntegerLiteral>(Bound->IgnoreParenImpCasts()))
    return nullptr;
  return Target->getDecl();
}

/// A host scalar of the code around the branch that the branch sets (`found = true;`): "'found'
/// (line N)", or empty.
std::string hostFlagSet(llvm::ArrayRef<const Stmt *> Stmts, const ApiModel &Api, ASTContext &Ctx) {
  for (const Stmt *S : Stmts) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (!BO || !BO->isAssignmentOp())
      continue;
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (V && V->getType()->isScalarType() && !Api.isTensor(V->getType()))
      return "'" + V->getNameAsString() + "' (line " +
             std::to_string(Ctx.getSourceManager().getExpansionLineNumber(BO->getBeginLoc())) + ")";
  }
  return "";
}

} // namespace

const Expr *selectionSizeIn(const Expr *Cond, const ApiModel &Api) {
  if (!Cond)
    return nullptr;
  const Expr *E = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (const Expr *L = selectionSizeIn(BO->getLHS(), Api))
      return L;
    return selectionSizeIn(BO->getRHS(), Api);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return selectionSizeIn(UO->getSubExpr(), Api);
  return isSelectionSize(E, Api) ? E : nullptr;
}

std::string selectionSizeAdvice(const Expr *SizeUse, const ApiModel &Api, ASTContext &Ctx) {
  std::string Reason =
      "the condition depends on '" + sourceText(SizeUse, Ctx) + "', the size of a value-dependent selection";
  const std::string Padded = "keep the selection padded to the rows it came from";
  const IfStmt *If = ifTesting(SizeUse, Ctx);
  auto Then = bodyStatements(If ? If->getThen() : nullptr);
  if (Then.size() == 1 && !If->getElse())
    if (const ValueDecl *Capped = cappedBy(Then[0], comparedWith(SizeUse, Ctx))) {
      std::string Bound = sourceText(comparedWith(SizeUse, Ctx), Ctx);
      return Reason + ": the branch caps '" + Capped->getNameAsString() + "' at '" + Bound +
             "' rows, which needs no branch in the padded form: " + Padded +
             " (a stable argsort puts the kept rows first), take its first '" + Bound +
             "' rows (a static bound when it is a constant) and clamp the count (count.clamp_max(" + Bound + "))";
  }
  const Stmt *Exit = Then.empty() ? nullptr : Then.back();
  std::string HostWork = firstHostWork(llvm::ArrayRef(Then).drop_back(Exit ? 1 : 0), Api, Ctx);
  std::string Also = HostWork.empty() ? "" : "; " + HostWork + ", which moves out of the region with the test";
  if (std::string Flag = hostFlagSet(llvm::ArrayRef(Then).drop_back(Exit ? 1 : 0), Api, Ctx); !Flag.empty())
    Also += "; the host flag " + Flag + " becomes a boolean tensor (flag = flag | cond)";
  if (isa_and_nonnull<ContinueStmt>(Exit))
    return Reason + ": the 'continue' skips the rest of the iteration when it holds, and a graph runs every "
                    "iteration: " + Padded + ", drop the 'continue' (the rest of the body then works on padded "
                    "rows whose count is 0) and test the count (mask.any()) in the host code after the region" +
           Also;
  if (isa_and_nonnull<BreakStmt>(Exit))
    return Reason + ": the 'break' ends the loop when it holds, and a graph runs a fixed number of iterations: " +
           Padded + ", run the static number of iterations and mask the updates after the exit with a done flag "
                    "kept on the device (done = done | (count == 0))" + Also;
  if (isa_and_nonnull<ReturnStmt>(Exit))
    return Reason + ": the early return leaves the function when it holds, which a graph cannot do: " + Padded +
           " and return it with its count (mask.sum()); the host code after the region tests the count and "
           "returns early (selection-to-padded splits a function that returns a tensor this way)" + Also;
  // `if (!dets.empty()) { for (...) boxes->emplace_back(...); }`: no exit, host code in the arms.
  llvm::SmallVector<const Stmt *, 8> Arms(Then.begin(), Then.end());
  if (If && If->getElse())
    Arms.push_back(If->getElse());
  if (std::string Work = firstHostWork(Arms, Api, Ctx); !Work.empty())
    return Reason + ": the branch runs host code: " + Work + ", which no graph holds: move the test and that code "
           "out of the graph region, after the replay (the region returns the selection padded to the rows it "
           "came from, with its count)";
  return Reason + ": " + Padded + " and test its count on the device (mask.sum(), mask.any())";
}

} // namespace graphify::rewriter
