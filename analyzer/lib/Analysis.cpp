// The analysis pipeline of one translation unit: pick the function bodies of reported files,
// find the graph regions, run the taint analysis over all those bodies (regions and the
// helpers they share state with), then let each enabled check report. Invariant: the checks
// only read facts; nothing a check does changes what another check sees.
#include "graphify/analyzer/Analysis.h"

#include "CallerConstants.h"
#include "FoldConstructs.h"
#include "ValueUses.h"
#include "CaptureFlags.h"
#include "IdleGuards.h"
#include "checks/HostOnlyTensors.h"

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"
#include "graphify/analyzer/GraphRegions.h"
#include "graphify/analyzer/TaintAnalysis.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace graphify {

using namespace clang;

namespace {

/// Collects function definitions (template instantiations included) of one top-level decl.
class DefinitionCollector : public RecursiveASTVisitor<DefinitionCollector> {
public:
  explicit DefinitionCollector(std::vector<const FunctionDecl *> &Out) : Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit() || FD->isDeleted() ||
        FD->isDefaulted())
      return true;
    // Lambdas are analyzed where they are written, in the state they capture; only a lambda
    // written outside any function (a namespace-scope variable) is a body of its own.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->getParent()->isLambda() &&
        MD->getParent()->getDeclContext()->isFunctionOrMethod())
      return true;
    if (FD->isDependentContext() && hasInstantiations(FD)) {
      // The instantiations stand for the pattern. The traversal reaches them from the template's
      // first declaration only, which may lie in a header that is not checked (a template
      // declared there, defined and explicitly instantiated in this file): take them from the
      // definition too (the collection keeps each body once).
      addInstantiationsOf(FD);
      return true;
    }
    Out.push_back(FD);
    return true;
  }

  // The traversal does not reach a closure's call operator as a declaration; a lambda written
  // at namespace scope (`static auto f = [](...) {...};`) is picked up here.
  bool VisitLambdaExpr(LambdaExpr *LE) {
    const CXXMethodDecl *Call = LE->getCallOperator();
    if (Call && !LE->getLambdaClass()->getDeclContext()->isFunctionOrMethod())
      VisitFunctionDecl(const_cast<CXXMethodDecl *>(Call));
    return true;
  }

private:
  std::vector<const FunctionDecl *> &Out;

  /// The instantiated bodies whose pattern is the definition `FD`: the specializations of its
  /// function template, the members instantiated from it in the specializations of the class
  /// templates around it.
  void addInstantiationsOf(const FunctionDecl *FD) {
    auto Add = [&](const FunctionDecl *Spec) {
      if (Spec && Spec->doesThisDeclarationHaveABody() && Spec->getTemplateInstantiationPattern() == FD)
        Out.push_back(Spec);
    };
    if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate()) {
      for (const FunctionDecl *Spec : FT->specializations())
        Add(Spec);
      return;
    }
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    const ClassTemplateDecl *CT = MD ? MD->getParent()->getDescribedClassTemplate() : nullptr;
    if (!CT)
      return;
    for (const ClassTemplateSpecializationDecl *Spec : CT->specializations())
      for (const Decl *Member : Spec->decls()) {
        if (const auto *Method = dyn_cast<CXXMethodDecl>(Member))
          Add(Method->getDefinition());
        else if (const auto *MT = dyn_cast<FunctionTemplateDecl>(Member))
          for (const FunctionDecl *S : MT->specializations())
            Add(S);
      }
  }

  static bool hasInstantiations(const FunctionDecl *FD) {
    if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate())
      if (!FT->specializations().empty())
        return true;
    for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
        if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
          if (!CT->specializations().empty())
            return true;
    return false;
  }
};

bool acceptedFile(const SourceManager &SM, const AnalysisConfig &Config, SourceLocation Loc) {
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  if (FileLoc.isInvalid() || SM.isInSystemHeader(FileLoc))
    return false;
  if (SM.isInMainFile(FileLoc))
    return true;
  if (Config.IsFileAnalysed)
    return Config.IsFileAnalysed(SM.getFilename(FileLoc));
  if (!Config.IsFileReported)
    return false;
  return Config.IsFileReported(SM.getFilename(FileLoc));
}

/// Whether `N` is the top-level namespace of a library the rule packs model (`at`, `torch`,
/// `c10` of a flavor's tensor types, `cv` of the host arrays): its code is the library's, known
/// from the packs, not the project's to interpret. A header filter that selects its headers (a
/// `-I` folder of OpenCV, `--header-filter='.*'`) shows findings there; it must not replace the
/// packs' model of the library with the library's inline bodies (cv::Mat's constructors and
/// `at<T>()`, which lost the pixels a host copy wrote).
bool isModelledLibraryNamespace(const NamespaceDecl &N, const RuleSet &Rules) {
  if (!isa<TranslationUnitDecl>(N.getDeclContext()->getRedeclContext()) || !N.getIdentifier())
    return false;
  auto Outermost = [](llvm::StringRef Qualified) { return Qualified.ltrim(':').split("::").first; };
  llvm::StringRef Name = N.getName();
  for (const std::string &Array : Rules.hostArrays())
    if (Outermost(Array) == Name)
      return true;
  for (const ApiFlavor &F : Rules.flavors())
    for (const std::string &T : F.TensorTypes)
      if (Outermost(T) == Name)
        return true;
  return false;
}

void collect(const DeclContext *DC, const SourceManager &SM, const AnalysisConfig &Config,
             std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (const auto *N = dyn_cast<NamespaceDecl>(D); N && Config.Rules && isModelledLibraryNamespace(*N, *Config.Rules))
      continue;
    // Namespaces and extern blocks span files; their members are filtered one by one, so
    // that the (large) tensor library headers are never traversed.
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
      collect(cast<DeclContext>(D), SM, Config, Out);
      continue;
    }
    if (!acceptedFile(SM, Config, D->getLocation()))
      continue;
    DefinitionCollector(Out).TraverseDecl(const_cast<Decl *>(D));
  }
}

} // namespace

class UnitAnalysis::Impl {
public:
  Impl(ASTContext &Ctx, const AnalysisConfig &Config) : Ctx(Ctx), Config(Config) {
    if (!Config.Rules)
      return;
    collect(Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(), Config, Functions);
    // Instantiations may be visited from several places; keep each body once.
    llvm::DenseSet<const FunctionDecl *> Unique;
    llvm::erase_if(Functions, [&](const FunctionDecl *FD) { return !Unique.insert(FD).second; });
  }

  UnitFacts analyze(const ProgramFacts *Program) {
    UnitFacts Out;
    if (!Config.Rules)
      return Out;
    WholeProgram = Program != nullptr;
    CallerConstantsScope Constants(Ctx, WholeProgram);
    Facts = std::make_shared<TaintFacts>(*Config.Rules);
    Facts->setStaticBounds(Config.StaticBounds);
    GraphRegionFinder Finder(Facts->api(), Config.GraphRegionGlobs);
    Finder.importFrom(Program, &Out.Lookups);
    Regions = Finder.find(Functions);
    MatchedGlobs = Finder.matchedGlobs();
    bool All = Config.ScopeKind == Scope::All;
    TaintAnalysis Taint(Ctx, *Facts, [&](const Decl *D) { return All || Regions.contains(D); });
    Taint.importFrom(Program, &Out.Lookups);
    Taint.run(Functions);
    if (Program)
      exportFacts(Taint, Out);
    return Out;
  }

  /// A project's function that writes out the NMS kernel is one finding where region code calls
  /// it (graphify-dynamic-shape), and its body is not region code. Called on host copies only
  /// (`nms(boxes.cpu(), ...)`, the copy is the finding), it is host work whose loops and
  /// branches follow the data like the rest of what runs after the copy: its body joins the
  /// regions, and reports them. The cuda-graph profile only: a trace reports the call.
  void addHostSuppressionKernels(const AnalysisContext &Context) {
    if (Config.ProfileKind == Profile::Trace)
      return;
    const ApiResolver &Api = Context.api();
    llvm::DenseMap<const FunctionDecl *, bool> OnHostOnly;
    Context.forEachRegionApiCall([&](const ApiCall &Call) {
      const FunctionDecl *Def = nullptr;
      if (!Call.Callee || !Call.Callee->hasBody(Def) || Api.isLibraryDecl(Def) || !Api.suppressionKernel(Def))
        return;
      auto [It, New] = OnHostOnly.try_emplace(Def, true);
      It->second = It->second && readsHostCopiesOnly(Call, Context);
    });
    for (const auto &[Def, HostOnly] : OnHostOnly)
      if (HostOnly && llvm::is_contained(Functions, Def))
        Regions.insert(Def);
  }

  const std::set<std::string> &matchedGlobs() const { return MatchedGlobs; }

  std::set<std::string> matchedBounds() const {
    std::set<std::string> Matched;
    for (const FunctionDecl *FD : Functions)
      for (const StaticBound &B : Config.StaticBounds)
        if (staticBoundNamesVariable(FD, B))
          Matched.insert(B.Function + "::" + B.Name);
    return Matched;
  }

  AnalysisResult check() {
    AnalysisResult Result;
    if (!Facts)
      return Result;
    CallerConstantsScope Constants(Ctx, WholeProgram);
    Result.Facts = Facts;
    Result.MatchedRegionGlobs = MatchedGlobs;
    checkStaticBounds(Result);
    noteUncheckedCode(Result);
    AnalysisContext Context(Ctx, Config, *Facts, Regions, Functions, Result);
    addHostSuppressionKernels(Context);
    for (const std::unique_ptr<Check> &C : createChecks()) {
      const CheckInfo &Info = C->info();
      if (Config.IsCheckEnabled && !Config.IsCheckEnabled(Info.Id))
        continue;
      if (Config.ProfileKind == Profile::Trace && !Info.InTraceProfile)
        continue;
      C->run(Context);
    }
    linkValueUses(Result);
    foldConstructs(Result);

    // The one filter and the one sort of the finding path: a check may report under another
    // check's id, so findings are kept by their own id and profile; then source order (check id
    // and message break ties), keeping Anchors parallel. Consumers (graphify-lint's pipeline, the
    // clang-tidy module, the rewriter) neither filter by check nor sort again.
    // Under the cuda-graph profile, code that runs only when a capture status query says no
    // capture is running is never captured, whichever check found it there.
    IdleGuards Guards(Context.api(), &Regions.importedIdleHelpers(), &Regions.importedSetterCalls(),
                      &Regions.importedFlagRecords());
    const bool Capturing = Config.ProfileKind == Profile::CudaGraph;
    llvm::DenseSet<const Stmt *> CapturedCalls;
    if (Capturing) {
      Context.forEachRegionStmt([&](const Stmt &S) {
        if (isa<CallExpr>(S))
          CapturedCalls.insert(&S);
      });
      Guards.followParameters(Ctx, Regions.wholeProgram(),
                              [&](const CallExpr &CE) { return CapturedCalls.contains(&CE); });
    }
    std::vector<size_t> Order;
    for (size_t I = 0; I < Result.Findings.size(); ++I)
      if (reported(Result.Findings[I].CheckId) &&
          !(Capturing && Result.Anchors[I] && Guards.runsOnlyWhenIdle(*Result.Anchors[I], Ctx)))
        Order.push_back(I);
    std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      const Finding &X = Result.Findings[A], &Y = Result.Findings[B];
      return std::tie(X.Where.File, X.Where.Offset, X.CheckId, X.Message) <
             std::tie(Y.Where.File, Y.Where.Offset, Y.CheckId, Y.Message);
    });
    AnalysisResult Sorted;
    Sorted.Facts = Result.Facts;
    Sorted.MatchedRegionGlobs = std::move(Result.MatchedRegionGlobs);
    Sorted.MatchedStaticBounds = std::move(Result.MatchedStaticBounds);
    Sorted.AnnotationProblems = std::move(Result.AnnotationProblems);
    Sorted.UncheckedCode = std::move(Result.UncheckedCode);
    for (size_t I : Order) {
      Sorted.Findings.push_back(std::move(Result.Findings[I]));
      Sorted.Anchors.push_back(Result.Anchors[I]);
    }
    return Sorted;
  }

private:
  ASTContext &Ctx;
  const AnalysisConfig &Config;

  /// Whether findings of `CheckId` are reported: the check is enabled and, under the trace
  /// profile, one that changes traced results.
  bool reported(llvm::StringRef CheckId) const {
    if (Config.IsCheckEnabled && !Config.IsCheckEnabled(CheckId))
      return false;
    const CheckInfo *C = Config.ProfileKind == Profile::Trace ? findCheck(CheckId) : nullptr;
    return !C || C->InTraceProfile;
  }

  /// Which configured bounds name a variable here, and which annotated ones are malformed: a bound
  /// that names nothing would silently leave its loop unbounded.
  void checkStaticBounds(AnalysisResult &Result) const {
    const SourceManager &SM = Ctx.getSourceManager();
    Result.MatchedStaticBounds = matchedBounds();
    for (const FunctionDecl *FD : Functions) {
      std::string Problem = staticBoundAnnotationProblem(FD);
      if (Problem.empty())
        continue;
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(FD->getLocation()));
      std::string Where = P.isValid() ? std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
                                            std::to_string(P.getColumn()) + ": "
                                      : std::string();
      if (!llvm::is_contained(Result.AnnotationProblems, Where + Problem))
        Result.AnnotationProblems.push_back(Where + Problem);
    }
  }
  /// The region calls whose targets graphify cannot see, in reported files (as findings are).
  void noteUncheckedCode(AnalysisResult &Result) const {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const GraphRegions::UncheckedNote &U : Regions.uncheckedCode()) {
      if (!acceptedFile(SM, Config, U.Loc))
        continue;
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(U.Loc));
      if (P.isInvalid())
        continue;
      // One note per call site, however many template instantiations make the call.
      std::string Where = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
                          std::to_string(P.getColumn()) + ": ";
      if (llvm::none_of(Result.UncheckedCode, [&](const std::string &L) { return llvm::StringRef(L).starts_with(Where); }))
        Result.UncheckedCode.push_back(Where + U.Message);
    }
  }
  std::vector<const FunctionDecl *> Functions;
  std::shared_ptr<TaintFacts> Facts;
  /// Whether analyze() was given the program's facts (CallSites' whole-program mode).
  bool WholeProgram = false;
  GraphRegions Regions;
  std::set<std::string> MatchedGlobs;

  /// The regions among this TU's functions, and the functions of the analysed files that region
  /// code calls without a body here: those are regions of the TU that defines them.
  void exportFacts(const TaintAnalysis &Taint, UnitFacts &Out) {
    Taint.exportTo(Out, Functions);
    auto Note = [&](const FunctionDecl *FD, bool Relaxed) {
      std::string Usr = usrOf(FD);
      if (Usr.empty())
        return;
      RegionKind &K = Out.Regions[Usr];
      K = std::max(K, Relaxed ? RegionKind::Relaxed : RegionKind::Strict);
    };
    for (const FunctionDecl *FD : Functions)
      if (Regions.contains(FD))
        Note(FD, Regions.isRelaxed(FD));
    for (const auto &[FD, Effect] : Regions.captureEffects().all())
      if (std::string Usr = usrOf(FD); !Usr.empty())
        Out.Captures[Usr] = Effect;
    for (const auto &[Base, Effect] : Regions.captureEffects().byOverriddenMethod())
      if (std::string Usr = usrOf(Base); !Usr.empty())
        Out.VirtualCaptures[Usr] = Effect;
    Out.Callables = Regions.callableFacts();
    IdleGuards Guards(Facts->api(), nullptr, &Regions.importedSetterCalls(), &Regions.importedFlagRecords());
    for (const FunctionDecl *FD : Functions)
      if (std::optional<bool> Idle = Guards.helperMeansIdle(FD))
        if (std::string Usr = usrOf(FD); !Usr.empty())
          Out.IdleHelpers[Usr] = *Idle;
    // The unit's calls of functions shaped as flag setters, for the units that define them.
    const CaptureFlags Flags(Facts->api(), Ctx, &Regions.importedSetterCalls());
    for (const auto &[FD, W] : Flags.setterCalls())
      if (std::string Usr = usrOf(FD); !Usr.empty())
        Out.SetterCalls[Usr].join(W);
    // Its writes of flag candidates (its setters' calls elsewhere joined), for the units that test them.
    for (const auto &[D, W] : Flags.records())
      if (std::string Usr = usrOf(D); !Usr.empty())
        Out.FlagRecords[Usr].join(W);
    // Wherever the callee is declared (a header beside the sources, or in the project's
    // include/ directory, which is not under the directory of the linted files): the unit that
    // defines it knows it by its USR. The tensor library and system headers define none.
    const SourceManager &SM = Ctx.getSourceManager();
    for (const auto &[FD, Relaxed] : Regions.calledWithoutBody())
      if (!SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())) && !Facts->api().isLibraryDecl(FD))
        Note(FD, Relaxed);
  }
};

UnitAnalysis::UnitAnalysis(ASTContext &Ctx, const AnalysisConfig &Config)
    : P(std::make_unique<Impl>(Ctx, Config)) {}
UnitAnalysis::~UnitAnalysis() = default;
UnitFacts UnitAnalysis::analyze(const ProgramFacts *Program) { return P->analyze(Program); }
AnalysisResult UnitAnalysis::check() { return P->check(); }
std::set<std::string> UnitAnalysis::matchedRegionGlobs() const { return P->matchedGlobs(); }
std::set<std::string> UnitAnalysis::matchedStaticBounds() const { return P->matchedBounds(); }

AnalysisResult analyzeTranslationUnit(ASTContext &Ctx, const AnalysisConfig &Config) {
  UnitAnalysis Unit(Ctx, Config);
  Unit.analyze(Config.Program);
  return Unit.check();
}

} // namespace graphify
