# Script run by ctest (install.whole_program): graphify_whole_program() on the project in
# whole_program/, built with Ninja as a user builds it. The first build extracts, links and checks
# every source and reports the finding another unit's graph region gives helper.cpp; a build with
# nothing changed does nothing; an edit re-extracts the edited source and re-checks exactly the
# sources whose slice it changes; a touched but unchanged file re-checks nothing; WARNINGS_AS_ERRORS
# fails the build (again on the next one); a misspelt keyword stops the configure.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/RunCommand.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
file(COPY ${PROJECT_DIR}/ DESTINATION ${WORK_DIR}/project)
set(P ${WORK_DIR}/project)
set(ENV{XDG_CACHE_HOME} ${WORK_DIR}/cache)
set(configure_args -G Ninja -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_CXX_FLAGS=-Wno-attributes
    -DGRAPHIFY_CMAKE_DIR=${CMAKE_DIR} -Dgraphify_LINT_EXECUTABLE=${LINT} -Dgraphify_LINK_EXECUTABLE=${LINK}
    -Dgraphify_RULES_DIR=${RULES_DIR})

# build(<dir>): `ninja graphify` in <dir>; its output in OUT.
function(build dir)
  run(${CMAKE_COMMAND} --build ${dir} --target graphify)
  set(OUT "${LAST_OUTPUT}" PARENT_SCOPE)
endfunction()
# expect_actions(<what> <verb> <source>...): OUT shows "graphify: <verb> src/<source>" for exactly
# these sources.
function(expect_actions what verb)
  foreach(source helper.cpp level.cpp other.cpp run.cpp)
    string(FIND "${OUT}" "graphify: ${verb} src/${source}" at)
    if(source IN_LIST ARGN AND at EQUAL -1)
      message(FATAL_ERROR "${what}: expected '${verb} src/${source}':\n${OUT}")
    elseif(NOT source IN_LIST ARGN AND NOT at EQUAL -1)
      message(FATAL_ERROR "${what}: did not expect '${verb} src/${source}':\n${OUT}")
    endif()
  endforeach()
endfunction()
set(finding "${P}/src/helper.cpp:5:5: warning: 'cudaDeviceSynchronize' waits for the whole device")
set(findings ${P}/build/graphify.graphify/findings.txt)

run(${CMAKE_COMMAND} -S ${P} -B ${P}/build ${configure_args})
build(${P}/build)
expect_actions("first build" extracting helper.cpp level.cpp other.cpp run.cpp)
expect_actions("first build" checking helper.cpp level.cpp other.cpp run.cpp)
file(READ ${findings} all)
string(FIND "${all}" "${finding}" at)
if(at EQUAL -1 OR NOT OUT MATCHES "graphify: 1 finding in 1 of 4 sources")
  message(FATAL_ERROR "the first build should report helper.cpp's finding:\n${OUT}\nfindings.txt:\n${all}")
endif()

build(${P}/build)
if(NOT OUT MATCHES "no work to do")
  message(FATAL_ERROR "a build with nothing changed should do nothing:\n${OUT}")
endif()

# An edit that no other source depends on: that source alone.
file(APPEND ${P}/src/other.cpp "int another(int x) { return x - 1; }\n")
build(${P}/build)
expect_actions("after editing other.cpp" extracting other.cpp)
expect_actions("after editing other.cpp" checking other.cpp)

# A file touched, not changed: extracted again (the build system cannot tell), nothing re-checked.
file(TOUCH ${P}/src/helper.cpp)
build(${P}/build)
expect_actions("after touching helper.cpp" extracting helper.cpp)
expect_actions("after touching helper.cpp" checking)

# The region stops calling helper(): run.cpp and the helper it no longer reaches are re-checked,
# and the finding goes.
file(READ ${P}/src/run.cpp text)
string(REPLACE "helper(level());" "level();" text "${text}")
file(WRITE ${P}/src/run.cpp "${text}")
build(${P}/build)
expect_actions("after editing run.cpp" extracting run.cpp)
expect_actions("after editing run.cpp" checking helper.cpp run.cpp)
file(READ ${findings} all)
if(NOT all STREQUAL "" OR NOT OUT MATCHES "graphify: 0 findings in 0 of 4 sources")
  message(FATAL_ERROR "the finding should be gone:\n${OUT}\nfindings.txt:\n${all}")
endif()

# WARNINGS_AS_ERRORS fails the build, and the next build too (the failing check left no report).
file(COPY ${PROJECT_DIR}/src/run.cpp DESTINATION ${P}/src)
run(${CMAKE_COMMAND} -S ${P} -B ${P}/strict ${configure_args} -DSTRICT=ON)
foreach(attempt first second)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${P}/strict --target graphify
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT out MATCHES "helper.cpp:5:5: error: 'cudaDeviceSynchronize'"
     OR NOT out MATCHES "graphify: findings reported as errors in[ \n]+${P}/src/helper.cpp")
    message(FATAL_ERROR "WARNINGS_AS_ERRORS did not fail the ${attempt} build (${rc}):\n${out}\n${err}")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -S ${P} -B ${P}/misuse ${configure_args} -DMISUSE=ON
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "graphify_whole_program\\(graphify\\): unknown arguments:[ \n]*TARGET")
  message(FATAL_ERROR "a misspelt keyword should stop the configure (${rc}):\n${out}\n${err}")
endif()
