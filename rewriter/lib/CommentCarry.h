#pragma once
/// \file
/// Comments inside code a rule replaces (the arms of a converted `if`) are the user's, not the
/// rule's to drop: they are carried over above the replacement.

#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceLocation.h>
#include <clang/Basic/SourceManager.h>

#include <string>

namespace graphify::rewriter {

/// `Replacement` for the text of `Range`, preceded by every comment of that text that the
/// replacement does not already contain, one per line, at the indentation of the range's first
/// line. Returns `Replacement` unchanged when there is nothing to carry.
std::string withCarriedComments(const clang::SourceManager &SM, const clang::LangOptions &Lang,
                                clang::CharSourceRange Range, const std::string &Replacement);

} // namespace graphify::rewriter
