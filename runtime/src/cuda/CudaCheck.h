#pragma once
// The one way CUDA, cuBLAS and cuDNN calls are checked in the CUDA backend (STYLE.md §5): a
// failing call throws gfy::Error naming the expression, file:line and the library's own error
// string, so a bad launch surfaces where it happened instead of at some later synchronisation.
#include <graphify/core/Types.h>

#include <cuda_runtime_api.h>

#include <string>

namespace gfy::cuda::detail {

/// Builds the message for a failed CUDA runtime call and throws gfy::Error. Stream-capture
/// errors (900-908) get an explanation of what usually causes them.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char *expr, const char *file, int line);
[[noreturn]] void throw_cublas_error(int status, const char *expr, const char *file, int line);
[[noreturn]] void throw_cudnn_error(int status, const char *expr, const char *file, int line);
/// A sentence on what a stream-capture error (900-908) means for graph capture; empty otherwise.
std::string capture_error_hint(cudaError_t err);

} // namespace gfy::cuda::detail

/// CUDA_CHECK(cudaMalloc(&p, n)); throws gfy::Error "CUDA error: out of memory (cudaMalloc(&p, n)
/// at file.cpp:12)" when the call does not return cudaSuccess.
#define CUDA_CHECK(expr)                                                                           \
  do {                                                                                             \
    const cudaError_t gfy_cuda_err_ = (expr);                                                      \
    if (gfy_cuda_err_ != cudaSuccess)                                                              \
      ::gfy::cuda::detail::throw_cuda_error(gfy_cuda_err_, #expr, __FILE__, __LINE__);             \
  } while (0)

/// CUBLAS_CHECK(cublasSgemm(...)): the same for cublasStatus_t.
#define CUBLAS_CHECK(expr)                                                                         \
  do {                                                                                             \
    const int gfy_cublas_st_ = int(expr);                                                          \
    if (gfy_cublas_st_ != 0) ::gfy::cuda::detail::throw_cublas_error(gfy_cublas_st_, #expr, __FILE__, __LINE__); \
  } while (0)

/// CUDNN_CHECK(cudnnRNNForward(...)): the same for cudnnStatus_t.
#define CUDNN_CHECK(expr)                                                                          \
  do {                                                                                             \
    const int gfy_cudnn_st_ = int(expr);                                                           \
    if (gfy_cudnn_st_ != 0) ::gfy::cuda::detail::throw_cudnn_error(gfy_cudnn_st_, #expr, __FILE__, __LINE__); \
  } while (0)

/// After a kernel launch: reports launch-configuration errors at the launch site.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
