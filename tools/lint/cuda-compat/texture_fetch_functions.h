// Stand-in for a header that CUDA 13 removed (texture references are gone) but that Clang 19's
// CUDA wrapper (__clang_cuda_runtime_wrapper.h) still includes. graphify-lint parses CUDA
// sources host-side only, where texture fetches play no part; it adds this directory to the
// include path only when the toolkit lacks the header.
#pragma once
