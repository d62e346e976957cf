#pragma once
/// \file
/// Building a capturable core and its host epilogue from a function's text: the pieces that
/// `split-at-host-boundary` and the growing decode loop of `early-exit-loop-to-masked` share.
/// The core is cut from the file as written (the statements' text with some nodes replaced), and
/// takes the function's parameters as declared, the locals before it and the fields of `*this`
/// it uses by reference (lib/Outlining.h says which).

#include "Outlining.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>
#include <llvm/Support/Error.h>

#include <map>
#include <string>
#include <vector>

namespace graphify::rewriter {

/// The file offsets of `S` with its trailing semicolon, or false inside a macro.
bool statementOffsets(const clang::Stmt *S, clang::ASTContext &Ctx, unsigned &Begin, unsigned &End);

/// The text of the main file in [Begin, End) with the nodes of `Replaced` (inside it) replaced;
/// a node replaced by nothing takes its line with it.
std::string splicedText(unsigned Begin, unsigned End, const std::map<const clang::Stmt *, std::string> &Replaced,
                        clang::ASTContext &Ctx);

/// How the core is declared and called: its parameter list (the function's parameters as
/// declared; then the locals and fields it shares by reference) and the
/// epilogue's argument list, with the text that replaces each use of a field in the core.
struct CoreInterface {
  std::string Params, Args;
  std::map<const clang::Stmt *, std::string> FieldUses;
};

/// The interface of a core outlined from `F` (whose body is `Body`) as `Outlined` describes it;
/// `Taken` holds the names in use and receives the field parameters'. With `KeepDefaults` the
/// parameters keep their default arguments (the core can be called, and captured, as the
/// function can: selection-to-padded's cores do). Refused when a parameter has no name or is
/// written by a macro.
llvm::Expected<CoreInterface> coreInterface(const clang::FunctionDecl &F, const clang::Stmt &Body,
                                            const OutlinedBlock &Outlined, std::vector<std::string> &Taken,
                                            clang::ASTContext &Ctx, bool KeepDefaults = false);

/// A name for the core, `F`'s name with `Suffix`, numbered when the file already uses it.
std::string coreName(const clang::FunctionDecl &F, llvm::StringRef Suffix, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
