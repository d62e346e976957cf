#pragma once
/// \file
/// Host work: statements that compute on host values only (a host container filled, a host
/// function called, strings built), which no graph holds. Their graph-mode form is not a rewrite
/// but a move: out of the graph region, after the replay, reading the tensors the graph wrote.
///
/// \code
///   for (int i = 0; i < n; ++i) plot_box(boxes[i], img);   // worksOnHostOnly: true
///   firstHostWork({branch statements}) -> "'output.push_back' (line 21) fills a host container"
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/ArrayRef.h>

#include <string>

namespace graphify::rewriter {

/// The first host work among `Stmts`, as "'name' (line N) fills a host container" or "'name'
/// (line N) is host code"; empty when there is none.
/// With `TensorFills` false, a container given a tensor (`inputs.push_back(x)`, a module's
/// argument list) is not host work: what it holds stays on the device. With `CalleeDepth` above
/// zero, the bodies of the project's functions called there are searched too, that many calls
/// deep: "'process_terminals' (line 12), where 'queue.push' (line 40) fills a host container";
/// there a container local to the callee (a shape built up, parts gathered for a cat) is not
/// work, as it is gone when the callee returns.
std::string firstHostWork(llvm::ArrayRef<const clang::Stmt *> Stmts, const ApiModel &Api, clang::ASTContext &Ctx,
                          bool TensorFills = true, unsigned CalleeDepth = 0);

/// Whether values of `T` (a class, or a pointer to one) are objects without a tensor among their
/// fields or their bases' (a logger, a writer, an image): a method of one called on no tensor is
/// host code. Not a module or a detector, whose fields are tensors.
bool holdsNoTensor(clang::QualType T, const ApiModel &Api);

/// Whether `Body` does something (a call or an assignment) and no expression in it is a tensor:
/// a loop with such a body works on values already on the host.
bool worksOnHostOnly(const clang::Stmt *Body, const ApiModel &Api);

/// Whether the initialiser `Init` of a host declaration runs no code of the user's and reads no
/// variable: absent, a constant, a braced list of constants, a trivial constructor, or a default
/// constructor the compiler or a library provides (an empty `std::vector`, a struct's member
/// initialisers). Such a declaration may move past device work: nothing observable changes.
bool initRunsNoUserCode(const clang::Expr *Init, const ApiModel &Api, clang::ASTContext &Ctx);

/// The function (or lambda) holding `S`, named as "'count_above'" or "the lambda at line N", when
/// it works on host values only: no parameter is a tensor and its body worksOnHostOnly. Whatever
/// it decides runs on the host, so what it holds is advised as a call to move out, not as a
/// branch to select or a loop to mask. Empty otherwise.
std::string hostOnlyFunction(const clang::Stmt *S, const ApiModel &Api, clang::ASTContext &Ctx);

/// A call in `Body` that changes an object picked from a host list by position
/// (`tracks_[m.second]->update(dets[m.first])`), described with its line, or empty: the host
/// chooses which object's state changes, which no graph can do.
std::string hostListElementUpdate(const clang::Stmt *Body, const ApiModel &Api, clang::ASTContext &Ctx);

/// The advice for a loop whose body makes such a change, described by hostListElementUpdate.
std::string hostListUpdateAdvice(const std::string &Update);

/// A call in `Cond` of a function of the project that reads tensor data and returns a host value
/// (`GetWinner() != Player::NONE`), named with its line; empty when there is none.
std::string hostValueCallIn(const clang::Expr *Cond, const ApiModel &Api, clang::ASTContext &Ctx);

/// The advice for code in such a function, named by hostOnlyFunction.
std::string hostFunctionAdvice(const std::string &Function);

/// `Arg`, a pointer to a tensor's memory (`scores.data_ptr<float>()`), is handed to host code of
/// the project: a free function (not of the tensor API or the standard library, none the packs
/// describe), or a method whose object holds no tensor or whose body works on host values only.
bool handsMemoryToHostCode(const clang::CallExpr &Call, const clang::Expr *Arg, const ApiModel &Api);

/// `host_affine(x, y, m, out)`, `cv::cvtColor(img, img, code)`, `decode(ids, len)` returning a
/// string: the value `Arg` is handed to a function of the project that takes no tensor and either
/// works on host values only (its body shows it) or returns nothing and, for a method, has an
/// object that holds no tensor — host code. A helper returning a number computes one, which the
/// recipe's walk follows instead.
bool handsValueToHostCode(const clang::CallExpr &Call, const clang::Expr *Arg, const ApiModel &Api);

/// The local host list a use of a value is stored into (`seq.push_back(next)`,
/// `tokens.emplace_back(t)`: a non-const method of a host container that is no element access,
/// given the value), or null.
const clang::VarDecl *hostListStoring(const clang::DeclRefExpr *Use, clang::ASTContext &Ctx);

/// The advice for a value read from a tensor that a host list collects (hostListStoring).
std::string collectedValueAdvice(const std::string &Value, const std::string &List, unsigned Line);

} // namespace graphify::rewriter
