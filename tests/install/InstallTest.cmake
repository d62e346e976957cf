# Script run by ctest: install, then configure, build and run the outside project.
file(REMOVE_RECURSE ${WORK_DIR})
set(PREFIX ${WORK_DIR}/prefix)

include(${CMAKE_CURRENT_LIST_DIR}/RunCommand.cmake)

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
set(expected include/graphify/graphify.h include/graphify/compat/torch/torch.h share/graphify/rules/tags.yaml
    share/graphify/rules/libtorch.yaml lib/cmake/graphify/graphifyConfig.cmake
    lib/cmake/graphify/graphifyWholeProgram.cmake)
if(HAVE_TOOLS) # the runtime-only builds (CI's sanitizer step) install no tools
  list(APPEND expected bin/graphify-lint bin/graphify-link)
endif()
foreach(f ${expected})
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "install is missing ${f}")
  endif()
endforeach()

# An ASan-built runtime needs its consumer linked with the same sanitizers.
set(SANITIZER_FLAGS "")
if(SANITIZE)
  set(SANITIZER_FLAGS "-fsanitize=address,undefined")
endif()
run(${CMAKE_COMMAND} -S ${OUTSIDE_DIR} -B ${WORK_DIR}/outside -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS=${SANITIZER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZER_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/outside)
set(exes uses_runtime)
if(NOT SANITIZE)
  list(APPEND exes uses_runtime_shared) # the sanitizer builds make no shared runtime
endif()
foreach(exe ${exes})
  run(${WORK_DIR}/outside/${exe})
  if(NOT LAST_OUTPUT MATCHES "sum=6")
    message(FATAL_ERROR "${exe} printed: ${LAST_OUTPUT}")
  endif()
endforeach()
run(${WORK_DIR}/outside/uses_torch_compat)
if(NOT LAST_OUTPUT MATCHES "where=\\[2, 4, 5\\]")
  message(FATAL_ERROR "uses_torch_compat printed: ${LAST_OUTPUT}")
endif()

# The installed linter finds Clang's builtin headers and the rule packs from its own prefix.
if(HAVE_TOOLS AND EXISTS ${PREFIX}/bin/graphify-lint)
  file(WRITE ${WORK_DIR}/uses_cstddef.cpp "#include <cstddef>\nstd::size_t n = sizeof(int);\n")
  run(${PREFIX}/bin/graphify-lint ${WORK_DIR}/uses_cstddef.cpp -- -std=c++17)
endif()

# Linting as the build compiles: graphify_lint() (findings are warnings; with STRICT they fail the
# build) and, with clang-tidy-19, the installed module through CMAKE_CXX_CLANG_TIDY. The module
# finds the installed rule packs from its own file (no GRAPHIFY_RULES_DIR).
if(HAVE_TOOLS)
  if(CLANG_TIDY AND NOT EXISTS ${PREFIX}/lib/libgraphify-tidy.so)
    message(FATAL_ERROR "install is missing lib/libgraphify-tidy.so")
  endif()
  set(LINTS ${CMAKE_CURRENT_LIST_DIR}/lints)
  # (Up to the message's ';', which would split a MATCHALL list.)
  set(finding "capture.cpp:12:3: warning: 'cudaDeviceSynchronize' waits for the whole device")
  run(${CMAKE_COMMAND} -E env --unset=GRAPHIFY_RULES_DIR
      ${CMAKE_COMMAND} -S ${LINTS} -B ${WORK_DIR}/lints -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX}
      -DCMAKE_CXX_COMPILER=${CXX} -DCLANG_TIDY=${CLANG_TIDY})
  run(${CMAKE_COMMAND} -E env --unset=GRAPHIFY_RULES_DIR ${CMAKE_COMMAND} --build ${WORK_DIR}/lints)
  string(REGEX MATCHALL "${finding}" found "${LAST_OUTPUT}")
  list(LENGTH found n)
  set(expected 1)
  if(CLANG_TIDY)
    set(expected 2)
  endif()
  if(NOT n EQUAL expected)
    message(FATAL_ERROR "expected the finding ${expected} times (graphify_lint, clang-tidy with the module), "
                        "got ${n}:\n${LAST_OUTPUT}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${LINTS} -B ${WORK_DIR}/lints-misuse -G ${GENERATOR}
                          -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CXX_COMPILER=${CXX} -DMISUSE=ON
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "graphify_lint\\(linted_by_graphify\\): unknown arguments:[ \n]*GRAPH_REGION")
    message(FATAL_ERROR "a misspelt graphify_lint keyword should stop the configure (${rc}):\n${out}\n${err}")
  endif()
  run(${CMAKE_COMMAND} -S ${LINTS} -B ${WORK_DIR}/lints-strict -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX}
      -DCMAKE_CXX_COMPILER=${CXX} -DSTRICT=ON)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/lints-strict RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT out MATCHES "capture.cpp:12:3: error: 'cudaDeviceSynchronize'")
    message(FATAL_ERROR "WARNINGS_AS_ERRORS did not fail the build (${rc}):\n${out}\n${err}")
  endif()
endif()
