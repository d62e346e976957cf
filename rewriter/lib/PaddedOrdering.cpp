// The padded-selection engine's orderings: sort, argsort and top-k of padded rows (the invalid
// rows pushed last by a key no valid row has, a stable sort keeping ties in order) and greedy
// suppression (the fixed-size form over the IoU matrix of the sorted rows). Invariant: as in
// PaddedSelection.cpp, the valid rows of every result are the original's, in the original order.
#include "PaddedSelection.h"

#include "ExprUtil.h"
#include "FloatingDtype.h"
#include "Predication.h"
#include "RankFacts.h"
#include "Refusal.h"
#include "Safety.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/SuppressionKernel.h"

#include <clang/AST/ExprCXX.h>

using namespace clang;

namespace graphify::rewriter {

llvm::Expected<int> PaddedLifter::classifySort(const Expr *E, std::map<const Stmt *, std::string> &Replaced,
                                               llvm::StringRef NameHint, std::string &Prelude) {
  // argsort(dim, descending) or argsort(stable, dim, descending): a bool first names the
  // overload with the stability flag (sort_positions in rules/tags.yaml).
  const Expr *Key = Api.argAt(E, 0);
  const Expr *First = Api.argAt(E, 1);
  const bool StableOverload = First && !isAbsent(First) && stripAll(First)->getType()->isBooleanType();
  const Expr *Dim = Api.argAt(E, StableOverload ? 2 : 1);
  const Expr *Descending = Api.argAt(E, StableOverload ? 3 : 2);
  if (!Key)
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") does not name the tensor it sorts");
  auto KeyGroup = classify(Key, Replaced, "", Prelude);
  if (!KeyGroup)
    return KeyGroup.takeError();
  if (*KeyGroup < 0)
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") sorts a value that is not padded but holds a selection");
  // Along another dimension than the rows, the sort is row by row: the result stays in the
  // key's group. The last dimension (the default) is the rows only for a one-dimensional key.
  const bool OneDimensional = isProvablyOneDimensional(Key, E, Body, Api, Ctx);
  std::optional<llvm::APSInt> DimValue =
      isAbsent(Dim) ? std::optional<llvm::APSInt>(llvm::APSInt::get(-1)) : stripAll(Dim)->getIntegerConstantExpr(Ctx);
  if (!DimValue)
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") sorts along dimension " + sourceText(Dim, Ctx) +
                  ", which may be the rows of the selection");
  if (*DimValue >= 1)
    return classifyRowWise(E, {Key}, Replaced, Prelude);
  if (*DimValue < -1 || (*DimValue == -1 && !OneDimensional))
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") sorts along the last dimension, which is the rows of the "
                  "selection only if '" + sourceText(Key, Ctx) + "' has one dimension, which cannot be proven "
                  "(sort along dimension 0 or 1 by name)");
  std::string DescendingText = "false";
  if (!isAbsent(Descending)) {
    if (auto Why = findSideEffect(Descending, Api, false, Evaluation::AsBefore))
      return refuse("the order of " + quotedSource(E, Ctx) + " (" + where(E) + ") " + *Why);
    DescendingText = textWithReplacements(Descending, Replaced, Ctx);
  }
  const std::string Base = NameHint.empty() ? std::string("sorted") : NameHint.str();
  const std::string KeyText = named(Key, Base + "_key", Replaced, Prelude);
  const std::string Count = Counts[*KeyGroup];
  // The padded rows take the value each direction sorts last: -inf descending (a valid -inf row
  // ties with them and, being earlier, stays first in a stable sort), NaN ascending (NaN sorts
  // after +inf). A key of another dtype or rank has no such value here: checked as metadata.
  const bool Floating = isProvablyFloating(Key, Body, Api, Ctx);
  if (!OneDimensional || !Floating) {
    const std::string Test = !OneDimensional && !Floating ? KeyText + ".dim() != 1 || !" + KeyText + ".is_floating_point()"
                             : !OneDimensional            ? KeyText + ".dim() != 1"
                                                          : "!" + KeyText + ".is_floating_point()";
    const std::string What = !OneDimensional && !Floating ? "one-dimensional floating-point"
                             : !OneDimensional            ? "one-dimensional"
                                                          : "floating-point";
    Prelude += "if (" + Test + ")\n  throw std::invalid_argument(\"graphify: the padded form of " + where(E) +
               " assumes a " + What + " '" + sourceText(Key, Ctx) + "'\");\n";
  }
  const std::string Padded = freshName(Base + "_padded_key", Body, Taken);
  const std::string Order = freshName(Base + "_order", Body, Taken);
  const std::string Infinity = "-std::numeric_limits<double>::infinity()";
  const std::string NaN = "std::numeric_limits<double>::quiet_NaN()";
  const std::string Last = DescendingText == "true"    ? Infinity
                           : DescendingText == "false" ? NaN
                                                       : "(" + DescendingText + " ? " + Infinity + " : " + NaN + ")";
  Prelude += "auto " + Padded + " = " + KeyText + ".masked_fill(" + Api.spell(E, "arange") + "(" + KeyText +
             ".size(0), " + Count + ".options()) >= " + Count + ", " + Last + ");\n";
  Prelude += "auto " + Order + " = " + Api.spell(E, "argsort") + "(" + Padded + ", /*stable=*/true, 0, " +
             DescendingText + ");\n";
  Replaced[E] = Order;
  const int Group = addGroup(Count, Order);
  const auto *KeyRef = dyn_cast<DeclRefExpr>(stripAll(Key));
  PositionGroups[Group] = {*KeyGroup, KeyText + ".size(0)", KeyRef ? KeyRef->getDecl() : nullptr};
  return Group;
}

/// The threshold as the op compares it: converted to the parameter's type first when that is
/// narrower than the argument (a kernel taking `float` given `0.45` compares with 0.45f).
std::string PaddedLifter::thresholdText(const CallExpr *Call, const Expr *Threshold) const {
  const bool Simple = isa<DeclRefExpr>(stripAll(Threshold)) || isa<FloatingLiteral>(stripAll(Threshold)) ||
                      isa<IntegerLiteral>(stripAll(Threshold));
  std::string Text = Simple ? sourceText(Threshold, Ctx) : "(" + sourceText(Threshold, Ctx) + ")";
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->getNumParams() < 3)
    return Text;
  QualType Param = Callee->getParamDecl(2)->getType().getNonReferenceType().getUnqualifiedType();
  QualType Given = Threshold->IgnoreParenImpCasts()->getType().getNonReferenceType().getUnqualifiedType();
  if (!Param->isRealFloatingType() || Ctx.hasSameType(Param, Given) ||
      (Given->isRealFloatingType() && Ctx.getTypeSize(Given) <= Ctx.getTypeSize(Param)))
    return Text;
  return "static_cast<" + Param.getAsString(Ctx.getPrintingPolicy()) + ">(" + sourceText(Threshold, Ctx) + ")";
}

llvm::Expected<int> PaddedLifter::classifySuppression(const Expr *E, std::map<const Stmt *, std::string> &Replaced,
                                                      llvm::StringRef NameHint, std::string &Prelude) {
  const Expr *BoxesArg = Api.argAt(E, 0), *ScoresArg = Api.argAt(E, 1), *Threshold = Api.argAt(E, 2);
  const std::string Op = "'" + calleeName(E) + "' (" + where(E) + ")";
  auto BoxGroup = classify(BoxesArg, Replaced, "", Prelude);
  if (!BoxGroup)
    return BoxGroup.takeError();
  auto ScoreGroup = classify(ScoresArg, Replaced, "", Prelude);
  if (!ScoreGroup)
    return ScoreGroup.takeError();
  if (*BoxGroup != *ScoreGroup)
    return refuse("the boxes and scores given to " + Op + " do not come from the same rows, so they do not line up "
                  "once padded");
  if (touchesPadded(Threshold) || Api.isTensorExpr(Threshold))
    return refuse("the threshold of " + Op + " is not a host number that the selection leaves alone");
  const std::string Base = NameHint.empty() ? std::string("kept") : NameHint.str();
  const std::string Boxes = named(BoxesArg, Base + "_boxes_in", Replaced, Prelude);
  const std::string Scores = named(ScoresArg, Base + "_scores_in", Replaced, Prelude);
  auto Fresh = [&](llvm::StringRef Suffix) { return freshName(Base + "_" + Suffix.str(), Body, Taken); };
  const std::string ByScore = Fresh("by_score"), Sorted = Fresh("sorted"), X1 = Fresh("x1"), Y1 = Fresh("y1"),
                    X2 = Fresh("x2"), Y2 = Fresh("y2"), Area = Fresh("area"), W = Fresh("w"), H = Fresh("h"),
                    Inter = Fresh("inter"), Iou = Fresh("iou"), Rank = Fresh("rank"), Suppresses = Fresh("suppresses"),
                    Alive = Fresh("alive"), Step = Fresh("i"), Order = Fresh("order"), Count = Fresh("count");
  auto Spell = [&](llvm::StringRef Name) { return Api.spell(E, Name); };
  const std::string Where = Spell("where"), And = Spell("logical_and"), Not = Spell("logical_not");
  const auto *CE = cast<CallExpr>(E);
  const SuppressionKernel *Kernel = Api.resolver().suppressionKernel(CE->getDirectCallee());
  if (Kernel) {
    // A project's kernel reads four columns of boxes and throws (data_ptr, or its dtype
    // dispatch) unless they hold one of its element types; scores are only sorted. Other shapes
    // would read out of bounds.
    std::string OtherDtype, Types;
    for (QualType T : Kernel->Elements) {
      OtherDtype += " && " + Boxes + ".scalar_type() != " +
                    Api.spellConstant(E, T->isSpecificBuiltinType(BuiltinType::Float) ? "kFloat" : "kDouble");
      Types += (Types.empty() ? "" : " or ") + T.getAsString();
    }
    Prelude += "if (" + Boxes + ".dim() != 2 || " + Boxes + ".size(1) < 4 || " + Scores + ".dim() != 1 || " + Scores +
               ".size(0) != " + Boxes + ".size(0) || " +
               (Kernel->Elements.size() > 1 ? "(" + OtherDtype.substr(4) + ")" : OtherDtype.substr(4)) +
               ")\n  throw std::invalid_argument(\"graphify: the fixed-size form of " + calleeName(E) + " (" +
               where(E) + ") expects boxes [N, 4 or more] of " + Types + " and scores [N]\");\n";
  } else {
    // torchvision's CPU kernel checks the shapes; the fixed form needs them for its matrix.
    Prelude += "if (" + Boxes + ".dim() != 2 || " + Boxes + ".size(1) != 4 || " + Scores + ".dim() != 1 || " + Scores +
               ".size(0) != " + Boxes + ".size(0) || !" + Boxes + ".is_floating_point() || " + Scores +
               ".scalar_type() != " + Boxes + ".scalar_type())\n  throw std::invalid_argument(\"graphify: the "
               "fixed-size form of " + calleeName(E) + " (" + where(E) + ") expects floating-point boxes [N, 4] and "
               "scores [N] of one dtype\");\n";
  }
  // Candidates in the order the op visits them: its own descending sort when every row is a
  // candidate (a recognized kernel's own, stable or not); a stable one over padded rows, which
  // keeps the selected rows' relative order.
  const bool Stable = *BoxGroup >= 0 || (Kernel && Kernel->StableSort);
  Prelude += "auto " + ByScore + " = std::get<1>(" + Scores +
             (Stable ? ".sort(/*stable=*/true, 0, /*descending=*/true));\n" : ".sort(0, /*descending=*/true));\n");
  Prelude += "auto " + Sorted + " = " + Boxes + ".index_select(0, " + ByScore + ");\n";
  const std::string Coords[] = {X1, Y1, X2, Y2};
  for (int C = 0; C < 4; ++C)
    Prelude += "auto " + Coords[C] + " = " + Sorted + ".select(1, " + std::to_string(C) + ");\n";
  Prelude += "auto " + Area + " = (" + X2 + " - " + X1 + ") * (" + Y2 + " - " + Y1 + ");\n";
  // Row i is the kept box, column j the later one; std::max(a, b) is (a < b ? b : a) and
  // std::min(a, b) is (b < a ? b : a), written with where() so that NaN coordinates behave alike.
  auto Overlap = [&](const std::string &Lo, const std::string &Hi) {
    std::string Lower = Where + "(" + Lo + ".unsqueeze(1) < " + Lo + ".unsqueeze(0), " + Lo + ".unsqueeze(0), " + Lo +
                        ".unsqueeze(1))";
    std::string Upper = Where + "(" + Hi + ".unsqueeze(0) < " + Hi + ".unsqueeze(1), " + Hi + ".unsqueeze(0), " + Hi +
                        ".unsqueeze(1))";
    return "(" + Upper + " - " + Lower + ")";
  };
  Prelude += "auto " + W + " = " + Overlap(X1, X2) + ";\n" + W + " = " + Where + "(" + W + " > 0, " + W + ", 0);\n";
  Prelude += "auto " + H + " = " + Overlap(Y1, Y2) + ";\n" + H + " = " + Where + "(" + H + " > 0, " + H + ", 0);\n";
  Prelude += "auto " + Inter + " = " + W + " * " + H + ";\n";
  Prelude += "auto " + Iou + " = " + Inter + " / (" + Area + ".unsqueeze(1) + " + Area + ".unsqueeze(0) - " + Inter +
             ");\n";
  Prelude += "auto " + Rank + " = " + Spell("arange") + "(" + Boxes + ".size(0), " + ByScore + ".options());\n";
  Prelude += "auto " + Suppresses + " = " + And + "(" + Iou + ".to(" + Api.spellConstant(E, "kDouble") + ") > " +
             thresholdText(CE, Threshold) + ", " + Rank + ".unsqueeze(0) > " + Rank + ".unsqueeze(1));\n";
  if (*BoxGroup < 0)
    Prelude += "auto " + Alive + " = " + Rank + " >= 0;\n";
  else
    Prelude += "auto " + Alive + " = (" + Spell("arange") + "(" + Boxes + ".size(0), " + ByScore + ".options()) < " +
               Counts[*BoxGroup] + ").index_select(0, " + ByScore + ");\n";
  // N masked iterations in the visiting order: a candidate still alive is kept and suppresses the
  // later ones it overlaps above the threshold.
  Prelude += "for (int64_t " + Step + " = 0; " + Step + " < " + Boxes + ".size(0); ++" + Step + ")\n  " + Alive +
             " = " + And + "(" + Alive + ", " + Not + "(" + And + "(" + Suppresses + ".select(0, " + Step + "), " +
             Alive + ".select(0, " + Step + "))));\n";
  Prelude += "auto " + Order + " = " + Spell("argsort") + "(" + Not + "(" + Alive + ").to(" +
             Api.spellConstant(E, "kInt") + "), /*stable=*/true, 0);\n";
  Prelude += "auto " + Count + " = " + Alive + ".sum();\n";
  Replaced[E] = ByScore + ".index_select(0, " + Order + ")";
  const int Group = addGroup(Count, Order);
  const auto *BoxesRef = dyn_cast<DeclRefExpr>(stripAll(BoxesArg));
  PositionGroups[Group] = {*BoxGroup, Boxes + ".size(0)", BoxesRef ? BoxesRef->getDecl() : nullptr};
  return Group;
}

} // namespace graphify::rewriter
