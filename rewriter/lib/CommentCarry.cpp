// Comments are found with clang's raw lexer in comment-retention mode, so a `//` inside a string
// literal is not mistaken for one. A comment the replacement already holds (a reused
// sub-expression's text keeps its own comments) is not repeated.
#include "CommentCarry.h"

#include <clang/Lex/Lexer.h>

#include <vector>

namespace graphify::rewriter {

namespace {

std::vector<std::string> commentsIn(const clang::SourceManager &SM, const clang::LangOptions &Lang,
                                    clang::CharSourceRange Range) {
  std::vector<std::string> Comments;
  bool Invalid = false;
  // The lexer reads up to a terminating NUL, which a slice of the file does not have: lex a copy.
  const std::string Text = clang::Lexer::getSourceText(Range, SM, Lang, &Invalid).str();
  if (Invalid || Text.empty())
    return Comments;
  clang::Lexer Raw(Range.getBegin(), Lang, Text.data(), Text.data(), Text.data() + Text.size());
  Raw.SetCommentRetentionState(true);
  clang::Token Tok;
  bool AtEnd = false;
  while (!AtEnd) {
    AtEnd = Raw.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::comment)) {
      const unsigned Offset = SM.getFileOffset(Tok.getLocation()) - SM.getFileOffset(Range.getBegin());
      Comments.push_back(llvm::StringRef(Text).substr(Offset, Tok.getLength()).rtrim().str());
    }
  }
  return Comments;
}

std::string indentationOf(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  const auto [File, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Prefix = Buffer.slice(LineStart, Offset);
  return Prefix.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

} // namespace

std::string withCarriedComments(const clang::SourceManager &SM, const clang::LangOptions &Lang,
                                clang::CharSourceRange Range, const std::string &Replacement) {
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return Replacement;
  std::string Carried;
  const std::string Indent = indentationOf(SM, Range.getBegin());
  for (const std::string &Comment : commentsIn(SM, Lang, Range)) {
    if (Replacement.find(Comment) != std::string::npos || Carried.find(Comment) != std::string::npos)
      continue;
    Carried += Comment + "\n" + Indent;
  }
  return Carried + Replacement;
}

} // namespace graphify::rewriter
