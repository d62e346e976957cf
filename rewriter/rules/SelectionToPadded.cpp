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
// The planner that walks the body into a plan is lib/PaddedSplitPlanner.h; the text of the core
// and the epilogue is written from the plan by lib/PaddedSplitRender.cpp.
#include "lib/PaddedSelection.h"
#include "lib/PaddedSplitPlan.h"
#include "lib/PaddedSplitPlanner.h"
#include "lib/RuleSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Tooling/Transformer/SourceCode.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

using padded_split::Planner;

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

