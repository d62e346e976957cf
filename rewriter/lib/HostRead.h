#pragma once
/// \file
/// Host reads: where tensor data reaches the host (`item()`, a copy to the CPU, a pointer or an
/// accessor into the memory, a print), directly or in a function of the user's that a statement
/// calls. A graph cannot hold one; the rewrites that split a function start its host part there.
///
/// \code
///   auto ix = nms(boxes, scores, 0.45);   // nms's body reads order[0].item<int64_t>()
///   firstHostRead(stmt) -> {At: the call 'nms(...)', Read: 'order[0].item<int64_t>()'}
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <optional>

namespace graphify::rewriter {

struct HostRead {
  const clang::Expr *At = nullptr;   ///< the expression under the statement: the read, or the call leading to it
  const clang::Expr *Read = nullptr; ///< the read itself (in a callee's body when At is a call)
};

/// The first host read under `S` (tags host_sync and data_dependent_output, a device_transfer to
/// the host), following calls into the user's own functions that have a body (not `Self`, not
/// the library's, not in system headers) three calls deep; none when there is none.
std::optional<HostRead> firstHostRead(const clang::Stmt *S, const clang::FunctionDecl *Self, const ApiModel &Api,
                                      clang::ASTContext &Ctx);

/// Whether the host value `E` depends on a tensor value read on the host: the analysis's taint
/// when it ran, else a host read written in it.
bool readsTensorOnHost(const clang::Expr *E, const ApiModel &Api);

} // namespace graphify::rewriter
