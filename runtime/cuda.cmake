# The CUDA backend of the gfy:: runtime (src/cuda), included by runtime/CMakeLists.txt when nvcc is
# found (GRAPHIFY_HAVE_CUDA). It builds without a GPU; it registers itself at start-up only when
# a device is present, so every test that needs one skips cleanly elsewhere.
#
# Layout: the kernels and host code compile into the OBJECT library graphify_runtime_cuda (own
# flags: nvcc takes neither the runtime's -Wall nor its CPU kernels' per-level targets), whose
# objects are added to the static graphify_runtime and to the shared graphify_runtime_shared. Nothing in the core references the backend, so a linker would drop its
# self-registering object from the archive: graphify_runtime carries an INTERFACE link option
# that keeps the anchor symbol defined next to the registrar. The CUDA libraries travel as an
# exported INTERFACE target with absolute paths (as graphify_openblas does), so an installed
# graphify::runtime links without find_package(CUDAToolkit) in the consumer.

# Architectures: the user's -DCMAKE_CUDA_ARCHITECTURES (or CUDAARCHS) wins; otherwise A100 and
# H100/H200 (sm_80, sm_90), instead of nvcc's oldest default.
# enable_language(CUDA) fills CMAKE_CUDA_ARCHITECTURES with nvcc's default and the help string
# "CUDA architectures"; a value given with -D (or a preset) carries another help string.
set(GRAPHIFY_CUDA_ARCHS "80;90")
get_property(_gfy_arch_help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
if(DEFINED ENV{CUDAARCHS} OR (CMAKE_CUDA_ARCHITECTURES AND NOT _gfy_arch_help STREQUAL "CUDA architectures"))
  set(GRAPHIFY_CUDA_ARCHS "${CMAKE_CUDA_ARCHITECTURES}")
endif()

if(NOT CUDAToolkit_FOUND)
  find_package(CUDAToolkit REQUIRED)
endif()

# cuDNN is optional: without it the LSTM entry points throw a gfy::Error that says so.
find_path(GRAPHIFY_CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/include /usr/include/x86_64-linux-gnu)
find_library(GRAPHIFY_CUDNN_LIBRARY cudnn HINTS ${CUDAToolkit_LIBRARY_DIR} /usr/lib/x86_64-linux-gnu)
set(GRAPHIFY_HAVE_CUDNN OFF)
if(GRAPHIFY_CUDNN_INCLUDE_DIR AND GRAPHIFY_CUDNN_LIBRARY)
  set(GRAPHIFY_HAVE_CUDNN ON)
endif()
message(STATUS "graphify: CUDA backend for architectures ${GRAPHIFY_CUDA_ARCHS}; cuDNN ${GRAPHIFY_HAVE_CUDNN}")

set(_gfy_cuda_dir ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda)
add_library(graphify_runtime_cuda OBJECT
  ${_gfy_cuda_dir}/CudaBackend.cpp
  ${_gfy_cuda_dir}/CudaCapture.cpp
  ${_gfy_cuda_dir}/CudaLstm.cpp
  ${_gfy_cuda_dir}/ElementwiseKernels.cu
  ${_gfy_cuda_dir}/ReduceKernels.cu
  ${_gfy_cuda_dir}/IndexKernels.cu
  ${_gfy_cuda_dir}/BlasKernels.cu
  ${_gfy_cuda_dir}/ConvKernels.cu
  ${_gfy_cuda_dir}/PoolKernels.cu
  ${_gfy_cuda_dir}/UpsampleKernels.cu)
target_include_directories(graphify_runtime_cuda PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/include ${_gfy_cuda_dir} ${_gfy_cuda_dir}/include)
target_include_directories(graphify_runtime_cuda SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
if(GRAPHIFY_HAVE_CUDNN)
  target_include_directories(graphify_runtime_cuda SYSTEM PRIVATE ${GRAPHIFY_CUDNN_INCLUDE_DIR})
  target_compile_definitions(graphify_runtime_cuda PRIVATE GRAPHIFY_HAVE_CUDNN=1)
endif()
# CMake 3.25 does not know nvcc 13's C++20 flag (a CUDA target inherits CXX_STANDARD 20 and then fails
# with "requires the language dialect CUDA20"): tell it, when it does not know.
if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
set_target_properties(graphify_runtime_cuda PROPERTIES
  CUDA_ARCHITECTURES "${GRAPHIFY_CUDA_ARCHS}"
  CUDA_STANDARD 20
  CUDA_RUNTIME_LIBRARY Shared
  POSITION_INDEPENDENT_CODE ON)
target_compile_options(graphify_runtime_cuda PRIVATE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr -Wno-deprecated-gpu-targets>)

target_sources(graphify_runtime PRIVATE $<TARGET_OBJECTS:graphify_runtime_cuda>)
add_dependencies(graphify_runtime graphify_runtime_cuda)
target_include_directories(graphify_runtime PUBLIC $<BUILD_INTERFACE:${_gfy_cuda_dir}/include>)
target_compile_definitions(graphify_runtime PUBLIC GRAPHIFY_HAVE_CUDA_BACKEND=1)

# The CUDA libraries, by absolute path so that the exported target needs no CUDA:: targets.
add_library(graphify_cuda_libs INTERFACE)
set(_gfy_cuda_libs)
foreach(_lib cudart cublas)
  find_library(GRAPHIFY_CUDA_${_lib}_LIBRARY ${_lib} HINTS ${CUDAToolkit_LIBRARY_DIR} REQUIRED)
  list(APPEND _gfy_cuda_libs ${GRAPHIFY_CUDA_${_lib}_LIBRARY})
endforeach()
if(GRAPHIFY_HAVE_CUDNN)
  list(APPEND _gfy_cuda_libs ${GRAPHIFY_CUDNN_LIBRARY})
endif()
target_link_libraries(graphify_cuda_libs INTERFACE ${_gfy_cuda_libs})
target_link_libraries(graphify_runtime PRIVATE graphify_cuda_libs)
# Keeps the self-registering object (see CudaBackend.cpp) in every link of the static runtime.
target_link_options(graphify_runtime INTERFACE "LINKER:--undefined=gfy_cuda_backend_anchor")

# The shared runtime is made of graphify_runtime's own objects, which do not include the objects
# added to it from other targets: it gets the backend the same way. (A shared library runs its
# registrar when loaded; no anchor is needed.)
if(TARGET graphify_runtime_shared)
  target_sources(graphify_runtime_shared PRIVATE $<TARGET_OBJECTS:graphify_runtime_cuda>)
  add_dependencies(graphify_runtime_shared graphify_runtime_cuda)
  target_include_directories(graphify_runtime_shared PUBLIC $<BUILD_INTERFACE:${_gfy_cuda_dir}/include>)
  target_compile_definitions(graphify_runtime_shared PUBLIC GRAPHIFY_HAVE_CUDA_BACKEND=1)
  target_link_libraries(graphify_runtime_shared PRIVATE graphify_cuda_libs)
endif()

install(TARGETS graphify_cuda_libs EXPORT graphifyTargets)
install(FILES ${_gfy_cuda_dir}/include/graphify/cuda/Cuda.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/graphify/cuda)
