#pragma once
/// \file
/// Whether a host list of tensor-holding objects, once sorted, hands one of its tensors on: the
/// sort decides which tensor sits at each position, which matters to a graph only when a tensor
/// is taken from the sorted list. A beam search that sorts its hypotheses by read scores and then
/// keeps only the best one's host token list (`vec.front().prediction`) uses the order on the
/// host alone; the reads of the scores are the blockers there, and they are reported where they
/// are.

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

namespace graphify {

/// Whether anything in the function that holds `Sort` (other than `Sort` itself) may take a
/// tensor out of the local list `List` names: an element or an element's field that holds
/// tensors, an iterator, the list handed on whole. Anything but a local variable may be read
/// elsewhere: true.
bool sortedListHandsOnTensors(const ApiResolver &Api, clang::ASTContext &Ast, const clang::Expr *List,
                              const clang::Expr *Sort);

} // namespace graphify
