# Script run by ctest: the Debian package of this build tree, made by CPack, unpacked into a
# scratch root with dpkg-deb -x; its tools run from there (rule packs and Clang's headers found
# from the package's own layout) and an outside project builds against its CMake package.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/RunCommand.cmake)

run(${CPACK} -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR}/out)
file(GLOB debs ${WORK_DIR}/out/graphify_*_amd64.deb)
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one graphify_<version>_amd64.deb, found: ${debs}")
endif()
run(dpkg-deb --field ${debs} Package Version Depends)
foreach(expected "Package: graphify" "Version: ${VERSION}" "libclang-cpp19" "libyaml-cpp" "libclang-common-19-dev"
                 "libopenblas")
  string(FIND "${LAST_OUTPUT}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the package's control fields lack '${expected}':\n${LAST_OUTPUT}")
  endif()
endforeach()

set(ROOT ${WORK_DIR}/root)
run(dpkg-deb -x ${debs} ${ROOT})
foreach(f usr/bin/graphify-lint usr/bin/graphify-link usr/bin/graphify-validate usr/lib/libgraphify-tidy.so usr/lib/libgraphify_runtime.a
          usr/lib/libgraphify_runtime.so usr/include/graphify/graphify.h usr/include/graphify/compat/torch/torch.h
          usr/share/graphify/rules/tags.yaml usr/share/graphify/rules/libtorch.yaml
          usr/lib/cmake/graphify/graphifyConfig.cmake usr/lib/cmake/graphify/graphifyLint.cmake
          usr/lib/cmake/graphify/graphifyWholeProgram.cmake
          usr/share/man/man1/graphify-lint.1.gz usr/share/man/man1/graphify-link.1.gz
          usr/share/man/man1/graphify-validate.1.gz)
  if(NOT EXISTS ${ROOT}/${f})
    message(FATAL_ERROR "the package lacks /${f}")
  endif()
endforeach()

# The tools from the unpacked root, with nothing pointing them at the source tree: a model file
# against the packaged torch/torch.h shim, and a capture window through the packaged module.
set(env ${CMAKE_COMMAND} -E env --unset=GRAPHIFY_RULES_DIR)
run(${env} ${ROOT}/usr/bin/graphify-lint --version)
if(NOT LAST_OUTPUT MATCHES "rules dir: ${ROOT}/usr/share/graphify/rules")
  message(FATAL_ERROR "the packaged graphify-lint does not use the packaged rule packs:\n${LAST_OUTPUT}")
endif()
execute_process(COMMAND ${env} ${ROOT}/usr/bin/graphify-lint --scope=all ${MODEL} -- -std=c++20
                        -I${ROOT}/usr/include/graphify/compat -I${ROOT}/usr/include
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "warning: [^\n]*\\[graphify-")
  message(FATAL_ERROR "the packaged graphify-lint on ${MODEL} (${rc}):\n${out}\n${err}")
endif()
if(CLANG_TIDY)
  run(${env} ${CLANG_TIDY} --load=${ROOT}/usr/lib/libgraphify-tidy.so --checks=-*,graphify-* ${CAPTURE} -- -std=c++17)
  if(NOT LAST_OUTPUT MATCHES "capture.cpp:12:3: warning: 'cudaDeviceSynchronize'")
    message(FATAL_ERROR "the packaged clang-tidy module printed:\n${LAST_OUTPUT}")
  endif()
endif()
run(${ROOT}/usr/bin/graphify-validate --help)

# An outside project against the packaged CMake package, runtime and shim.
run(${CMAKE_COMMAND} -S ${OUTSIDE_DIR} -B ${WORK_DIR}/outside -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${ROOT}/usr
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/outside)
run(ldd ${WORK_DIR}/outside/uses_runtime_shared)
if(NOT LAST_OUTPUT MATCHES "libgraphify_runtime\\.so[^\n]*${ROOT}/usr/lib/")
  message(FATAL_ERROR "uses_runtime_shared does not load the packaged libgraphify_runtime.so:\n${LAST_OUTPUT}")
endif()
foreach(exe uses_runtime uses_runtime_shared)
  run(${WORK_DIR}/outside/${exe})
  if(NOT LAST_OUTPUT MATCHES "sum=6")
    message(FATAL_ERROR "${exe} printed: ${LAST_OUTPUT}")
  endif()
endforeach()

# The packaged runtime runs on every x86-64 CPU: nothing beyond x86-64-v1 outside the per-level
# kernels (static and shared library), and the outside program runs with the baseline kernels.
if(NOT CPU_ISA_LEVELS MATCHES "^(native|generic)$")
  # The packaged shared library is stripped: its function boundaries come from the build tree's
  # copy, which the check first finds to hold the same code.
  run(${PYTHON} ${PORTABLE_ISA_CHECK} ${ROOT}/usr/lib/libgraphify_runtime.so
      --symbols-from=${BUILD_DIR}/runtime/libgraphify_runtime.so)
  run(${PYTHON} ${PORTABLE_ISA_CHECK} ${ROOT}/usr/lib/libgraphify_runtime.a)
  run(${CMAKE_COMMAND} -E env GRAPHIFY_CPU_ISA=x86-64 ${WORK_DIR}/outside/uses_runtime_shared)
  if(NOT LAST_OUTPUT MATCHES "sum=6")
    message(FATAL_ERROR "uses_runtime_shared at GRAPHIFY_CPU_ISA=x86-64 printed: ${LAST_OUTPUT}")
  endif()
endif()
