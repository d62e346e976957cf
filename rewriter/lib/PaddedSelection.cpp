// The padded-selection engine. Invariant: every padded value of a group has the same leading
// size as the tensor its first selection was taken from, its valid rows are the first `count`
// ones, and they hold exactly the rows the original computed, in the original order. Each lifted
// call is one that keeps that invariant; everything else refuses.
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
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <set>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// The file byte range of `S` (expansion locations), or nothing.
std::optional<std::pair<unsigned, unsigned>> fileRange(const Stmt *S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(S->getSourceRange()), SM,
                                               Ctx.getLangOpts());
  if (R.isInvalid())
    return std::nullopt;
  return std::make_pair(SM.getFileOffset(R.getBegin()), SM.getFileOffset(R.getEnd()));
}

void collectReplacements(const Stmt *S, const std::map<const Stmt *, std::string> &Replaced,
                         const ASTContext &Ctx, std::vector<std::tuple<unsigned, unsigned, std::string>> &Out) {
  if (!S)
    return;
  if (auto It = Replaced.find(S); It != Replaced.end()) {
    if (auto R = fileRange(S, Ctx))
      Out.emplace_back(R->first, R->second, It->second);
    return;
  }
  for (const Stmt *C : S->children())
    collectReplacements(C, Replaced, Ctx, Out);
}

/// Whether `E` is an integer constant other than 0 and not negative (a negative dimension may
/// name dimension 0 of a tensor of rank 1 or more).
bool isPositiveConstant(const Expr *E, const ASTContext &Ctx) {
  E = stripAll(E);
  if (auto V = E->getIntegerConstantExpr(Ctx))
    return V->isStrictlyPositive();
  return false;
}

/// Whether the dimension argument `E` (a constant or a braced list of constants) names only
/// dimensions other than the rows.
bool namesOnlyOtherDims(const Expr *E, const ASTContext &Ctx) {
  auto Elements = bracedListElements(E);
  if (Elements.empty())
    return isPositiveConstant(E, Ctx);
  return llvm::all_of(Elements, [&](const Expr *X) { return isPositiveConstant(X, Ctx); });
}


} // namespace

std::string textWithReplacements(const Stmt *S, const std::map<const Stmt *, std::string> &Replaced,
                                 const ASTContext &Ctx) {
  auto Whole = fileRange(S, Ctx);
  if (!Whole)
    return sourceText(S, Ctx);
  std::vector<std::tuple<unsigned, unsigned, std::string>> Edits;
  collectReplacements(S, Replaced, Ctx, Edits);
  std::sort(Edits.begin(), Edits.end());
  const SourceManager &SM = Ctx.getSourceManager();
  FileID File = SM.getFileID(SM.getExpansionLoc(S->getBeginLoc()));
  llvm::StringRef Buffer = SM.getBufferData(File);
  std::string Out;
  unsigned At = Whole->first;
  for (const auto &[B, E, Text] : Edits) {
    if (B < At || E > Whole->second)
      continue;
    Out += Buffer.substr(At, B - At).str();
    Out += Text;
    At = E;
  }
  Out += Buffer.substr(At, Whole->second - At).str();
  return Out;
}

int PaddedLifter::groupOf(const ValueDecl *D) const {
  auto It = Groups.find(D);
  return It == Groups.end() ? -1 : It->second;
}

void PaddedLifter::forget(const ValueDecl *D) {
  for (auto &[Group, P] : PositionGroups)
    if (P.Source == D)
      P.Source = nullptr;
  for (auto It = ByMask.begin(); It != ByMask.end();)
    It = It->first.first == D ? ByMask.erase(It) : std::next(It);
}

void PaddedLifter::setGroup(const ValueDecl *D, int Group) {
  if (Group < 0)
    Groups.erase(D);
  else
    Groups[D] = Group;
}

std::string PaddedLifter::where(const Stmt *S) const {
  return "line " + std::to_string(Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc()));
}

bool PaddedLifter::isSelection(const Expr *E) const { return isPaddableSelection(E, Api); }

/// The mask of a selection the padded form keeps, or null.
static const Expr *selectionMask(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  if (!isa<CallExpr>(E) || Api.callHasTag(E, "in_place"))
    return nullptr;
  for (const ApiEntry *Entry : Api.entriesFor(E)) {
    if (!Entry->hasTag("bool_mask_index") || Entry->IndexArgs.size() != 1)
      continue;
    const Expr *List = Api.argAt(E, Entry->IndexArgs[0]);
    auto Elements = List ? bracedListElements(List) : llvm::SmallVector<const Expr *, 4>{};
    if (Elements.size() != 1 || !Api.isTensorExpr(Elements[0]))
      return nullptr;
    const DataFacts *Facts = Api.facts();
    if ((Facts && Facts->isBoolMask(Elements[0])) || isProvablyBoolean(Elements[0], Api))
      return Elements[0];
    return nullptr;
  }
  return nullptr;
}

/// A call of greedy suppression with boxes, scores and a threshold (tag greedy_suppression).
static bool isSuppression(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  return isa<CallExpr>(E) && Api.callHasTag(E, "greedy_suppression") && Api.argAt(E, 2) != nullptr;
}

/// The call listing the non-zero positions of a tensor (tag nonzero_positions) under
/// `P.select(1, 0)` or `P.squeeze(1)` — the positions of a one-dimensional mask as a list — or null.
static const Expr *nonzeroPositions(const Expr *E, const ApiModel &Api, const ASTContext *Ctx) {
  E = stripAll(E);
  if (!Ctx || !isa<CallExpr>(E) || !callObject(E) || !Api.callHasTag(E, "drops_dim"))
    return nullptr;
  const Expr *Positions = stripAll(callObject(E));
  if (!isa<CallExpr>(Positions) || !Api.callHasTag(Positions, "nonzero_positions"))
    return nullptr;
  // select(1, 0) or squeeze(1) (tag drops_dim): dimension 1 dropped, and position 0 when the
  // call picks one; unsqueeze(1) or a reduction along 1 would keep or change the shape.
  auto Args = callArgs(E);
  if (Args.empty() || !isIntegerConstant(Args[0], 1, *Ctx))
    return nullptr;
  if (Args.size() == 2 && !isIntegerConstant(Args[1], 0, *Ctx))
    return nullptr;
  return Args.size() <= 2 ? Positions : nullptr;
}

bool isPaddableSelection(const Expr *E, const ApiModel &Api) {
  return selectionMask(E, Api) != nullptr || isSuppression(E, Api) ||
         (isa<CallExpr>(stripAll(E)) && nonzeroPositions(E, Api, Api.context()));
}

int PaddedLifter::derive(int Group, std::string Count) {
  const std::string Order = Orders[Group]; // a copy: addGroup grows Orders
  const int Made = addGroup(Count, Order);
  if (auto It = PositionGroups.find(Group); It != PositionGroups.end())
    PositionGroups.emplace(Made, It->second);
  Derived.insert(Made);
  return Made;
}

std::string PaddedLifter::named(const Expr *E, llvm::StringRef Base, std::map<const Stmt *, std::string> &Replaced,
                                std::string &Prelude) {
  std::string Text = textWithReplacements(E, Replaced, Ctx);
  if (isPlainName(E))
    return Text;
  std::string Name = freshName(Base.str(), Body, Taken);
  Prelude += "auto " + Name + " = " + Text + ";\n";
  return Name;
}

bool PaddedLifter::isStaticShapeQuery(const Expr *E) const {
  E = stripAll(E);
  // `v.sizes()[d]`: the subscript of the sizes.
  const Expr *Dim = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript) {
    if (OC->getNumArgs() != 2)
      return false;
    Dim = OC->getArg(1);
    E = stripAll(OC->getArg(0));
    if (!isa<CallExpr>(E) || !Api.callHasTag(E, "shape_query") || !callArgs(E).empty())
      return false;
  }
  if (!isa<CallExpr>(E) || !callObject(E) || !isa<DeclRefExpr>(stripAll(callObject(E))))
    return false;
  if (Api.callHasTag(E, "rank_query"))
    return !Dim;
  if (!Api.callHasTag(E, "shape_query"))
    return false;
  if (!Dim) {
    if (callArgs(E).size() != 1)
      return false;
    Dim = callArgs(E)[0];
  }
  return isPositiveConstant(Dim, Ctx);
}

bool PaddedLifter::touchesPadded(const Stmt *S) const {
  if (!S)
    return false;
  // The dtype, device and options of a padded variable are the original's (a selection written
  // in place would still be computed).
  if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E) && callObject(E) &&
                                          isa<DeclRefExpr>(stripAll(callObject(E))) &&
                                          Api.callHasTag(E, "metadata_query"))
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && isStaticShapeQuery(E))
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && groupOf(DR->getDecl()) >= 0)
    return true;
  if (const auto *E = dyn_cast<Expr>(S); E && isSelection(E))
    return true;
  for (const Stmt *C : S->children())
    if (touchesPadded(C))
      return true;
  return false;
}

llvm::Expected<PaddedLifter::Lifted> PaddedLifter::lift(const Expr *E, llvm::StringRef NameHint,
                                                         std::string &Prelude) {
  std::map<const Stmt *, std::string> Replaced;
  auto Group = classify(E, Replaced, NameHint, Prelude);
  if (!Group)
    return Group.takeError();
  return Lifted{textWithReplacements(E, Replaced, Ctx), *Group};
}

llvm::Expected<int> PaddedLifter::classify(const Expr *E, std::map<const Stmt *, std::string> &Replaced,
                                           llvm::StringRef NameHint, std::string &Prelude) {
  E = stripAll(E);
  if (!touchesPadded(E))
    return -1;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    return groupOf(DR->getDecl());
  if (isSelection(E))
    return classifySelection(E, Replaced, NameHint, Prelude);
  if (const Expr *Source = nullptr, *Index = nullptr;
      isa<CallExpr>(E) && !Api.callHasTag(E, "in_place") && gatherParts(E, Source, Index))
    return classifyGather(E, Source, Index, Replaced, Prelude);
  if (isFullReduction(E, Api))
    return classifyReduction(E, Replaced, NameHint, Prelude);
  if (isa<CallExpr>(E) && Api.callHasTag(E, "sort_positions"))
    return classifySort(E, Replaced, NameHint, Prelude);
  if (isa<CallExpr>(E) && Api.callHasTag(E, "shape_query"))
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") reads the size of a value-dependent selection; the padded "
                  "form keeps such sizes only in a test before a return");
  // A transfer takes only the dtype and device of a tensor argument (`l.to(boxes)`): its rows are
  // self's. A selection written in the argument would still be computed.
  if (isa<CallExpr>(E) && Api.callHasTag(E, "device_transfer") && callObject(E) && !Api.callHasTag(E, "in_place")) {
    for (const Expr *Arg : callArgs(E))
      if (Api.isTensorExpr(Arg) && !isa<DeclRefExpr>(stripAll(Arg)) && touchesPadded(Arg))
        return refuse(quotedSource(Arg, Ctx) + " (" + where(Arg) + ") computes a value-dependent selection to take its "
                      "dtype and device from (name it in a local first)");
    return classifyRowWise(E, {callObject(E)}, Replaced, Prelude);
  }
  if (isa<CallExpr>(E) && Api.callHasTag(E, "elementwise") && !Api.callHasTag(E, "in_place"))
    return classifyRowWise(E, callOperands(E), Replaced, Prelude);
  if (isa<CallExpr>(E) && Api.callHasTag(E, "along_dims") && !Api.callHasTag(E, "in_place")) {
    for (const ApiEntry *Entry : Api.entriesFor(E)) {
      if (!Entry->hasTag("along_dims"))
        continue;
      for (unsigned Pos : Entry->DimArgs) {
        const Expr *Dim = Api.argAt(E, Pos);
        if (!Dim)
          return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") works along a dimension left to its default, which "
                        "may be the rows of the selection");
        if (!namesOnlyOtherDims(Dim, Ctx))
          return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") works along dimension " + sourceText(Dim, Ctx) +
                        ", which is (or may be) the rows of the selection; the padded rows would take part");
      }
      break;
    }
    // The operands: self, tensor arguments, and the tensors of a list argument (cat, stack).
    llvm::SmallVector<const Expr *, 4> Operands;
    for (const Expr *Op : callOperands(E)) {
      auto Elements = bracedListElements(Op);
      if (!Elements.empty() && llvm::all_of(Elements, [&](const Expr *X) { return Api.isTensorExpr(X); }))
        Operands.append(Elements.begin(), Elements.end());
      else
        Operands.push_back(Op);
    }
    return classifyRowWise(E, Operands, Replaced, Prelude);
  }
  // Indexing whose first entry takes every row (`x.index({Slice(), 4})`) works on the other
  // dimensions only.
  if (isa<CallExpr>(E) && !Api.callHasTag(E, "in_place") && keepsEveryRow(E))
    return classifyRowWise(E, {callObject(E)}, Replaced, Prelude);
  if (isa<CallExpr>(E) && callObject(E) && !Api.callHasTag(E, "in_place") && flattensToOneDimension(E))
    return classifyFlattened(E, Replaced, Prelude);
  // parts[1] of `auto parts = kept.split({4, 1}, 1)`: a part of a vector split along another
  // dimension has the rows of the vector's group.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 && !Api.isTensorExpr(OC->getArg(0)) &&
      isa<DeclRefExpr>(stripAll(OC->getArg(0))) && !touchesPadded(OC->getArg(1)))
    return groupOf(cast<DeclRefExpr>(stripAll(OC->getArg(0)))->getDecl());
  // std::get<k>(torch::max(kept, 1)): an element of a tuple computed row by row has its rows.
  if (isa<CallExpr>(E) && Api.callHasTag(E, "tuple_element") && callArgs(E).size() == 1)
    return classify(callArgs(E)[0], Replaced, "", Prelude);
  std::string What = isa<CallExpr>(E) && !calleeName(E).empty() ? "'" + calleeName(E) + "'" : quotedSource(E, Ctx);
  return refuse(What + " (" + where(E) + ") does not work row by row on a value-dependent selection, so it "
                "cannot run on the padded rows");
}

bool PaddedLifter::flattensToOneDimension(const Expr *E) const {
  for (const ApiEntry *Entry : Api.entriesFor(E)) {
    if (!Entry->hasTag("same_elements"))
      continue;
    if (Entry->hasTag("one_dimensional_output"))
      return true; // flatten()
    if (Entry->SizeArgs.size() != 1)
      return false;
    const Expr *Size = Api.argAt(E, Entry->SizeArgs[0]);
    auto Elements = Size ? bracedListElements(Size) : llvm::SmallVector<const Expr *, 4>{};
    if (Elements.empty() && Size)
      Elements.push_back(Size);
    return Elements.size() == 1 && isIntegerConstant(Elements[0], -1, Ctx);
  }
  return false;
}

llvm::Expected<int> PaddedLifter::classifyFlattened(const Expr *E, std::map<const Stmt *, std::string> &Replaced,
                                                    std::string &Prelude) {
  auto Group = classify(callObject(E), Replaced, "", Prelude);
  if (!Group || *Group < 0)
    return Group;
  // Padded, the value has N rows where the original had K: one element per row keeps the rows
  // (and the count) as they are; more would interleave padded elements with valid ones.
  const std::string Object = named(callObject(E), "flattened", Replaced, Prelude);
  Prelude += "if (" + Object + ".dim() == 0 || " + Object + ".numel() != " + Object +
             ".size(0))\n  throw std::invalid_argument(\"graphify: the padded form of " + where(E) +
             " assumes that '" + sourceText(callObject(E), Ctx) + "' holds one element per row\");\n";
  return *Group;
}

llvm::Expected<int> PaddedLifter::classifyReduction(const Expr *E, std::map<const Stmt *, std::string> &Replaced,
                                                    llvm::StringRef NameHint, std::string &Prelude) {
  const Expr *Self = callObject(E) ? callObject(E) : Api.argAt(E, 0);
  auto Group = classify(Self, Replaced, "", Prelude);
  if (!Group)
    return Group.takeError();
  if (*Group < 0)
    return -1;
  const std::string Op = "'" + calleeName(E) + "' (" + where(E) + ")";
  if (!Api.callHasTag(E, "idempotent_reduction"))
    return refuse(Op + " reduces every row of a value-dependent selection; the padded rows would take part (the "
                  "padded form keeps only reductions that a repeated row leaves unchanged, such as max or all)");
  if (!NonEmpty.count(*Group))
    return refuse(Op + " reduces the rows of a value-dependent selection that may have none, where the original "
                  "raises or gives the empty reduction's value and the padded rows would give another: return "
                  "before it when the selection is empty (if (" + sourceText(Self, Ctx) + ".size(0) == 0) return ...;)");
  // The padded rows stand in for copies of the first row, which is a selected one: a repeated
  // row leaves the reduction unchanged. A padded value of no row (the selection came from an
  // empty tensor) has no first row; the original returned before this point there, and the
  // reduction of one zero keeps the core from raising on a value that is never used.
  const std::string Base = NameHint.empty() ? calleeName(E) : NameHint.str();
  const std::string Padded = named(Self, Base + "_of", Replaced, Prelude);
  const std::string Rows = freshName(Base + "_rows", Body, Taken);
  const std::string &Count = Counts[*Group];
  Prelude += "auto " + Rows + " = " + Api.spell(E, "arange") + "(" + Padded + ".size(0), " + Count + ".options());\n";
  auto WithSelf = [&](const std::string &Text) {
    std::map<const Stmt *, std::string> Own = Replaced;
    Own[stripAll(Self)] = Text;
    return textWithReplacements(E, Own, Ctx);
  };
  const std::string FirstRows = Padded + ".index_select(0, " + Api.spell(E, "where") + "(" + Rows + " < " + Count +
                                ", " + Rows + ", 0))";
  const std::string Zero = Api.spell(E, "zeros") + "({1}, " + Padded + ".options())";
  Replaced[E] = "(" + Padded + ".size(0) == 0 ? " + WithSelf(Zero) + " : " + WithSelf(FirstRows) + ")";
  return -1;
}

bool PaddedLifter::keepsEveryRow(const Expr *E) const {
  if (!callObject(E))
    return false;
  for (const ApiEntry *Entry : Api.entriesFor(E)) {
    if (Entry->IndexArgs.size() != 1)
      continue;
    const Expr *List = Api.argAt(E, Entry->IndexArgs[0]);
    auto Elements = List ? bracedListElements(List) : llvm::SmallVector<const Expr *, 4>{};
    if (Elements.empty())
      return false;
    // The first entry: a constructor the packs describe (an index object) given no argument,
    // which takes the whole dimension (`Slice()`).
    const auto *Whole = dyn_cast<CXXConstructExpr>(stripAll(Elements[0]));
    if (!Whole || Api.entriesFor(Whole).empty() ||
        !llvm::all_of(Whole->arguments(), [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
      return false;
    // The others pick or slice other dimensions with host values that do not come from a
    // selection.
    return llvm::all_of(llvm::ArrayRef(Elements).drop_front(),
                        [&](const Expr *X) { return !Api.isTensorExpr(X) && !touchesPadded(X); });
  }
  return false;
}

llvm::Expected<int> PaddedLifter::classifyRowWise(const Expr *E, llvm::ArrayRef<const Expr *> Operands,
                                                  std::map<const Stmt *, std::string> &Replaced,
                                                  std::string &Prelude) {
  std::set<int> Padded;
  const Expr *First = nullptr;
  std::vector<std::pair<const Expr *, int>> Others; // with their groups (-1: not padded)
  for (const Expr *Op : Operands) {
    if (!Api.isTensorExpr(Op)) {
      if (touchesPadded(Op))
        return refuse(quotedSource(Op, Ctx) + " (" + where(Op) + ") is a host value computed from a value-dependent "
                      "selection");
      continue;
    }
    auto G = classify(Op, Replaced, "", Prelude);
    if (!G)
      return G.takeError();
    if (*G >= 0)
      Padded.insert(*G);
    if (*G >= 0 && !First)
      First = Op;
    else
      Others.emplace_back(Op, *G);
  }
  if (Padded.empty())
    return -1;
  if (Padded.size() > 1)
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") combines the rows of two different selections, which do "
                  "not line up once padded");
  // Every other tensor operand must meet the padded rows without touching them: one element, or
  // a rank the check below keeps from broadcasting against the rows.
  // cat and stack require operands of one rank and one size along the other dimensions (rows
  // included) on both sides; a static operand would need as many rows as the selection has.
  const bool Joins = Api.callHasTag(E, "joins_inputs");
  std::string Padding;
  for (const auto &[Op, Group] : Others) {
    if (Joins) {
      if (Group >= 0)
        continue;
      return refuse(quotedSource(Op, Ctx) + " (" + where(Op) + ") is joined to the rows of a selection but does not come "
                    "from them");
    }
    if (isProvablySingleElement(Op, Body, Api))
      continue;
    if (Group < 0 && !isPlainName(Op))
      return refuse("cannot prove that " + quotedSource(Op, Ctx) + " (" + where(Op) + ") lines up with the rows of " +
                    quotedSource(First, Ctx) + " (name it in a local, or make the operand one element)");
    // The check reads each operand once more: operands that are not names get one, computed
    // where the call would have computed them (the call and its operands are pure).
    if (Padding.empty()) {
      Padding = named(First, "rows_of", Replaced, Prelude);
      Replaced[stripAll(First)] = Padding;
    }
    const std::string Other = named(Op, "operand", Replaced, Prelude);
    Replaced[stripAll(Op)] = Other;
    std::string Cond = Group >= 0 ? Other + ".dim() == " + Padding + ".dim()"
                                  : Other + ".dim() < " + Padding + ".dim() || (" + Other + ".dim() == " + Padding +
                                        ".dim() && " + Other + ".size(0) == 1)";
    Prelude += "if (!(" + Cond + "))\n  throw std::invalid_argument(\"graphify: the padded form of " + where(E) +
               " assumes that '" + sourceText(Op, Ctx) + "' broadcasts along the rows of '" + sourceText(First, Ctx) +
               "' without meeting them\");\n";
  }
  return *Padded.begin();
}

bool PaddedLifter::gatherParts(const Expr *E, const Expr *&Source, const Expr *&Index) const {
  for (const ApiEntry *Entry : Api.entriesFor(E)) {
    if (Entry->hasTag("gathers_rows")) {
      if (!isIntegerConstant(Api.argAt(E, Entry->DimArgs[0]), 0, Ctx))
        return false;
      Source = Api.argAt(E, 0);
      Index = Api.argAt(E, Entry->PositionArgs[0]);
      return Source && Index;
    }
    if (!Entry->hasTag("bool_mask_index") || Entry->IndexArgs.size() != 1)
      continue;
    // `x.index({i})` / `x[i]` with a tensor of positions gathers rows as index_select(0, i) does.
    const Expr *List = Api.argAt(E, Entry->IndexArgs[0]);
    auto Elements = List ? bracedListElements(List) : llvm::SmallVector<const Expr *, 4>{};
    if (Elements.empty() && List)
      Elements.push_back(List);
    if (Elements.size() != 1 || !Api.isTensorExpr(Elements[0]) || isProvablyBoolean(Elements[0], Api))
      return false;
    Source = callObject(E);
    Index = Elements[0];
    return Source != nullptr;
  }
  return false;
}

bool PaddedLifter::isPaddedGather(const Expr *E) const {
  const Expr *Source = nullptr, *Index = nullptr;
  E = stripAll(E);
  if (!isa<CallExpr>(E) || Api.callHasTag(E, "in_place") || !gatherParts(E, Source, Index))
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(stripAll(Index));
  return Ref && PositionGroups.count(groupOf(Ref->getDecl()));
}

llvm::Expected<int> PaddedLifter::classifyGather(const Expr *E, const Expr *Source, const Expr *Index,
                                                 std::map<const Stmt *, std::string> &Replaced,
                                                 std::string &Prelude) {
  auto IndexGroup = classify(Index, Replaced, "", Prelude);
  if (!IndexGroup)
    return IndexGroup.takeError();
  auto SourceGroup = classify(Source, Replaced, "", Prelude);
  if (!SourceGroup)
    return SourceGroup.takeError();
  if (*IndexGroup < 0) {
    if (*SourceGroup >= 0)
      return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") picks rows of a value-dependent selection at positions "
                    "that do not come from it, which do not line up with the padded rows");
    return -1;
  }
  auto It = PositionGroups.find(*IndexGroup);
  if (It == PositionGroups.end())
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") gathers at positions held by a value-dependent selection, "
                  "whose padded rows may hold positions the original never used");
  if (*SourceGroup >= 0 && *SourceGroup != It->second.RowGroup)
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") gathers rows of " + quotedSource(Source, Ctx) + " at positions "
                  "in the rows of another selection, which do not line up once padded");
  const auto *SourceRef = dyn_cast<DeclRefExpr>(stripAll(Source));
  const bool SameBoxes = SourceRef && It->second.Source && SourceRef->getDecl() == It->second.Source;
  if (*SourceGroup < 0 && !SameBoxes) {
    // The padded rows of the kept indices hold the other positions of the boxes: in range when
    // the source has as many rows as the boxes, which the original did not need.
    const std::string SourceText = named(Source, "gathered", Replaced, Prelude);
    Prelude += "if (" + SourceText + ".dim() == 0 || " + SourceText + ".size(0) < " + It->second.Rows +
               ")\n  throw std::invalid_argument(\"graphify: the padded form of " + where(E) + " assumes that '" +
               sourceText(Source, Ctx) + "' has a row for every position it is gathered at\");\n";
    Replaced[stripAll(Source)] = SourceText;
  }
  return *IndexGroup;
}

llvm::Expected<int> PaddedLifter::classifyPositions(const Expr *E, std::map<const Stmt *, std::string> &Replaced,
                                                    llvm::StringRef NameHint, std::string &Prelude) {
  // m.nonzero().select(1, 0) lists the positions of m's non-zero elements in order; padded, they
  // are the stable order that puts those positions first (every row a position of m), with
  // their count.
  const Expr *Positions = nonzeroPositions(E, Api, &Ctx);
  const Expr *Mask = callObject(Positions) ? callObject(Positions) : Api.argAt(Positions, 0);
  if (!Mask)
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") does not name the tensor whose positions it lists");
  auto MaskGroup = classify(Mask, Replaced, "", Prelude);
  if (!MaskGroup)
    return MaskGroup.takeError();
  const std::string Base = NameHint.empty() ? std::string("positions") : NameHint.str();
  const std::string MaskText = named(Mask, Base + "_of", Replaced, Prelude);
  const std::string Valid = freshName(Base + "_valid", Body, Taken);
  const std::string Order = freshName(Base + "_order", Body, Taken);
  const std::string Count = freshName(Base + "_count", Body, Taken);
  std::string NonZero = isProvablyBoolean(Mask, Api) ? MaskText : "(" + MaskText + " != 0)";
  if (*MaskGroup >= 0) {
    const std::string &Before = Counts[*MaskGroup];
    NonZero = Api.spell(E, "logical_and") + "(" + NonZero + ", " + Api.spell(E, "arange") + "(" + MaskText +
              ".size(0), " + Before + ".options()) < " + Before + ")";
  }
  // The positions of a mask of several dimensions have a column per dimension; select(1, 0)
  // would keep the row of each element, which the padded form does not reproduce.
  if (!isProvablyOneDimensional(Mask, E, Body, Api, Ctx))
    Prelude += "if (" + MaskText + ".dim() != 1)\n  throw std::invalid_argument(\"graphify: the padded form of " +
               where(E) + " assumes a one-dimensional '" + sourceText(Mask, Ctx) + "'\");\n";
  Prelude += "auto " + Valid + " = " + NonZero + ";\n";
  Prelude += "auto " + Order + " = " + Api.spell(E, "argsort") + "(" + Api.spell(E, "logical_not") + "(" + Valid +
             ").to(" + Api.spellConstant(E, "kInt") + "), /*stable=*/true, 0);\n";
  Prelude += "auto " + Count + " = " + Valid + ".sum();\n";
  Replaced[E] = Order;
  const int Group = addGroup(Count, Order);
  PositionGroups[Group] = {*MaskGroup, MaskText + ".size(0)", nullptr};
  return Group;
}

llvm::Expected<int> PaddedLifter::classifySelection(const Expr *E, std::map<const Stmt *, std::string> &Replaced,
                                                    llvm::StringRef NameHint, std::string &Prelude) {
  if (isSuppression(E, Api))
    return classifySuppression(E, Replaced, NameHint, Prelude);
  if (nonzeroPositions(E, Api, &Ctx))
    return classifyPositions(E, Replaced, NameHint, Prelude);
  const Expr *Source = callObject(E);
  const Expr *Mask = selectionMask(E, Api);
  if (!Source)
    return refuse(quotedSource(E, Ctx) + " (" + where(E) + ") is not a method call on the tensor it selects from");
  auto SourceGroup = classify(Source, Replaced, "", Prelude);
  if (!SourceGroup)
    return SourceGroup.takeError();
  auto MaskGroup = classify(Mask, Replaced, "", Prelude);
  if (!MaskGroup)
    return MaskGroup.takeError();
  if (*MaskGroup != *SourceGroup)
    return refuse("the mask " + quotedSource(Mask, Ctx) + " (" + where(Mask) + ") is not computed from the rows of " +
                  quotedSource(Source, Ctx) + ", so their rows do not line up once padded");

  const std::string Base = NameHint.empty() ? std::string("selected") : NameHint.str();
  std::string SourceText = textWithReplacements(Source, Replaced, Ctx);
  const auto *MaskRef = dyn_cast<DeclRefExpr>(stripAll(Mask));
  if (MaskRef) {
    auto It = ByMask.find({MaskRef->getDecl(), *SourceGroup});
    if (It != ByMask.end()) {
      const bool Named = isa<DeclRefExpr>(stripAll(Source));
      Replaced[E] = (Named ? SourceText : "(" + SourceText + ")") + ".index_select(0, " + Orders[It->second] + ")";
      return It->second;
    }
  }
  if (!isa<DeclRefExpr>(stripAll(Source))) {
    std::string Bound = freshName(Base + "_source", Body, Taken);
    Prelude += "auto " + Bound + " = " + SourceText + ";\n";
    SourceText = Bound;
  }
  const std::string MaskText = textWithReplacements(Mask, Replaced, Ctx);
  const std::string Valid = freshName(Base + "_valid", Body, Taken);
  const std::string Order = freshName(Base + "_order", Body, Taken);
  const std::string Count = freshName(Base + "_count", Body, Taken);
  if (*SourceGroup < 0) {
    Prelude += "auto " + Valid + " = " + MaskText + ";\n";
  } else {
    const std::string &Before = Counts[*SourceGroup];
    Prelude += "auto " + Valid + " = " + Api.spell(E, "logical_and") + "(" + MaskText + ", " + Api.spell(E, "arange") +
               "(" + SourceText + ".size(0), " + Before + ".options()) < " + Before + ");\n";
  }
  // index({m}) with a one-dimensional mask of one element per row is the row selection the
  // padded form reproduces; a mask of several dimensions selects elements, which it does not.
  if (!isProvablyOneDimensional(Mask, E, Body, Api, Ctx) || !maskHasShapeOf(Mask, Source, Body, Api))
    Prelude += "if (" + Valid + ".dim() != 1 || " + Valid + ".size(0) != " + SourceText +
               ".size(0))\n  throw std::invalid_argument(\"graphify: the padded form of " + where(E) +
               " assumes a one-dimensional mask with one element per row\");\n";
  Prelude += "auto " + Order + " = " + Api.spell(E, "argsort") + "(" + Api.spell(E, "logical_not") + "(" + Valid +
             ").to(" + Api.spellConstant(E, "kInt") + "), /*stable=*/true, 0);\n";
  Prelude += "auto " + Count + " = " + Valid + ".sum();\n";
  Replaced[E] = SourceText + ".index_select(0, " + Order + ")";
  const int Group = addGroup(Count, Order);
  if (MaskRef)
    ByMask[{MaskRef->getDecl(), *SourceGroup}] = Group;
  return Group;
}

} // namespace graphify::rewriter
