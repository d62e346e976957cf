# ctest soundness.generator: the generator's contract that reproducers and the CI corpus rely on.
#   1. equal seeds give equal programs;
#   2. `--module 2` is module Case2 of the whole program, byte for byte;
#   3. different seeds give different programs.
# Usage: cmake -DGENERATE=<soundness-generate> -DWORK=<dir> -P GeneratorContract.cmake
foreach(run a b)
  execute_process(COMMAND ${GENERATE} --seed 12345 -o ${WORK}/${run}.cpp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "soundness-generate failed: ${rc}")
  endif()
endforeach()
file(READ ${WORK}/a.cpp a)
file(READ ${WORK}/b.cpp b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "seed 12345 gave two different programs")
endif()
execute_process(COMMAND ${GENERATE} --seed 12345 --module 2 OUTPUT_VARIABLE one)
string(REGEX REPLACE "^[^\n]*\n[^\n]*\n#include <torch/torch.h>\n\n" "" module "${one}")
string(FIND "${a}" "${module}" at)
if(at EQUAL -1 OR NOT module MATCHES "struct Case2 " OR module MATCHES "struct Case[013-9]")
  message(FATAL_ERROR "--module 2 is not Case2 of the whole program:\n${one}")
endif()
execute_process(COMMAND ${GENERATE} --seed 12346 OUTPUT_VARIABLE other)
if(other STREQUAL a)
  message(FATAL_ERROR "seeds 12345 and 12346 gave the same program")
endif()
