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
# The script graphify_whole_program's actions run (cmake -P), installed beside this file.
set(graphify_WHOLE_PROGRAM_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/graphifyWholeProgram.cmake")

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

# graphify_whole_program(<name> TARGETS <target>... [GRAPH_REGIONS <glob>...] [CHECKS <globs>]
#                        [WARNINGS_AS_ERRORS <globs>] [PROJECT_ROOT <dir>] [ARGS <graphify-lint flag>...]
#                        [ALL])
#
# Checks the C++ and CUDA sources of <target>s as one program (whole-program mode by summaries,
# docs/ci.md) in build actions, so that the build system runs them in parallel and re-runs only
# what an edit affects. `ninja <name>` (or every build, with ALL):
#   1. extracts each source's summary: one action per source, re-run when the source, a project
#      header it includes, the configuration or the rule packs change (a depfile names them);
#   2. links and settles the program (one action; later rounds parse, with graphify-lint's -j, only
#      the units whose analyses they need), writing each source's slice only when it changes;
#   3. checks each source against its slice: one action per source, re-run only when its slice
#      changed, so an edit re-checks the sources it affects and no other. Findings print as the
#      action runs; <name>'s directory keeps each source's report and findings.txt, all of them.
# Findings are warnings; those WARNINGS_AS_ERRORS selects fail the build, as do sources that do not
# compile. The actions run after <target>s are built (their generated headers exist) and use the
# compile commands CMake exports for them (EXPORT_COMPILE_COMMANDS is turned on for <target>s).
# PROJECT_ROOT (default CMAKE_SOURCE_DIR) is the directory whose headers are the project's.
#
#   find_package(graphify CONFIG REQUIRED)
#   add_library(postprocess STATIC nms.cpp decode.cpp)
#   add_executable(detector main.cpp)
#   graphify_whole_program(graphify TARGETS postprocess detector GRAPH_REGIONS "Detector::postprocess")
#   # ninja graphify
function(graphify_whole_program name)
  cmake_parse_arguments(PARSE_ARGV 1 GFY "ALL" "CHECKS;WARNINGS_AS_ERRORS;PROJECT_ROOT" "TARGETS;GRAPH_REGIONS;ARGS")
  set(where "graphify_whole_program(${name})")
  if(GFY_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${GFY_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT GFY_TARGETS)
    message(FATAL_ERROR "${where}: TARGETS <target>... is required")
  endif()
  if(NOT CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    message(FATAL_ERROR "${where}: needs a Ninja or Makefile generator (compile_commands.json), not ${CMAKE_GENERATOR}")
  endif()
  foreach(tool LINT LINK)
    if(NOT EXISTS "${graphify_${tool}_EXECUTABLE}")
      message(FATAL_ERROR "${where}: graphify's ${tool} tool not found at '${graphify_${tool}_EXECUTABLE}'")
    endif()
  endforeach()
  if(NOT GFY_PROJECT_ROOT)
    set(GFY_PROJECT_ROOT "${CMAKE_SOURCE_DIR}")
  endif()
  get_filename_component(root "${GFY_PROJECT_ROOT}" ABSOLUTE)

  # The program's units: every C++/CUDA source of the targets, by absolute path.
  set(extensions ${CMAKE_CXX_SOURCE_FILE_EXTENSIONS} cu)
  set(sources "")
  foreach(target IN LISTS GFY_TARGETS)
    if(NOT TARGET ${target})
      message(FATAL_ERROR "${where}: '${target}' is not a target")
    endif()
    set_property(TARGET ${target} PROPERTY EXPORT_COMPILE_COMMANDS ON)
    get_target_property(target_sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    get_target_property(binary_dir ${target} BINARY_DIR)
    foreach(source IN LISTS target_sources)
      if(source MATCHES "\\$<")
        message(WARNING "${where}: '${source}' of ${target} is a generator expression; it is not checked")
        continue()
      endif()
      get_filename_component(extension "${source}" LAST_EXT)
      string(REGEX REPLACE "^\\." "" extension "${extension}")
      if(NOT extension IN_LIST extensions)
        continue()
      endif()
      if(NOT IS_ABSOLUTE "${source}")
        if(EXISTS "${source_dir}/${source}")
          set(source "${source_dir}/${source}")
        else()
          set(source "${binary_dir}/${source}") # generated
        endif()
      endif()
      get_filename_component(source "${source}" ABSOLUTE)
      list(APPEND sources "${source}")
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES sources)
  list(SORT sources)
  if(NOT sources)
    message(FATAL_ERROR "${where}: ${GFY_TARGETS} have no C++ or CUDA source")
  endif()

  # Everything lives in <name>.graphify/, each source's files at its absolute path under a folder
  # (graphify-lint --emit-summaries and graphify-link --slices lay them out so).
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}.graphify")
  set(analysis --quiet "--project-root=${root}")
  if(GFY_CHECKS)
    list(APPEND analysis "--checks=${GFY_CHECKS}")
  endif()
  foreach(region IN LISTS GFY_GRAPH_REGIONS)
    list(APPEND analysis "--graph-region=${region}")
  endforeach()
  list(APPEND analysis ${GFY_ARGS})
  # The analysis flags and the file lists go to the tools as response files (@file), rewritten only
  # when they change, so that a changed flag re-runs every action and nothing else does.
  set(quoted "")
  foreach(arg IN LISTS analysis)
    string(REPLACE "\\" "\\\\" arg "${arg}")
    string(REPLACE "\"" "\\\"" arg "${arg}")
    string(APPEND quoted "\"${arg}\"\n")
  endforeach()
  file(GENERATE OUTPUT "${dir}/analysis.rsp" CONTENT "${quoted}")
  set(unit_dirs "")
  set(files "")
  foreach(source IN LISTS sources)
    string(APPEND unit_dirs "\"${dir}/summaries${source}\"\n")
    string(APPEND files "\"${source}\"\n")
  endforeach()
  file(GENERATE OUTPUT "${dir}/units.rsp" CONTENT "${unit_dirs}")
  file(GENERATE OUTPUT "${dir}/files.rsp" CONTENT "${files}")
  file(GLOB packs "${graphify_RULES_DIR}/*.yaml")
  set(tools "${graphify_LINT_EXECUTABLE}" "${graphify_LINK_EXECUTABLE}" ${packs} "${dir}/analysis.rsp")
  set(db "${CMAKE_BINARY_DIR}/compile_commands.json")
  set(script "${graphify_WHOLE_PROGRAM_SCRIPT}")

  set(extracted "")
  set(slices "")
  set(reports "")
  foreach(source IN LISTS sources)
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${source}")
    add_custom_command(OUTPUT "${dir}/stamps${source}.extracted"
      COMMAND "${graphify_LINT_EXECUTABLE}" -p "${CMAKE_BINARY_DIR}" "@${dir}/analysis.rsp"
              "--emit-summaries=${dir}/summaries" "--depfile=${dir}/stamps${source}.d"
              "--depfile-target=${dir}/stamps${source}.extracted" "${source}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${dir}/stamps${source}.extracted"
      DEPENDS "${source}" ${tools} "${db}"
      DEPFILE "${dir}/stamps${source}.d"
      COMMENT "graphify: extracting ${shown}"
      VERBATIM)
    add_custom_command(OUTPUT "${dir}/reports${source}.txt"
      COMMAND "${CMAKE_COMMAND}" -DMODE=check "-DLINT=${graphify_LINT_EXECUTABLE}" "-DBUILD_DIR=${CMAKE_BINARY_DIR}"
              "-DDIR=${dir}" "-DSOURCE=${source}" "-DWARNINGS_AS_ERRORS=${GFY_WARNINGS_AS_ERRORS}" -P "${script}"
      DEPENDS "${dir}/slices${source}.program.summary" ${tools} "${script}"
      DEPFILE "${dir}/reports${source}.d"
      COMMENT "graphify: checking ${shown}"
      VERBATIM)
    list(APPEND extracted "${dir}/stamps${source}.extracted")
    list(APPEND slices "${dir}/slices${source}.program.summary")
    list(APPEND reports "${dir}/reports${source}.txt")
  endforeach()
  add_custom_command(OUTPUT "${dir}/linked.stamp"
    BYPRODUCTS "${dir}/program.summary" ${slices}
    COMMAND "${CMAKE_COMMAND}" -DMODE=settle "-DLINT=${graphify_LINT_EXECUTABLE}"
            "-DLINK=${graphify_LINK_EXECUTABLE}" "-DBUILD_DIR=${CMAKE_BINARY_DIR}" "-DDIR=${dir}" -P "${script}"
    DEPENDS ${extracted} ${tools} "${dir}/units.rsp" "${dir}/files.rsp" "${script}"
    COMMENT "graphify: linking ${name}"
    VERBATIM)
  add_custom_command(OUTPUT "${dir}/findings.txt"
    COMMAND "${CMAKE_COMMAND}" -DMODE=report "-DDIR=${dir}" -P "${script}"
    DEPENDS ${reports} "${dir}/files.rsp" "${script}"
    COMMENT "graphify: ${name}'s findings"
    VERBATIM)
  set(all "")
  if(GFY_ALL)
    set(all ALL)
  endif()
  # linked.stamp too: CMake adds a command to a target for its outputs, not for its byproducts.
  add_custom_target(${name} ${all} DEPENDS "${dir}/findings.txt" "${dir}/linked.stamp")
  add_dependencies(${name} ${GFY_TARGETS})
endfunction()
