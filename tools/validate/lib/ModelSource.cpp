// One parse serves both entry discovery and the rewrite, because parsing a model through the
// tensor headers is the expensive step and the two must agree on what the file declares. That
// parse is graphify-lint's own pipeline (lintTranslationUnit), so the validator proves exactly the
// fixes a user of `graphify-lint --fix` gets. The AST dies inside it: everything kept is plain
// data (names, lines, rewritten text).
#include "graphify/validate/ModelSource.h"

#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/ReportedPaths.h"
#include "graphify/rewriter/FixApplication.h"
#include "graphify/rules/RuleSet.h"
#include "graphify/validate/EntrySpec.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdlib>
#include <sstream>

namespace graphify::validate {

std::string clangResourceDir() {
  if (const char *Env = std::getenv("GRAPHIFY_CLANG_RESOURCE_DIR"); Env && *Env)
    return Env;
  return GRAPHIFY_CLANG_RESOURCE_DIR;
}

bool EntryDecl::runsLine(unsigned L) const {
  return llvm::any_of(CodeLines, [&](const std::pair<unsigned, unsigned> &R) { return R.first <= L && L <= R.second; });
}

std::vector<std::pair<unsigned, std::string>> RewriteSummary::inEntry(
    const EntryDecl &D, const std::vector<std::pair<unsigned, std::string>> &Items) {
  std::vector<std::pair<unsigned, std::string>> Out;
  for (const auto &Item : Items)
    // Two findings on one statement (host sync + branch) carry the same fix: listed once.
    if (D.runsLine(Item.first) && !llvm::is_contained(Out, Item))
      Out.push_back(Item);
  return Out;
}

llvm::Error checkModelFile(const std::string &Path) {
  auto Fail = [&](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "error: '" + Path + "' " + Why);
  };
  // stat, never open: opening a FIFO blocks until a writer comes, and a device reads forever.
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    if (EC == std::errc::no_such_file_or_directory)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "error: no such file: '" + Path + "'");
    return Fail("cannot be read: " + EC.message());
  }
  switch (Status.type()) {
  case llvm::sys::fs::file_type::regular_file: break;
  case llvm::sys::fs::file_type::directory_file: return Fail("is not a source file (a directory)");
  case llvm::sys::fs::file_type::fifo_file: return Fail("is not a source file (not a regular file: a FIFO)");
  case llvm::sys::fs::file_type::character_file:
    return Fail("is not a source file (not a regular file: a character device)");
  case llvm::sys::fs::file_type::block_file: return Fail("is not a source file (not a regular file: a block device)");
  case llvm::sys::fs::file_type::socket_file: return Fail("is not a source file (not a regular file: a socket)");
  default: return Fail("is not a source file (not a regular file)");
  }
  if (Status.getSize() > MaxModelFileBytes)
    return Fail("is not a model source: " + llvm::Twine(Status.getSize() >> 20) + " MiB, over the limit of " +
                llvm::Twine(MaxModelFileBytes >> 20) + " MiB");
  return llvm::Error::success();
}

const EntryDecl *ModelInfo::find(const std::string &Name) const {
  for (const EntryDecl &D : Decls)
    if (D.Name == Name || D.CallName == Name || "::" + D.CallName == Name)
      return &D;
  return nullptr;
}

std::vector<const EntryDecl *> ModelInfo::annotated() const {
  std::vector<const EntryDecl *> Out;
  for (const EntryDecl &D : Decls)
    if (D.SpecText)
      Out.push_back(&D);
  return Out;
}

namespace {

using namespace clang;

/// `a::b::Name`, skipping anonymous and inline namespaces (both are found by qualified lookup
/// from the global scope, which is where the harness calls the entry).
std::string callName(const NamedDecl *D) {
  std::string Name = D->getNameAsString();
  for (const DeclContext *C = D->getDeclContext(); C && !C->isTranslationUnit(); C = C->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(C)) {
      if (NS->isAnonymousNamespace() || NS->isInline())
        continue;
      Name = NS->getNameAsString() + "::" + Name;
    } else if (const auto *RD = dyn_cast<RecordDecl>(C)) {
      Name = RD->getNameAsString() + "::" + Name;
    }
  }
  return Name;
}

/// `forward` declared in the class, inherited, or (for a TORCH_MODULE holder) in the held
/// implementation class `ModuleHolder<Impl>`.
const CXXMethodDecl *findForward(const CXXRecordDecl *RD, unsigned Depth = 0) {
  if (!RD || !RD->hasDefinition() || Depth > 8)
    return nullptr;
  RD = RD->getDefinition();
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getDeclName().isIdentifier() && M->getName() == "forward")
      return M;
  for (const CXXBaseSpecifier &B : RD->bases()) {
    const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Base)) {
      if (Spec->getSpecializedTemplate()->getName() == "ModuleHolder" && Spec->getTemplateArgs().size() >= 1 &&
          Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        if (const CXXMethodDecl *F =
                findForward(Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl(), Depth + 1))
          return F;
    }
    if (const CXXMethodDecl *F = findForward(Base, Depth + 1))
      return F;
  }
  return nullptr;
}

/// Whether the harness can serialise a value of type `T`: a tensor, a number, or a tuple, pair
/// or vector of those. Unknown (dependent, undeduced) types are given the benefit of the doubt.
bool serialisable(QualType T, unsigned Depth = 0) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (Depth > 8 || T->isDependentType() || T->isUndeducedType())
    return true;
  if (T->isArithmeticType())
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  if (RD->getName() == "Tensor")
    return true;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() ||
      !llvm::is_contained(std::initializer_list<llvm::StringRef>{"tuple", "pair", "vector"}, RD->getName()))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  const unsigned Elements = RD->getName() == "vector" ? 1 : Args.size(); // vector's allocator is not an element
  for (unsigned I = 0; I < Elements; ++I) {
    const TemplateArgument &A = Args[I];
    if (A.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &P : A.pack_elements())
        if (P.getKind() != TemplateArgument::Type || !serialisable(P.getAsType(), Depth + 1))
          return false;
    } else if (A.getKind() != TemplateArgument::Type || !serialisable(A.getAsType(), Depth + 1)) {
      return false;
    }
  }
  return true;
}

void describeParams(const FunctionDecl *F, EntryDecl &E) {
  const FunctionDecl *Def = F->getDefinition() ? F->getDefinition() : F;
  if (!serialisable(Def->getReturnType()))
    E.UnsupportedReturn = Def->getReturnType().getAsString(Def->getASTContext().getPrintingPolicy());
  unsigned I = 0;
  for (const ParmVarDecl *P : F->parameters()) {
    std::string Name = P->getNameAsString();
    E.Params.push_back(Name.empty() ? "arg" + std::to_string(I) : Name);
    std::string Type = P->getType().getNonReferenceType().getUnqualifiedType().getAsString();
    E.ParamIsTensor.push_back(Type.find("Tensor") != std::string::npos);
    ++I;
  }
  E.RequiredParams = F->getMinRequiredArguments();
}

/// The lines of the code an entry runs: the bodies of its roots (the function, or `forward` and the
/// default constructor) and of every function of the main file they call, transitively. A fix is
/// the entry's when it lies on one of these lines; the entries of one file share none of them
/// unless they share a callee.
class EntryCode : public RecursiveASTVisitor<EntryCode> {
public:
  explicit EntryCode(const SourceManager &SM) : SM(SM) {}

  void addRoot(const FunctionDecl *FD) { add(FD); }
  std::vector<std::pair<unsigned, unsigned>> lines() {
    while (!Pending.empty()) {
      const FunctionDecl *FD = Pending.back();
      Pending.pop_back();
      TraverseStmt(FD->getBody());
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          TraverseStmt(Init->getInit());
    }
    return Lines;
  }

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCallExpr(CallExpr *E) {
    add(E->getDirectCallee());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    add(E->getConstructor());
    return true;
  }
  /// A function named without being called here (a callback, a function pointer) may still run.
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    add(dyn_cast<FunctionDecl>(E->getDecl()));
    return true;
  }

private:
  void add(const FunctionDecl *FD) {
    if (!FD)
      return;
    if (const FunctionDecl *Def = FD->getDefinition())
      FD = Def;
    if (!FD->hasBody() || !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())) || !Seen.insert(FD).second)
      return;
    Lines.push_back({SM.getExpansionLineNumber(FD->getBeginLoc()), SM.getExpansionLineNumber(FD->getEndLoc())});
    Pending.push_back(FD);
  }

  const SourceManager &SM;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  std::vector<const FunctionDecl *> Pending;
  std::vector<std::pair<unsigned, unsigned>> Lines;
};

/// The default constructor the harness runs to make a module (`Impl()` for a holder), if the
/// class has one with a body in the model.
const CXXConstructorDecl *defaultConstructor(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  for (const CXXConstructorDecl *C : RD->getDefinition()->ctors())
    if (C->isDefaultConstructor())
      return C;
  return nullptr;
}

class EntryCollector : public RecursiveASTVisitor<EntryCollector> {
public:
  EntryCollector(ASTContext &Ctx, std::vector<EntryDecl> &Out) : Ctx(Ctx), SM(Ctx.getSourceManager()), Out(Out) {}

  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (!RD->isThisDeclarationADefinition() || RD->isImplicit() || RD->isLambda() ||
        RD->getDescribedClassTemplate() || isa<ClassTemplateSpecializationDecl>(RD) || RD->isDependentContext() ||
        !RD->getIdentifier() || !inMainFile(RD))
      return true;
    const CXXMethodDecl *Fwd = findForward(RD);
    if (!Fwd)
      return true;
    EntryDecl E;
    E.Name = RD->getNameAsString();
    E.CallName = callName(RD);
    E.Kind = EntryKind::Module;
    E.ForwardName = callName(Fwd->getParent()) + "::forward";
    E.Line = SM.getExpansionLineNumber(RD->getBeginLoc());
    EntryCode Code(SM);
    Code.addRoot(Fwd);
    Code.addRoot(defaultConstructor(Fwd->getParent()));
    E.CodeLines = Code.lines();
    describeParams(Fwd, E);
    Out.push_back(std::move(E));
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (isa<CXXMethodDecl>(FD) || !FD->doesThisDeclarationHaveABody() || FD->isTemplated() ||
        !FD->getIdentifier() || FD->isMain() || !inMainFile(FD))
      return true;
    EntryDecl E;
    E.Name = FD->getNameAsString();
    E.CallName = callName(FD);
    E.Kind = EntryKind::Function;
    E.ForwardName = E.CallName;
    E.Line = SM.getExpansionLineNumber(FD->getBeginLoc());
    EntryCode Code(SM);
    Code.addRoot(FD);
    E.CodeLines = Code.lines();
    describeParams(FD, E);
    Out.push_back(std::move(E));
    return true;
  }

private:
  bool inMainFile(const Decl *D) const { return SM.isInMainFile(SM.getExpansionLoc(D->getLocation())); }
  ASTContext &Ctx;
  SourceManager &SM;
  std::vector<EntryDecl> &Out;
};

/// Attaches each `// graphify-entry:` comment to the first declaration starting below it.
void attachComments(const std::string &Text, std::vector<EntryDecl> &Decls) {
  std::istringstream In(Text);
  std::string Line;
  for (unsigned No = 1; std::getline(In, Line); ++No) {
    unsigned Column = 0;
    std::optional<std::string> Spec = findEntryComment(Line, Column);
    if (!Spec)
      continue;
    EntryDecl *Best = nullptr;
    for (EntryDecl &D : Decls)
      if (D.Line > No && (!Best || D.Line < Best->Line))
        Best = &D;
    if (Best && !Best->SpecText) {
      Best->SpecText = *Spec;
      Best->SpecLine = No;
      Best->SpecColumn = Column;
    }
  }
}

} // namespace

llvm::Expected<ModelInfo> loadModel(const ModelLoadOptions &Opts) {
  ModelInfo M;
  M.Path = Opts.Path;
  if (llvm::Error E = checkModelFile(Opts.Path))
    return std::move(E);
  auto Buf = llvm::MemoryBuffer::getFile(Opts.Path);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "cannot read " + Opts.Path + ": " + Buf.getError().message());
  M.Text = (*Buf)->getBuffer().str();
  M.RewrittenText = M.Text;
  auto Rules = RuleSet::loadFromDirectory(Opts.RulesDir);
  if (!Rules)
    return Rules.takeError();

  clang::tooling::CompileCommand Command;
  Command.Directory = currentDirectory();
  Command.Filename = Opts.Path;
  Command.CommandLine = {"graphify-validate"};
  Command.CommandLine.insert(Command.CommandLine.end(), Opts.ParseArgs.begin(), Opts.ParseArgs.end());
  Command.CommandLine.push_back(Opts.Path);
  LintUnit Unit;
  Unit.CommandLine = syntaxOnlyCommand(Command, clangResourceDir());
  Unit.WorkingDir = Command.Directory;
  Unit.File = Opts.Path;
  Unit.Content = M.Text; // the text the entries and the rewrite are read from, whatever happens on disk
  Unit.Rules = &*Rules;
  // Entries are graph regions by definition, even when nothing else marks them.
  Unit.BeforeAnalysis = [&](clang::ASTContext &Ctx, std::vector<std::string> &GraphRegions) {
    M.Decls.clear();
    EntryCollector(Ctx, M.Decls).TraverseDecl(Ctx.getTranslationUnitDecl());
    attachComments(M.Text, M.Decls);
    for (const EntryDecl &D : M.Decls)
      if (D.SpecText || llvm::is_contained(Opts.ExtraEntries, D.Name) ||
          llvm::is_contained(Opts.ExtraEntries, D.CallName))
        GraphRegions.push_back(D.ForwardName);
  };
  LintUnitResult R = lintTranslationUnit(Unit);
  if (!R.Parsed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   Opts.Path + " does not compile:\n" + R.CompilerErrors);

  std::vector<Finding> Findings;
  for (ReportedFinding &RF : R.Findings) {
    const Finding &F = RF.F;
    if (F.Fix)
      M.Rewrite.Applied.push_back({F.Where.Line, F.Fix->RuleName + (F.Fix->Explanation.empty() ? "" : ": " + F.Fix->Explanation)});
    else
      M.Rewrite.Unfixed.push_back({F.Where.Line, F.Message + " [" + F.CheckId + "]" +
                                                     (F.NoFixReason.empty() ? "" : " (" + F.NoFixReason + ")")});
    Findings.push_back(std::move(RF.F));
  }
  auto Text = applyFixesToText(Findings, Opts.Path, M.Text, "LLVM", &M.Rewrite.Skipped);
  if (!Text)
    return Text.takeError();
  M.RewrittenText = std::move(*Text);
  return M;
}

} // namespace graphify::validate
