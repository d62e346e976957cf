#pragma once
/// \file
/// Tensors a decode loop grows onto itself (`ys = torch::cat({ys, tok}, 1)`), for
/// `early-exit-loop-to-masked`. Once the loop runs to its static bound, the size each step gives
/// such a tensor is still static (the step's own), so the concatenation stays as written; what
/// the masked form must add is how far the original would have grown it: a 0-d length, set to
/// the tensor's size after each concatenation that runs unmasked. Where the tensor leaves the
/// loop, the function is split after it (the standard "fixed maximum + count" contract): a
/// capturable core `<name>_padded` returns the tensor at the static bound's size and its length,
/// and the function, now a host epilogue, narrows it to the length and runs the code after the
/// loop as before.
///
/// \code
///   auto ys = torch::full({1, 1}, start, torch::kLong);
///   for (int64_t t = 0; t < max_len; ++t) {
///     auto tok = step(h).argmax(-1, true);
///     ys = torch::cat({ys, tok}, 1);
///     if (tok.item<int64_t>() == eos) break;
///   }
///   return ys;
/// \endcode

#include "ApiModel.h"
#include "LoopAccumulators.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/Support/Error.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphify::rewriter {

/// A tensor of the code around a loop that the loop concatenates onto itself.
struct Growth {
  const clang::VarDecl *V = nullptr;
  int64_t Dim = 0;    ///< the dimension it grows along, as the code writes it (may be negative)
  /// The name of its 0-d length in the rewritten code, set by the caller when the tensor leaves
  /// the loop (readAfterLoop); empty when nothing after the loop needs it.
  std::string Length;
  std::vector<const clang::Stmt *> Assignments; ///< the statements that grow it
};

/// The tensors `Loop` grows onto themselves: every assignment `v = cat({v, parts...}, d)` (an op
/// tagged joins_inputs and concatenates, `v` first and once, `d` an integer constant) to a local
/// or by-value parameter declared before the loop. Refused, naming the construct: a tensor joined
/// to itself by an op that does not concatenate (stack) or placed after its parts, along a
/// dimension that is not a constant, or that the caller would see grown (a reference parameter,
/// a field, a global).
llvm::Expected<std::vector<Growth>> loopGrowths(const clang::ForStmt *Loop, const ApiModel &Api,
                                                clang::ASTContext &Ctx);

/// Whether code after `Loop` in the function body `Body` reads `V` (its value leaves the loop).
bool readAfterLoop(const clang::VarDecl *V, const clang::Stmt *Loop, const clang::Stmt *Body, clang::ASTContext &Ctx);

/// The growth of `V` among `Growths`, or null.
const Growth *growthOf(const clang::VarDecl *V, llvm::ArrayRef<Growth> Growths);

/// The text that replaces the function around `Loop` (a statement of its body) when the code
/// after the loop reads a tensor the loop grows (a growth with a Length) or a number it
/// accumulates (lib/LoopAccumulators.h): the core `<name>_padded` with the statements up to the
/// loop (the loop as `MaskedLoop`), returning what the code after it reads (an accumulated number
/// as its 0-d tensor, of type `TensorType`) and the lengths; then the host epilogue, which narrows
/// the grown tensors, reads the numbers back and runs the code after the loop. Nothing
/// (std::nullopt) when the code after the loop reads neither: the loop's own edit is the whole
/// fix. `Explanation` receives the fix's message. `Replaced` holds the core's other edits: the
/// statements before the loop that declare the host locals its conditions lift, as tensors.
llvm::Expected<std::optional<std::string>>
splitAfterMaskedLoop(const clang::ForStmt *Loop, const std::string &MaskedLoop, llvm::ArrayRef<Growth> Growths,
                     llvm::ArrayRef<Accumulation> Accumulations, const std::string &TensorType,
                     const std::map<const clang::Stmt *, std::string> &Replaced, const ApiModel &Api,
                     clang::ASTContext &Ctx, std::string &Explanation);

} // namespace graphify::rewriter
