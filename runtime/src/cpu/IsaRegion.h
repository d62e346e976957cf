#pragma once
// Which x86-64 level the CPU kernels of this translation unit are compiled for.
//
// The kernel sources (everything a KernelTable points into) are compiled once per level the build
// lists in GRAPHIFY_CPU_ISA_LEVELS, with GFY_CPU_ISA_LEVEL=1 (x86-64), 3 (x86-64-v3: AVX2, FMA)
// or 4 (x86-64-v4: AVX-512), and KernelDispatch.cpp picks the highest level the CPU runs.
// Everything a kernel source defines between GFY_CPU_ISA_BEGIN and GFY_CPU_ISA_END, including the
// inline functions and templates of the private headers it includes, lands in the inline
// namespace gfy::cpu::x86_64_v<N> and is compiled for that level by a target pragma. Why a
// namespace: the linker keeps one copy of each inline function or template instance, and an
// AVX-512 copy kept for a baseline caller is the classic SIGILL; with one namespace per level no
// two copies compiled for different levels share a mangled name. Why a pragma rather than
// per-file -march flags: what a kernel source includes before its region (the standard library,
// the runtime's public headers) stays baseline code, so the standard library's inline functions
// and templates instantiated here are the same baseline code in every object, and a level's
// functions still inline them. tests/runtime/check_portable_isa.py holds the built library to it.
//
// Without GFY_CPU_ISA_LEVEL (builds with one copy of the kernels, GRAPHIFY_CPU_ISA_LEVELS=native
// or generic, and the runtime's other sources that include these headers) the region is empty:
// plain gfy::cpu, compiled with the file's flags.

#if defined(GFY_CPU_ISA_LEVEL)

// One string each: _Pragma takes a single literal.
#define GFY_CPU_ISA_TARGET_V3 "sse3,ssse3,sse4.1,sse4.2,popcnt,cx16,sahf,avx,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,xsave"
#define GFY_CPU_ISA_TARGET_V4 "sse3,ssse3,sse4.1,sse4.2,popcnt,cx16,sahf,avx,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,xsave,avx512f,avx512bw,avx512cd,avx512dq,avx512vl"

#if defined(__clang__)
#define GFY_CPU_ISA_PUSH_TARGET(features)                                                          \
  _Pragma(GFY_CPU_ISA_STR(clang attribute push(__attribute__((target(features))), apply_to = function)))
#define GFY_CPU_ISA_POP_TARGET _Pragma("clang attribute pop")
#else
#define GFY_CPU_ISA_PUSH_TARGET(features) _Pragma("GCC push_options") _Pragma(GFY_CPU_ISA_STR(GCC target(features)))
#define GFY_CPU_ISA_POP_TARGET _Pragma("GCC pop_options")
#endif
#define GFY_CPU_ISA_STR(...) #__VA_ARGS__

#if GFY_CPU_ISA_LEVEL == 1
#define GFY_CPU_ISA_BEGIN inline namespace x86_64_v1 {
#define GFY_CPU_ISA_END }
#define GFY_CPU_ISA_NAME "x86-64"
#elif GFY_CPU_ISA_LEVEL == 3
#define GFY_CPU_ISA_BEGIN inline namespace x86_64_v3 { GFY_CPU_ISA_PUSH_TARGET(GFY_CPU_ISA_TARGET_V3)
#define GFY_CPU_ISA_END GFY_CPU_ISA_POP_TARGET }
#define GFY_CPU_ISA_NAME "x86-64-v3"
#elif GFY_CPU_ISA_LEVEL == 4
#define GFY_CPU_ISA_BEGIN inline namespace x86_64_v4 { GFY_CPU_ISA_PUSH_TARGET(GFY_CPU_ISA_TARGET_V4)
#define GFY_CPU_ISA_END GFY_CPU_ISA_POP_TARGET }
#define GFY_CPU_ISA_NAME "x86-64-v4"
#else
#error "GFY_CPU_ISA_LEVEL must be 1, 3 or 4"
#endif

/// The widest vector register of the level, in bytes (for code written on vector extensions).
#define GFY_CPU_ISA_VECTOR_BYTES (GFY_CPU_ISA_LEVEL == 4 ? 64 : GFY_CPU_ISA_LEVEL == 3 ? 32 : 16)

#else // one copy of the kernels, built with the file's flags

#define GFY_CPU_ISA_BEGIN
#define GFY_CPU_ISA_END
#if defined(GFY_CPU_ISA_SINGLE_NAME)
#define GFY_CPU_ISA_NAME GFY_CPU_ISA_SINGLE_NAME
#else
#define GFY_CPU_ISA_NAME "generic"
#endif
#if defined(__AVX512F__)
#define GFY_CPU_ISA_VECTOR_BYTES 64
#elif defined(__AVX__)
#define GFY_CPU_ISA_VECTOR_BYTES 32
#else
#define GFY_CPU_ISA_VECTOR_BYTES 16
#endif

#endif
