#pragma once
/// \file
/// Host tables an object builds when it is constructed: a tensor field a constructor fills in
/// pageable host memory (`size_trans_ = torch::from_blob(grids.data(), ...).clone().pow(2).cumsum(0)`,
/// anchors or priors built on the CPU) and no other method writes. A value read from it in a
/// graph region (`size_trans_[i].item().toInt()`) is a constant the object was built with, not
/// data the region computed: like a host member or an argument, the graph may bake it. The read
/// itself is no finding either (graphify-host-sync reports no read of host memory the region did
/// not fill).

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

namespace graphify {

/// Whether the tensor `Object`, read in `Current`, is an element or view of a field of `this`
/// that sits in host memory built at `Origin` (its host factory) inside a constructor or the
/// field's default member initialiser, with no method but a constructor rebinding the field or
/// writing it in place.
bool readsConstructedTable(const clang::Expr *Object, const clang::Expr *Origin, const clang::FunctionDecl &Current,
                           const ApiResolver &Api, clang::ASTContext &Ast);

} // namespace graphify
