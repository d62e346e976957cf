// Reporting and region traversal shared by all checks. Invariant: whatever a check reports,
// a finding lands at most once per (file, line, column, check), only in analysed files (the reported
// ones, and the project's headers, whose findings the caller counts), never in a system header,
// with its caret on a file location a user can open.
#include "graphify/analyzer/AnalysisContext.h"

#include "DeadCode.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace graphify {

static const char *const ReadNote = "value read from tensor here";
static const char *const SelectionNote = "selection whose length depends on the values made here";

std::string dependenceOf(const TaintOrigin *O) {
  return O && O->SizeOfSelection ? "the size of a value-dependent selection" : "a tensor value read on the host";
}

using namespace clang;

AnalysisContext::AnalysisContext(ASTContext &Ast, const AnalysisConfig &Config,
                                 const TaintFacts &Facts, const GraphRegions &Regions,
                                 llvm::ArrayRef<const FunctionDecl *> Functions,
                                 AnalysisResult &Out)
    : Ast(Ast), Config(Config), Facts(Facts), Regions(Regions), Functions(Functions), Out(Out) {}

namespace {

/// Visits region code of one function: its region bodies, and the statements inside its
/// capture windows.
class RegionWalker {
public:
  using Visitor = llvm::function_ref<void(const Stmt &, AnalysisContext::RegionSite)>;

  RegionWalker(const GraphRegions &Regions, llvm::ArrayRef<CaptureWindow> Windows,
               const SourceManager &SM, Visitor Visit)
      : Regions(Regions), Windows(Windows), SM(SM), Visit(Visit) {}

  /// `Site` is set when `S` is known to be region code; null means only what capture windows
  /// cover is (or, under Scope::All, everything, with `Fallback` as its site).
  void walk(const Stmt *S, const AnalysisContext::RegionSite *Site) {
    if (!S)
      return;
    AnalysisContext::RegionSite WindowSite;
    const AnalysisContext::RegionSite *Known = Site ? Site : windowSite(*S, WindowSite);
    const AnalysisContext::RegionSite *Here = Known ? Known : Fallback;
    if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
      // Written in a window, a lambda's body is captured when the window runs it (the regions
      // say): one kept in a variable and called after the end call is not.
      if (!Site && Known && !Regions.contains(LE->getCallOperator())) {
        ++OutsideWindows;
        walkLambda(*LE, nullptr, Fallback);
        --OutsideWindows;
        return;
      }
      walkLambda(*LE, Known, Here);
      return;
    }
    if (Here)
      Visit(*S, *Here);
    // A region body's site holds for everything under it; a window's only for what begins inside
    // it: an end call inside a branch closes the window there, not at the end of the branch.
    // Code after a block's `return` never runs (DeadCode.h).
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      forEachLiveChild(*Block, [&](const Stmt &Child) { walk(&Child, Site); });
      return;
    }
    for (const Stmt *Child : S->children())
      walk(Child, Site);
  }

  /// The site of code outside regions and windows (Scope::All), or null.
  const AnalysisContext::RegionSite *Fallback = nullptr;

private:
  const GraphRegions &Regions;
  llvm::ArrayRef<CaptureWindow> Windows;
  const SourceManager &SM;
  Visitor Visit;

  /// Inside a lambda written in a window that the window does not run.
  unsigned OutsideWindows = 0;

  const AnalysisContext::RegionSite *windowSite(const Stmt &S, AnalysisContext::RegionSite &Out) {
    if (OutsideWindows)
      return nullptr;
    for (const CaptureWindow &W : Windows)
      if (W.contains(S.getBeginLoc(), SM)) {
        Out.RelaxedCapture = W.Relaxed;
        return &Out;
      }
    return nullptr;
  }

  void walkLambda(const LambdaExpr &LE, const AnalysisContext::RegionSite *Known,
                  const AnalysisContext::RegionSite *Here) {
    // A lambda is region code when written in a region, or when it is a region itself
    // (a callable handed to a capture entry from ordinary code).
    // A lambda that is a region reached only in relaxed mode (a thread a thread-local window
    // starts) keeps its own site even where it is written in a window.
    AnalysisContext::RegionSite Own{Regions.isRelaxed(LE.getCallOperator())};
    const bool OwnRegion = Regions.contains(LE.getCallOperator());
    const AnalysisContext::RegionSite *Inner =
        OwnRegion && Own.RelaxedCapture ? &Own : Known ? Known : (OwnRegion ? &Own : nullptr);
    if (Here)
      Visit(LE, *Here);
    for (const Expr *Init : LE.capture_inits())
      walk(Init, Known);
    walk(LE.getBody(), Inner);
    // A generic lambda's instantiations hold the resolved calls of its body.
    if (const FunctionTemplateDecl *FT = LE.getCallOperator()->getDescribedFunctionTemplate())
      for (const FunctionDecl *Spec : FT->specializations())
        walk(Spec->getBody(), Inner);
  }
};

} // namespace

void AnalysisContext::forEachRegionStmt(llvm::function_ref<void(const Stmt &)> Visit) const {
  forEachRegionSite([&](const Stmt &S, RegionSite) { Visit(S); });
}

void AnalysisContext::forEachRegionSite(
    llvm::function_ref<void(const Stmt &, RegionSite)> Visit) const {
  bool All = Config.ScopeKind == Scope::All;
  for (const FunctionDecl *FD : Functions) {
    // A host epilogue is host code by declaration (it reads the counts of a padded core), in
    // every scope, as NOLINT is.
    if (GraphRegionFinder::isHostEpilogue(FD))
      continue;
    // Under Scope::All everything is visited; windows still say where capture is relaxed.
    RegionSite Body{Regions.isRelaxed(FD)};
    const RegionSite *Site = Regions.contains(FD) ? &Body : nullptr;
    RegionWalker Walker(Regions, Regions.windowsOf(FD), Ast.getSourceManager(), Visit);
    if (All)
      Walker.Fallback = &Body;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten())
          Walker.walk(Init->getInit(), Site);
    Walker.walk(FD->getBody(), Site);
  }
}

void AnalysisContext::forEachRegionApiCall(llvm::function_ref<void(const ApiCall &)> Visit, CallForms Forms) const {
  forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S) && !(Forms == CallForms::CallsAndConstructions && isa<CXXConstructExpr>(S)))
      return;
    if (auto Call = api().resolve(cast<Expr>(&S)))
      Visit(*Call);
  });
}

bool AnalysisContext::forEachTaintedArgument(const ApiCall &Call, ArgumentSlot Slot,
                                             llvm::function_ref<bool(const TaintedArgument &)> Visit) const {
  const bool Sizes = Slot == ArgumentSlot::Size;
  std::set<unsigned> Positions;
  for (const ApiEntry *E : Call.Entries)
    if (E->hasTag(Sizes ? "size_argument" : "position_argument")) {
      const std::vector<unsigned> &Slots = Sizes ? E->SizeArgs : E->PositionArgs;
      Positions.insert(Slots.begin(), Slots.end());
    }
  for (unsigned Pos : Positions)
    if (const Expr *Leaf = taintedLeaf(Call.arg(Pos), Slot))
      if (Visit(TaintedArgument{*Leaf, Facts.tracedTaintOf(Leaf)}))
        return true;
  return false;
}

bool AnalysisContext::reportArgument(const CheckInfo &Check, const ApiCall &Call, const TaintedArgument &Arg,
                                     std::string Message, ArgumentAnchor Anchor) {
  const Stmt *Node = Anchor == ArgumentAnchor::Call ? static_cast<const Stmt *>(Call.Call) : &Arg.Leaf;
  return report(Check, Arg.Leaf.getBeginLoc(), std::move(Message), Node, Arg.Origin, Arg.Leaf.getSourceRange());
}

const Expr *AnalysisContext::taintedLeaf(const Expr *Arg, ArgumentSlot Slot, unsigned Depth) const {
  if (!Arg || Depth > 8 || !Facts.tracedTaintOf(Arg))
    return nullptr;
  bool Positions = Slot == ArgumentSlot::Position;
  const Expr *Inner = skipValueWrappers(Arg);
  const CXXConstructExpr *Constructed = nullptr;
  auto Parts = argumentParts(Inner, Constructed);
  if (!Parts)
    return !Positions || Inner->getType()->isIntegerType() ? Arg : nullptr;
  if (Positions && Constructed) // a pack's construct (`Slice(0, 5)`) is no position
    if (auto Call = api().resolve(Constructed); Call && !Call->Entries.empty())
      return nullptr;
  for (const Expr *P : *Parts)
    if (const Expr *Leaf = taintedLeaf(P, Slot, Depth + 1))
      return Leaf;
  return Positions ? nullptr : Arg;
}

bool AnalysisContext::isReportedLocation(SourceLocation Loc) const {
  const SourceManager &SM = Ast.getSourceManager();
  if (Loc.isInvalid())
    return false;
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  if (SM.isInSystemHeader(FileLoc))
    return false;
  if (SM.isInMainFile(FileLoc))
    return true;
  // Findings in analysed headers come back too: the caller counts the ones it does not show.
  if (Config.IsFileAnalysed)
    return Config.IsFileAnalysed(SM.getFilename(FileLoc));
  return Config.IsFileReported && Config.IsFileReported(SM.getFilename(FileLoc));
}

SourcePoint AnalysisContext::point(SourceLocation Loc) const {
  const SourceManager &SM = Ast.getSourceManager();
  SourcePoint P;
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  if (FileLoc.isInvalid())
    return P;
  P.File = SM.getFilename(FileLoc).str();
  P.Line = SM.getSpellingLineNumber(FileLoc);
  P.Column = SM.getSpellingColumnNumber(FileLoc);
  P.Offset = SM.getFileOffset(FileLoc);
  return P;
}

bool AnalysisContext::report(const CheckInfo &Check, SourceLocation Caret, std::string Message,
                             const Stmt *Anchor, const TracedOrigin *Taint, SourceRange Range) {
  if (!isReportedLocation(Caret))
    return false;
  Finding F;
  F.CheckId = Check.Id;
  F.Where = point(Caret);
  if (!Seen.insert({F.Where.File, F.Where.Line, F.Where.Column, F.CheckId}).second)
    return false;
  F.Message = std::move(Message);

  const SourceManager &SM = Ast.getSourceManager();
  if (Range.isValid()) {
    SourceLocation B = SM.getFileLoc(Range.getBegin());
    SourceLocation E = Lexer::getLocForEndOfToken(SM.getFileLoc(Range.getEnd()), 0, SM,
                                                  Ast.getLangOpts());
    if (B.isValid() && E.isValid() && SM.getFileID(B) == SM.getFileID(E) &&
        SM.getFileOffset(B) == F.Where.Offset &&
        SM.getSpellingLineNumber(B) == SM.getSpellingLineNumber(E) &&
        SM.getFileOffset(E) > SM.getFileOffset(B))
      F.RangeLength = SM.getFileOffset(E) - SM.getFileOffset(B);
  }

  if (Taint) {
    F.SizeOfSelection = Taint->SizeOfSelection;
    F.FromSelection = Taint->FromSelection;
    F.ThroughControl = Taint->ThroughControl;
    // Walk back from the use to the read: the latest step first, the tensor read last.
    for (size_t I = Taint->Steps.size(); I-- > 0;) {
      SourceLocation L = I < Taint->StepLocs.size() ? Taint->StepLocs[I] : SourceLocation();
      if (L.isInvalid() && Taint->Steps[I].first)
        L = Taint->Steps[I].first->getBeginLoc();
      if (L.isValid())
        F.Notes.push_back({point(L), Taint->Steps[I].second});
    }
    if (const PortableOrigin *Elsewhere = Taint->Imported) {
      // The read happened in another translation unit: its steps there, then the read.
      for (size_t I = Elsewhere->Steps.size(); I-- > 0;)
        F.Notes.push_back(Elsewhere->Steps[I]);
      F.Notes.push_back({Elsewhere->Read, Elsewhere->FromSelection ? SelectionNote : ReadNote});
    }
    SourceLocation S = Taint->SourceLoc.isValid()
                           ? Taint->SourceLoc
                           : (Taint->Source ? Taint->Source->getExprLoc() : SourceLocation());
    if (S.isValid()) {
      F.ReadAt = point(S);
      F.Notes.push_back({F.ReadAt, Taint->FromSelection ? SelectionNote : ReadNote});
    }
  }
  Out.Findings.push_back(std::move(F));
  Out.Anchors.push_back(Anchor);
  return true;
}

bool AnalysisContext::reportConstruct(const CheckInfo &Check, SourceLocation Caret, std::string Message,
                                      const Stmt &Construct, Finding::ConstructKind Kind,
                                      const TracedOrigin *Taint, SourceRange Range) {
  if (!report(Check, Caret, std::move(Message), &Construct, Taint, Range))
    return false;
  const SourceManager &SM = Ast.getSourceManager();
  SourceLocation B = SM.getFileLoc(Construct.getBeginLoc());
  SourceLocation E = Lexer::getLocForEndOfToken(SM.getFileLoc(Construct.getEndLoc()), 0, SM, Ast.getLangOpts());
  Finding &F = Out.Findings.back();
  if (B.isInvalid() || E.isInvalid() || SM.getFileID(B) != SM.getFileID(E))
    return true;
  F.Construct = Kind;
  F.FoldBegin = SM.getFileOffset(B);
  F.FoldEnd = SM.getFileOffset(E);
  return true;
}

} // namespace graphify
