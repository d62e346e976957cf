#pragma once
/// \file
/// Where a size read of a tensor ends in host code: printed (`std::cout << sel.size(0)`) or handed
/// to a host function called for its effect (`DebugLog("{}", sel.sizes()[0])`, `printf`), directly
/// or through host values computed from it (`Dims2Str(sel.sizes())`). graphify-data-dependent-size
/// reports such reads of a value-dependent selection's size: the number exists only once the data
/// is on the host. Sizes kept in variables, given to tensor ops or tested are followed to their
/// uses by the other checks (size arguments, branches, loops), which report those.

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

namespace graphify {

/// The read itself: `sel.sizes()[0]` for the `sizes()` call under a subscript, else `Call`.
const clang::Expr *sizeReadOf(const clang::Expr *Call, clang::ASTContext &Ast);

/// How host code takes the size read `Read` ("is printed", "is handed to 'DebugLog'"), or empty
/// when it is kept, tested or given to a tensor op.
std::string hostSinkOfSize(const clang::Expr *Read, const ApiResolver &Api, clang::ASTContext &Ast);

} // namespace graphify
