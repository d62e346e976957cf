# graphify_lint(<target> [CHECKS <globs>] [GRAPH_REGIONS <glob>...] [WARNINGS_AS_ERRORS <globs>]
#               [ARGS <graphify-lint flag>...])
#
# Lints every C++ source of <target> with graphify-lint as it compiles, with the target's own
# flags (the target's CXX_CLANG_TIDY property, which CMake runs before each compile). Findings are
# warnings in the build log; those WARNINGS_AS_ERRORS selects fail the build. The configuration
# file (.graphify.yaml above each source) applies as on the command line.
#
#   find_package(graphify CONFIG REQUIRED)
#   add_library(postprocess STATIC nms.cpp decode.cpp)
#   graphify_lint(postprocess GRAPH_REGIONS "*::decode" WARNINGS_AS_ERRORS "graphify-capture-unsafe-api")
#
# To run the checks inside clang-tidy instead, load the module (graphify_TIDY_MODULE):
#   set(CMAKE_CXX_CLANG_TIDY clang-tidy-19 --load=${graphify_TIDY_MODULE} --checks=-*,graphify-*)
function(graphify_lint target)
  cmake_parse_arguments(PARSE_ARGV 1 GFY "" "CHECKS;WARNINGS_AS_ERRORS" "GRAPH_REGIONS;ARGS")
  if(GFY_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "graphify_lint(${target}): unknown arguments: ${GFY_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "graphify_lint: '${target}' is not a target")
  endif()
  if(NOT EXISTS "${graphify_LINT_EXECUTABLE}")
    message(FATAL_ERROR "graphify_lint: graphify-lint not found at '${graphify_LINT_EXECUTABLE}'")
  endif()
  set(command "${graphify_LINT_EXECUTABLE}" --quiet --exit-zero-on-warnings)
  if(GFY_CHECKS)
    list(APPEND command "--checks=${GFY_CHECKS}")
  endif()
  foreach(region IN LISTS GFY_GRAPH_REGIONS)
    list(APPEND command "--graph-region=${region}")
  endforeach()
  if(GFY_WARNINGS_AS_ERRORS)
    list(APPEND command "--warnings-as-errors=${GFY_WARNINGS_AS_ERRORS}")
  endif()
  list(APPEND command ${GFY_ARGS})
  set_property(TARGET ${target} PROPERTY CXX_CLANG_TIDY ${command})
endfunction()
