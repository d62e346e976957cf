#pragma once
/// \file
/// Lists and tuples of tensors as HostOrigin.cpp and HostFilledLists.cpp read them: which types
/// are such lists, and which expressions take one of their elements.

#include "graphify/analyzer/ApiResolver.h"

namespace graphify {

/// `std::vector<Tensor>`, `at::TensorList`, `std::tuple<Tensor, Tensor>`, `std::map<K, Tensor>`:
/// a class template over tensors (not a tensor).
bool isListOfTensors(clang::QualType T, const ApiResolver &Api);

/// The list `E` takes an element of, or null: `grid[1]`, or a method given positions only that
/// returns a reference (`grid.at(1)`, `grid.front()`; not `emplace_back(t)`, which stores).
const clang::Expr *listIndexed(const clang::Expr *E, const ApiResolver &Api);

/// The tuple `std::get<1>(t.sort(0))` takes an element of, or null: the element lives where the
/// op that made the tuple ran.
const clang::Expr *tupleElementOf(const clang::Expr *E);

/// The braced list an argument is written as (`torch::tensor({1, 2})`, `std::vector<Tensor>{a,
/// b}`), under the conversions and constructions clang adds, or null.
const clang::InitListExpr *bracedList(const clang::Expr *Arg);

} // namespace graphify
