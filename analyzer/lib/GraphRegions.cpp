// Graph regions. Invariant: a body is a region only if a seed reaches it through direct calls,
// constructor calls, lambda calls or function references written in region code, so that code
// which merely shares a file with a model (a training loop, logging, data loading) is never
// reported under --scope=graph.
#include "graphify/analyzer/GraphRegions.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/GlobPattern.h>

namespace graphify {

using namespace clang;

static const Decl *canon(const Decl *D) { return D ? D->getCanonicalDecl() : nullptr; }

bool GraphRegions::contains(const Decl *D) const { return D && Bodies.contains(canon(D)); }
bool GraphRegions::insert(const Decl *D) { return D && Bodies.insert(canon(D)).second; }
bool GraphRegions::isRelaxed(const Decl *D) const { return D && RelaxedBodies.contains(canon(D)); }
void GraphRegions::markRelaxed(const Decl *D) { RelaxedBodies.insert(canon(D)); }

llvm::ArrayRef<CaptureWindow> GraphRegions::windowsOf(const Decl *Function) const {
  auto It = Windows.find(canon(Function));
  if (It == Windows.end())
    return {};
  return It->second;
}
void GraphRegions::addWindow(const CaptureWindow &W) { Windows[canon(W.Function)].push_back(W); }

void GraphRegions::noteCalledWithoutBody(const FunctionDecl *FD, bool Relaxed) {
  auto [It, New] = Unresolved.try_emplace(FD->getCanonicalDecl(), Relaxed);
  if (!New)
    It->second = It->second && Relaxed; // strict wins
}

RegionKind GraphRegionFinder::importedRegion(const FunctionDecl *FD) const {
  if (!Program)
    return RegionKind::None;
  std::string Usr = usrOf(FD);
  if (Usr.empty())
    return RegionKind::None;
  if (Lookups)
    Lookups->insert("R:" + Usr);
  return Program->region(Usr);
}

bool GraphRegionFinder::isAnnotatedRegion(const Decl *D) {
  if (!D)
    return false;
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == "graphify.graph_region")
      return true;
  // Instantiations carry the pattern's attributes, but look there too for member templates.
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern(); Pattern && Pattern != FD)
      return isAnnotatedRegion(Pattern);
  return false;
}

bool GraphRegionFinder::isHostEpilogue(const Decl *D) {
  if (!D)
    return false;
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == "graphify.host_epilogue")
      return true;
  const ASTContext &Ctx = D->getASTContext();
  for (const Decl *R : D->redecls())
    if (const RawComment *C = Ctx.getRawCommentForDeclNoCache(R))
      if (llvm::StringRef(C->getRawText(Ctx.getSourceManager())).ltrim("/*! \t").starts_with("graphify: host epilogue"))
        return true;
  return false;
}

bool GraphRegionFinder::matchesGlob(const FunctionDecl *FD) const {
  if (Globs.empty())
    return false;
  std::string Name = FD->getQualifiedNameAsString();
  bool Any = false;
  for (const std::string &G : Globs) {
    auto Pattern = compileGlob(G);
    if (!Pattern) { // refused by the option and config parsers before it gets here
      llvm::consumeError(Pattern.takeError());
      continue;
    }
    if (Pattern->match(Name)) {
      Matched.insert(G); // every glob that names it, for the report of globs that name nothing
      Any = true;
    }
  }
  return Any;
}

bool GraphRegionFinder::isSeed(const FunctionDecl *FD) const {
  const bool Named = matchesGlob(FD);
  if (Named || isAnnotatedRegion(FD))
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && MD->isInstance() && MD->getIdentifier() && MD->getName() == "forward")
    return Api.moduleFlavor(MD->getParent()) != nullptr;
  return false;
}

namespace {

/// The bodies one body can transfer control to, and the region seeds written inside it
/// (callables handed to capture entries, annotated lambda variables).
class EdgeCollector : public RecursiveASTVisitor<EdgeCollector> {
public:
  EdgeCollector(const ApiResolver &Api) : Api(Api) {}
  /// Collects only what is written inside `W` (the callees of a capture window).
  EdgeCollector(const ApiResolver &Api, const CaptureWindow &W, const SourceManager &SM)
      : Api(Api), Window(&W), SM(&SM) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  std::vector<const Decl *> Callees;
  std::vector<const Decl *> Seeds;
  /// Lambdas written in the body: they are part of it when it is a region.
  std::vector<const Decl *> Nested;

  bool VisitCallExpr(CallExpr *CE) {
    if (!inWindow(CE))
      return true;
    auto C = Api.resolve(CE);
    // A function the packs describe is checked by its description (its tags, reported at the
    // call), not by its body: a project's own op declared in its pack (an NMS written with host
    // loops) is one finding where it is called, and its body is not a region.
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      if (C && !C->Entries.empty())
        Described.insert(FD->getCanonicalDecl());
      else
        Callees.push_back(FD);
    }
    if (C)
      if (const ApiEntry *E = C->entryWithTag("capture_entry"))
        for (unsigned Pos : E->CallableArgs)
          if (const Expr *Arg = C->arg(Pos))
            if (const Decl *Body = callableBody(Arg))
              Seeds.push_back(Body);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (CE->getConstructor() && inWindow(CE))
      Callees.push_back(CE->getConstructor());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
        FD && inWindow(DRE) && !Described.count(FD->getCanonicalDecl()))
      Callees.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    if (!inWindow(LE))
      return true;
    Nested.push_back(LE->getCallOperator());
    if (GraphRegionFinder::isAnnotatedRegion(LE->getCallOperator()))
      Seeds.push_back(LE->getCallOperator());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    // `GRAPHIFY_GRAPH_REGION auto step = [&] { ... };`
    if (!Window && GraphRegionFinder::isAnnotatedRegion(VD) && VD->getInit())
      if (const Decl *Body = callableBody(VD->getInit()))
        Seeds.push_back(Body);
    return true;
  }

  /// The body a callable argument runs: a lambda, a function, or a variable holding a lambda.
  static const Decl *callableBody(const Expr *E) {
    E = skipValueWrappers(E);
    // A lambda converted to std::function (gfy::capture takes one) is the constructor's argument.
    for (unsigned Depth = 0; Depth < 4; ++Depth) {
      const auto *CE = dyn_cast<CXXConstructExpr>(E);
      if (!CE || CE->getNumArgs() == 0)
        break;
      E = skipValueWrappers(CE->getArg(0));
    }
    if (const auto *LE = dyn_cast<LambdaExpr>(E))
      return LE->getCallOperator();
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
        return FD;
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (const Expr *Init = VD->getInit())
          if (const auto *LE = dyn_cast<LambdaExpr>(skipValueWrappers(Init)))
            return LE->getCallOperator();
    }
    return nullptr;
  }

private:
  const ApiResolver &Api;
  /// Callees of calls that the packs describe (visited before the callee's reference).
  llvm::DenseSet<const Decl *> Described;
  const CaptureWindow *Window = nullptr;
  const SourceManager *SM = nullptr;

  bool inWindow(const Stmt *S) const { return !Window || Window->contains(S->getBeginLoc(), *SM); }
};

} // namespace

void GraphRegionFinder::addWindowSeeds(const FunctionDecl &FD, GraphRegions &Regions,
                                       std::vector<const Decl *> &Strict,
                                       std::vector<const Decl *> &Relaxed) const {
  const SourceManager &SM = FD.getASTContext().getSourceManager();
  for (const CaptureWindow &W : findCaptureWindows(FD, Api, SM)) {
    Regions.addWindow(W);
    EdgeCollector C(Api, W, SM);
    C.TraverseStmt(FD.getBody());
    std::vector<const Decl *> &Into = W.Relaxed ? Relaxed : Strict;
    for (const std::vector<const Decl *> *List : {&C.Callees, &C.Nested, &C.Seeds})
      Into.insert(Into.end(), List->begin(), List->end());
  }
}

GraphRegions GraphRegionFinder::find(llvm::ArrayRef<const FunctionDecl *> Functions) const {
  // Bodies we can see: the analyzed functions and every lambda written in them. Seeds reached
  // only from relaxed capture windows are walked last, so that what strict seeds reach stays
  // strict.
  std::vector<const Decl *> RelaxedWork;
  llvm::DenseMap<const Decl *, const Stmt *> BodyOf;
  llvm::DenseMap<const Decl *, EdgeCollector> Edges;
  std::vector<const Decl *> Work;
  GraphRegions Regions;
  llvm::DenseSet<const Decl *> Epilogues;

  for (const FunctionDecl *FD : Functions) {
    BodyOf[canon(FD)] = FD->getBody();
    EdgeCollector C(Api);
    C.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        C.TraverseStmt(Init->getInit());
    for (const Decl *L : C.Nested)
      BodyOf[canon(L)] = cast<FunctionDecl>(L)->getBody();
    RegionKind Imported = importedRegion(FD);
    if (isSeed(FD) || Imported == RegionKind::Strict)
      Work.push_back(FD);
    else if (Imported == RegionKind::Relaxed)
      RelaxedWork.push_back(FD);
    for (const Decl *S : C.Seeds)
      Work.push_back(S);
    Edges.try_emplace(canon(FD), std::move(C));
    addWindowSeeds(*FD, Regions, Work, RelaxedWork);
  }

  // Lambda bodies' edges are included in their enclosing function's collector; a lambda that
  // is a region on its own (captured) needs its own edges, collected lazily.
  auto EdgesOf = [&](const Decl *D) -> const EdgeCollector & {
    auto It = Edges.find(canon(D));
    if (It != Edges.end())
      return It->second;
    EdgeCollector C(Api);
    if (const Stmt *Body = BodyOf.lookup(canon(D)))
      C.TraverseStmt(const_cast<Stmt *>(Body));
    return Edges.try_emplace(canon(D), std::move(C)).first->second;
  };

  auto Close = [&](std::vector<const Decl *> &Pending, bool Relaxed) {
    while (!Pending.empty()) {
      const Decl *D = Pending.back();
      Pending.pop_back();
      if (!BodyOf.count(canon(D))) {
        if (const auto *FD = dyn_cast<FunctionDecl>(D))
          Regions.noteCalledWithoutBody(FD, Relaxed);
        continue;
      }
      if (isHostEpilogue(D)) {
        // Host code between the caller and the core: not checked, but what it calls is.
        if (!Epilogues.insert(canon(D)).second)
          continue;
      } else if (!Regions.insert(D)) {
        continue;
      }
      if (Relaxed)
        Regions.markRelaxed(D);
      const EdgeCollector &C = EdgesOf(D);
      for (const Decl *Callee : C.Callees)
        Pending.push_back(Callee);
      for (const Decl *L : C.Nested)
        Pending.push_back(L);
    }
  };
  Close(Work, /*Relaxed=*/false);
  Close(RelaxedWork, /*Relaxed=*/true);
  return Regions;
}

} // namespace graphify
