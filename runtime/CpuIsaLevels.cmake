# The CPU kernels, compiled once per instruction-set level (src/cpu/IsaRegion.h; docs/runtime.md,
# "Portability"): each level's objects come from the same sources with GFY_CPU_ISA_LEVEL set, and
# src/cpu/KernelDispatch.cpp runs the highest level the CPU has. GRAPHIFY_CPU_ISA_LEVELS lists them:
#   x86-64;x86-64-v3;x86-64-v4  the default on x86-64 with GCC or Clang: runs on every x86-64 CPU,
#                               with AVX2/FMA or AVX-512 code where the CPU has it (any subset)
#   native                      one copy of the kernels and the whole runtime with -march=native:
#                               the build machine's ISA; the library may not run on another CPU
#   generic                     one copy with the compiler's defaults (the default elsewhere)
# Sets GRAPHIFY_CPU_KERNEL_OBJECTS, the objects both runtime libraries link.
set(_gfy_kernel_sources
  src/cpu/ElementwiseKernels.cpp
  src/cpu/ReduceKernels.cpp
  src/cpu/BlasKernels.cpp
  src/cpu/IndexKernels.cpp
  src/cpu/ConvKernels.cpp
  src/cpu/ConvTiled.cpp
  src/cpu/PoolKernels.cpp
  src/cpu/UpsampleKernels.cpp
  src/cpu/FusedElementwise.cpp
  src/cpu/KernelTable.cpp)

set(_gfy_x86 FALSE)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set(_gfy_x86 TRUE)
endif()
if(_gfy_x86)
  set(_gfy_default_levels "x86-64;x86-64-v3;x86-64-v4")
else()
  set(_gfy_default_levels generic)
endif()
set(GRAPHIFY_CPU_ISA_LEVELS "${_gfy_default_levels}" CACHE STRING
    "CPU kernel levels to build and choose between at run time (x86-64, x86-64-v3, x86-64-v4), or native, or generic")

# One object library of the kernels; `level` is 1, 3 or 4, or empty for the one copy.
function(_gfy_kernel_objects name level)
  add_library(${name} OBJECT ${_gfy_kernel_sources})
  graphify_runtime_compile_flags(${name})
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_compile_features(${name} PRIVATE cxx_std_20)
  target_link_libraries(${name} PRIVATE graphify_openblas Threads::Threads)
  if(level)
    target_compile_definitions(${name} PRIVATE GFY_CPU_ISA_LEVEL=${level})
  endif()
  set(GRAPHIFY_CPU_KERNEL_OBJECTS ${GRAPHIFY_CPU_KERNEL_OBJECTS} $<TARGET_OBJECTS:${name}> PARENT_SCOPE)
endfunction()

set(GRAPHIFY_CPU_KERNEL_OBJECTS)
list(LENGTH GRAPHIFY_CPU_ISA_LEVELS _gfy_level_count)
if(GRAPHIFY_CPU_ISA_LEVELS STREQUAL "native" OR GRAPHIFY_CPU_ISA_LEVELS STREQUAL "generic")
  _gfy_kernel_objects(graphify_cpu_kernels "")
  target_compile_definitions(graphify_cpu_kernels PRIVATE GFY_CPU_ISA_SINGLE_NAME="${GRAPHIFY_CPU_ISA_LEVELS}")
  target_compile_definitions(graphify_runtime PRIVATE GFY_CPU_ISA_SINGLE_NAME="${GRAPHIFY_CPU_ISA_LEVELS}")
  if(GRAPHIFY_CPU_ISA_LEVELS STREQUAL "native")
    # The whole runtime: inline functions of the kernels' headers are shared with other sources.
    target_compile_options(graphify_cpu_kernels PRIVATE -march=native)
    target_compile_options(graphify_runtime PRIVATE -march=native)
  endif()
elseif(_gfy_level_count EQUAL 0)
  message(FATAL_ERROR "graphify: GRAPHIFY_CPU_ISA_LEVELS is empty; list levels (x86-64;x86-64-v3;x86-64-v4), "
                      "or say native or generic")
else()
  if(NOT _gfy_x86)
    message(FATAL_ERROR "graphify: GRAPHIFY_CPU_ISA_LEVELS=${GRAPHIFY_CPU_ISA_LEVELS} needs an x86-64 target and GCC "
                        "or Clang (this is ${CMAKE_SYSTEM_PROCESSOR}, ${CMAKE_CXX_COMPILER_ID}); use generic or native")
  endif()
  foreach(_level IN LISTS GRAPHIFY_CPU_ISA_LEVELS)
    if(_level STREQUAL "x86-64")
      set(_n 1)
    elseif(_level STREQUAL "x86-64-v3")
      set(_n 3)
    elseif(_level STREQUAL "x86-64-v4")
      set(_n 4)
    else()
      message(FATAL_ERROR "graphify: GRAPHIFY_CPU_ISA_LEVELS: unknown level '${_level}' (the levels are x86-64, "
                          "x86-64-v3, x86-64-v4; native and generic stand alone)")
    endif()
    _gfy_kernel_objects(graphify_cpu_kernels_v${_n} ${_n})
    target_compile_definitions(graphify_runtime PRIVATE GFY_CPU_ISA_HAVE_V${_n})
  endforeach()
endif()
target_sources(graphify_runtime PRIVATE ${GRAPHIFY_CPU_KERNEL_OBJECTS})
