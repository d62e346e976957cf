// Host-only parts of the CUDA backend, which run on every machine (with or without a GPU): the
// error-checking macros' messages and the registration rule (no device, no backend).
#include "CudaCheck.h"
#include "CudaTestUtil.h"

#include <cublas_api.h>

using namespace gfy;

namespace {

std::string message_of(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(CudaCheck, NamesTheCallFileLineAndError) {
  const int line = __LINE__ + 1;
  const std::string msg = message_of([] { CUDA_CHECK(cudaErrorInvalidValue); });
  EXPECT_NE(msg.find("CUDA error: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("cudaErrorInvalidValue"), std::string::npos) << msg;
  EXPECT_NE(msg.find("test_cuda_check.cpp:" + std::to_string(line)), std::string::npos) << msg;
}

TEST(CudaCheck, CaptureErrorsGetAnExplanation) {
  const std::string msg = message_of([] { CUDA_CHECK(cudaErrorStreamCaptureUnsupported); });
  EXPECT_NE(msg.find("[graphify-host-sync]"), std::string::npos) << msg;
  for (int code = 900; code <= 908; ++code)
    EXPECT_FALSE(gfy::cuda::detail::capture_error_hint(cudaError_t(code)).empty()) << code;
  EXPECT_TRUE(gfy::cuda::detail::capture_error_hint(cudaErrorInvalidValue).empty());
}

TEST(CudaCheck, LibraryStatusVariants) {
  EXPECT_NE(message_of([] { CUBLAS_CHECK(CUBLAS_STATUS_NOT_INITIALIZED); }).find("cuBLAS error"), std::string::npos);
  EXPECT_NE(message_of([] { CUDNN_CHECK(3); }).find("cuDNN error"), std::string::npos);
  EXPECT_EQ(message_of([] { CUDA_CHECK(cudaSuccess); }), "");
}

TEST(CudaRegistration, NoDeviceMeansNoBackend) {
  if (gfy::cuda::device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_FALSE(gfy::cuda::is_available());
  EXPECT_FALSE(has_backend(kCUDA));
  EXPECT_FALSE(gfy::cuda::is_stream_capturing());
  EXPECT_THROW(gfy::cuda::synchronize(), Error);
  EXPECT_THROW(zeros({2}, TensorOptions().device(kCUDA)), Error);
}

TEST(CudaRegistration, DeviceMeansBackend) {
  GFY_REQUIRE_CUDA();
  EXPECT_TRUE(has_backend(kCUDA));
  EXPECT_STREQ(backend_for(kCUDA).name(), "cuda");
}

} // namespace
