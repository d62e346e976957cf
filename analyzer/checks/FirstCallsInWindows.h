#pragma once
/// \file
/// Lazy initialisation in capture windows: a call the packs tag `first_call_allocates` (a cuBLAS
/// GEMM, a cuDNN convolution, TensorRT's `enqueueV3`, LibTorch's matmul and convolutions) may
/// create a handle, allocate a workspace or load kernels the first time it runs, which stream
/// capture forbids. Reached from a capture window with no call of the same function on the way
/// to the window (in the window's function, before its begin call, directly or through what it
/// calls: a warm-up run), it is reported at the call; part of graphify-capture-unsafe-api.
///
/// \code
///   reportUnwarmedFirstCalls(Ctx, CaptureUnsafeApiCheck::checkInfo(), &WarmedLazy);
/// \endcode
///
/// User-written lazy initialisation (LazyInit.h: `if (!ws_) cudaMalloc(&ws_, n);` in a helper) is
/// judged the same way, keyed by the function that initialises: the capture-unsafe calls in it
/// that every window of this unit reaching them ran a warm-up of that function for are added to
/// `WarmedLazy`; the check reports the others as it reports any capture-unsafe call.

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

#include <llvm/ADT/DenseSet.h>

namespace graphify {

void reportUnwarmedFirstCalls(AnalysisContext &Ctx, const CheckInfo &Check,
                              llvm::DenseSet<const clang::Stmt *> *WarmedLazy = nullptr);

} // namespace graphify
