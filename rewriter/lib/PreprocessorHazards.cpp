// A fix is text computed from the AST of one preprocessed configuration and spliced into the
// unpreprocessed file. That is sound only where the two agree: no directive inside the replaced
// text (its other configurations would be dropped or kept for the wrong one), and no macro
// expansion that the rewrite takes apart (its pieces have no text of their own) or that
// expands to nothing (the rewrite, reading the AST, would not see it and would drop it). A macro
// spelled whole by one expression that reads no tensor value (`EPS`, `kMaxBoxes`) is copied
// verbatim by every rule and is accepted.
#include "PreprocessorHazards.h"

#include "ExprUtil.h"

#include <clang/AST/Expr.h>
#include <clang/Basic/IdentifierTable.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <utility>
#include <vector>

using namespace clang;

namespace graphify::rewriter {

namespace {

using OffsetRange = std::pair<unsigned, unsigned>; // [begin, end) in one file

struct Scope {
  FileID File;
  std::vector<OffsetRange> Replaced; ///< the edits' ranges
  std::vector<OffsetRange> Opaque;   ///< macro expansions accepted whole
};

bool within(unsigned Offset, const std::vector<OffsetRange> &Ranges) {
  for (const auto &[B, E] : Ranges)
    if (Offset >= B && Offset < E)
      return true;
  return false;
}

std::string lineOf(const SourceManager &SM, FileID File, unsigned Offset) {
  return std::to_string(SM.getLineNumber(File, Offset));
}

/// Whether a call under `S` reads tensor values on the host (what lifting a condition rewrites).
bool readsTensorValues(const Stmt *S, const ApiModel &Api) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && (Api.callHasTag(E, "data_dependent_output") || Api.callHasTag(E, "host_sync")))
    return true;
  for (const Stmt *C : S->children())
    if (readsTensorValues(C, Api))
      return true;
  return false;
}

/// The macro a location was expanded from, as the user wrote it (the invocation's first token).
std::string macroNameAt(SourceLocation L, const SourceManager &SM, const LangOptions &LO) {
  SourceLocation Invocation = SM.getExpansionLoc(L);
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Invocation), SM, LO).str();
}

/// Walks the AST nodes that lie in the replaced ranges; accepts whole macro expansions that read
/// no tensor value (recording them as opaque) and reports the first expansion taken apart.
std::optional<std::string> macroTakenApart(const Stmt *S, Scope &Sc, const SourceManager &SM, const LangOptions &LO,
                                           const ApiModel &Api) {
  if (!S)
    return std::nullopt;
  SourceLocation B = S->getBeginLoc(), E = S->getEndLoc();
  if (B.isValid() && E.isValid() && (B.isMacroID() || E.isMacroID())) {
    CharSourceRange Expansion = SM.getExpansionRange(SourceRange(B, E));
    SourceLocation EB = Expansion.getBegin();
    if (SM.getFileID(EB) == Sc.File && within(SM.getFileOffset(EB), Sc.Replaced)) {
      bool StartsWhole = !B.isMacroID() || Lexer::isAtStartOfMacroExpansion(B, SM, LO);
      bool EndsWhole = !E.isMacroID() || Lexer::isAtEndOfMacroExpansion(E, SM, LO);
      std::string Line = lineOf(SM, Sc.File, SM.getFileOffset(EB));
      SourceLocation Inside = B.isMacroID() ? B : E;
      if (!StartsWhole || !EndsWhole)
        return "the code it replaces splits the expansion of the macro '" + macroNameAt(Inside, SM, LO) +
               "' (line " + Line + "), whose pieces have no source text of their own";
      if (B.isMacroID() && E.isMacroID()) {
        if (readsTensorValues(S, Api))
          return "the code it replaces reads tensor values inside the macro '" + macroNameAt(Inside, SM, LO) +
                 "' (line " + Line + "), which a rewrite cannot take apart; expand it by hand first";
        SourceLocation EE = Expansion.getEnd();
        unsigned End = SM.getFileOffset(EE) + (Expansion.isTokenRange() ? Lexer::MeasureTokenLength(EE, SM, LO) : 0);
        Sc.Opaque.push_back({SM.getFileOffset(EB), End});
        return std::nullopt; // kept verbatim: its inside is not looked at
      }
    }
  }
  for (const Stmt *C : S->children())
    if (auto Why = macroTakenApart(C, Sc, SM, LO, Api))
      return Why;
  return std::nullopt;
}

/// Raw-lexes the replaced text: a directive, or a macro name outside the accepted expansions
/// (one that expands to nothing leaves no AST node to accept it).
std::optional<std::string> directiveOrHiddenMacro(const OffsetRange &R, const Scope &Sc, const SourceManager &SM,
                                                  const LangOptions &LO, ASTContext &Ctx) {
  llvm::StringRef Buffer = SM.getBufferData(Sc.File);
  if (R.second > Buffer.size())
    return std::nullopt;
  Lexer Raw(SM.getLocForStartOfFile(Sc.File), LO, Buffer.begin(), Buffer.begin() + R.first, Buffer.end());
  Token Tok;
  bool AfterHashAtLineStart = false;
  while (!Raw.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
    unsigned Offset = SM.getFileOffset(Tok.getLocation());
    if (Offset >= R.second || Tok.is(tok::eof))
      break;
    if (AfterHashAtLineStart) {
      std::string Name = Tok.is(tok::raw_identifier) ? Tok.getRawIdentifier().str() : std::string();
      return "the code it replaces holds the preprocessor directive '#" + Name + "' (line " +
             lineOf(SM, Sc.File, Offset) + "): a rewrite made for one configuration would drop the others";
    }
    if (Tok.is(tok::hash) && Tok.isAtStartOfLine() && Offset > R.first) {
      AfterHashAtLineStart = true;
      continue;
    }
    if (Tok.is(tok::raw_identifier) && !within(Offset, Sc.Opaque)) {
      IdentifierInfo &II = Ctx.Idents.get(Tok.getRawIdentifier());
      if (II.hadMacroDefinition())
        return "the code it replaces uses the macro '" + Tok.getRawIdentifier().str() + "' (line " +
               lineOf(SM, Sc.File, Offset) + "), which the rewrite cannot see through";
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> preprocessorHazard(llvm::ArrayRef<CharSourceRange> Ranges, const Stmt *Root,
                                              ASTContext &Ctx, const ApiModel &Api) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  Scope Sc;
  for (const CharSourceRange &R : Ranges) {
    SourceLocation B = R.getBegin(), E = R.getEnd();
    if (B.isInvalid() || E.isInvalid() || B.isMacroID() || E.isMacroID())
      return std::string("the code is produced by a macro expansion");
    FileID File = SM.getFileID(B);
    if (Sc.File.isInvalid())
      Sc.File = File;
    if (File != Sc.File || SM.getFileID(E) != File)
      return std::string("the edits span several files");
    unsigned End = SM.getFileOffset(E) + (R.isTokenRange() ? Lexer::MeasureTokenLength(E, SM, LO) : 0);
    Sc.Replaced.push_back({SM.getFileOffset(B), End});
  }
  if (Sc.Replaced.empty())
    return std::nullopt;
  // The edits may replace more than the matched statement (a region up to its return): walk
  // the whole function, keeping what lies in the ranges.
  const Stmt *Body = functionBody(enclosingFunction(Root, Ctx));
  if (auto Why = macroTakenApart(Body ? Body : Root, Sc, SM, LO, Api))
    return Why;
  for (const OffsetRange &R : Sc.Replaced)
    if (auto Why = directiveOrHiddenMacro(R, Sc, SM, LO, Ctx))
      return Why;
  return std::nullopt;
}

} // namespace graphify::rewriter
