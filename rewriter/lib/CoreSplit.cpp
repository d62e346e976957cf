#include "CoreSplit.h"

#include "Predication.h"
#include "Refusal.h"
#include "RuleSupport.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <algorithm>
#include <tuple>

using namespace clang;

namespace graphify::rewriter {

bool statementOffsets(const Stmt *S, ASTContext &Ctx, unsigned &Begin, unsigned &End) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(tooling::getExtendedRange(*S, tok::semi, Ctx), SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return false;
  Begin = SM.getFileOffset(R.getBegin());
  End = SM.getFileOffset(R.getEnd());
  return true;
}

std::string splicedText(unsigned Begin, unsigned End, const std::map<const Stmt *, std::string> &Replaced,
                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  std::vector<std::tuple<unsigned, unsigned, std::string>> Cuts;
  for (const auto &[Node, Text] : Replaced) {
    CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Node->getSourceRange()), SM,
                                                 Ctx.getLangOpts());
    if (R.isInvalid())
      continue;
    unsigned B = SM.getFileOffset(R.getBegin()), E = SM.getFileOffset(R.getEnd());
    if (Text.empty()) {
      // A statement removed whole takes its line with it (its indentation, its `;`, its newline).
      while (B > Begin && (Buffer[B - 1] == ' ' || Buffer[B - 1] == '\t'))
        --B;
      while (E < End && Buffer[E] != '\n' && llvm::isSpace(Buffer[E]))
        ++E;
      if (E < End && Buffer[E] == ';')
        ++E;
      if (E < End && Buffer[E] == '\n' && (B == Begin || Buffer[B - 1] == '\n'))
        ++E;
      else if (E == End && B > Begin && Buffer[B - 1] == '\n')
        --B; // the last statement: the line break before it goes instead
    }
    if (B >= Begin && E <= End)
      Cuts.emplace_back(B, E, Text);
  }
  std::sort(Cuts.begin(), Cuts.end());
  std::string Out;
  unsigned At = Begin;
  for (const auto &[B, E, Text] : Cuts) {
    if (B < At)
      continue; // nested in a replaced node
    Out += Buffer.slice(At, B).str() + Text;
    At = E;
  }
  return Out + Buffer.slice(At, End).str();
}

llvm::Expected<CoreInterface> coreInterface(const FunctionDecl &F, const Stmt &Body, const OutlinedBlock &Outlined,
                                            std::vector<std::string> &Taken, ASTContext &Ctx, bool KeepDefaults) {
  CoreInterface I;
  std::map<const FieldDecl *, std::string> FieldParam;
  for (const FieldDecl *Field : Outlined.Fields) {
    std::string Name = Field->getNameAsString();
    if (llvm::is_contained(Taken, Name))
      Name = freshName(Name, &Body, Taken);
    Taken.push_back(Name);
    FieldParam[Field] = Name;
  }
  for (const auto &[Use, FieldName] : Outlined.FieldUses)
    I.FieldUses[Use] = FieldParam[cast<FieldDecl>(cast<MemberExpr>(Use)->getMemberDecl())];
  const bool ConstFields = isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F).isConst();
  auto Add = [](std::string &List, const std::string &Item) { List += (List.empty() ? "" : ", ") + Item; };
  for (const ParmVarDecl *P : F.parameters()) {
    if (P->getName().empty())
      return refuse("a parameter of '" + F.getNameAsString() + "' has no name, so the wrapper cannot pass it to "
                    "the core");
    std::string Decl = declText(*P, Ctx);
    if (Decl.empty())
      return refuse("the parameter '" + P->getNameAsString() + "' is written by a macro");
    if (P->hasDefaultArg() && !KeepDefaults) // the wrapper's default; the wrapper passes every argument
      Decl = Decl.substr(0, Decl.rfind('='));
    Add(I.Params, llvm::StringRef(Decl).rtrim().str());
    Add(I.Args, P->getNameAsString());
  }
  for (const VarDecl *V : Outlined.Locals) {
    // A structured binding's variable (implicit) is declared as `std::tuple_element<...>::type &`:
    // the element's own type says it plainly.
    QualType T = V->isImplicit() ? V->getType().getNonReferenceType().getCanonicalType() : V->getType();
    Add(I.Params, nameableType(T, Ctx, &F) + " &" + V->getNameAsString());
    Add(I.Args, V->getNameAsString());
  }
  for (const FieldDecl *Field : Outlined.Fields) {
    Add(I.Params, std::string(ConstFields && !Field->isMutable() ? "const " : "") +
                      nameableType(Field->getType(), Ctx, &F) + " &" + FieldParam[Field]);
    Add(I.Args, "this->" + Field->getNameAsString());
  }
  return I;
}

std::string coreName(const FunctionDecl &F, llvm::StringRef Suffix, ASTContext &Ctx) {
  const std::string Base = F.getNameAsString() + Suffix.str();
  std::string Name = Base;
  for (int N = 2; Ctx.Idents.find(Name) != Ctx.Idents.end(); ++N)
    Name = Base + std::to_string(N);
  return Name;
}

} // namespace graphify::rewriter
