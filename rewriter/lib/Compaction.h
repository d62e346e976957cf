#pragma once
/// \file
/// A compaction written on the host: a branch writes an element at a counter that the same
/// branch advances, so the positions written count the iterations that passed the test. CTC's
/// collapse of repeats and blanks, a keep list filled by hand, a filter into a preallocated buffer:
///
/// \code
///   for (int64_t t = 0; t < T; ++t) {
///     int64_t cur = ids[t];
///     if (cur != blank && cur != prev) { out[len] = cur; ++len; }   // compactionIn -> "'out[len]' ..."
///     prev = cur;
///   }
/// \endcode
///
/// No where() of the branch keeps that meaning: the position of each write depends on how many
/// earlier iterations passed. The graph form computes the test for every element at once (a mask)
/// and moves the kept elements first in order (a stable argsort of the negated mask), with the
/// count as mask.sum().

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/ArrayRef.h>

#include <string>

namespace graphify::rewriter {

/// The first element write among `Arms` at a position that reads an integer counter the arms
/// also advance (`++len`, `len += 1`), as "'out[len]' (line 60) is written at 'len', which the
/// branch advances"; empty when there is none.
std::string compactionIn(llvm::ArrayRef<const clang::Stmt *> Arms, clang::ASTContext &Ctx);

/// Why a branch that compacts (`Write`, as compactionIn says it) has no select form, and its
/// graph form: the refusal of every rule that meets one.
std::string compactionRefusal(const std::string &Write);

} // namespace graphify::rewriter
