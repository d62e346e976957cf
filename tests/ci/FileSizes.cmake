# The layout rule of STYLE.md and issue #29: no source file of the analyzer, the rewriter or the
# tools over MAX lines (one concept per file). Lists every file over it, then fails.
#   cmake -DROOT=<source dir> -DMAX=700 -P FileSizes.cmake
file(GLOB_RECURSE sources RELATIVE ${ROOT}
     ${ROOT}/analyzer/*.cpp ${ROOT}/analyzer/*.h ${ROOT}/rewriter/*.cpp ${ROOT}/rewriter/*.h
     ${ROOT}/tools/*.cpp ${ROOT}/tools/*.h)
set(over "")
foreach(f ${sources})
  file(READ ${ROOT}/${f} text)
  string(REGEX REPLACE "[^\n]" "" newlines "${text}") # lines as wc -l counts them
  string(LENGTH "${newlines}" n)
  if(n GREATER MAX)
    string(APPEND over "  ${f}: ${n} lines\n")
  endif()
endforeach()
if(over)
  message(FATAL_ERROR "files over ${MAX} lines (split them along a seam, docs/architecture.md):\n${over}")
endif()
