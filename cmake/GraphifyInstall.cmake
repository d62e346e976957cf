# Installs the tools, the runtime headers and libraries, the rule packs, and a CMake package so
# that an outside project can write find_package(graphify CONFIG REQUIRED) and link
# graphify::runtime or graphify::torch_compat, and lint its targets with graphify_lint().
include(CMakePackageConfigHelpers)

# The packs only: rules/ also holds the loader's sources (lib/, include/).
file(GLOB _graphify_rule_packs ${CMAKE_CURRENT_SOURCE_DIR}/rules/*.yaml)
install(FILES ${_graphify_rule_packs} DESTINATION ${CMAKE_INSTALL_DATADIR}/graphify/rules)
# The runtime links OpenBLAS through this interface target; exporting it carries the library
# path to outside projects that link graphify::runtime statically.
install(TARGETS graphify_openblas EXPORT graphifyTargets)
install(EXPORT graphifyTargets NAMESPACE graphify:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/graphify)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/graphifyConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/graphifyConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/graphify
  PATH_VARS CMAKE_INSTALL_DATADIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/graphifyConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/graphifyConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/graphifyConfigVersion.cmake
              ${CMAKE_CURRENT_SOURCE_DIR}/cmake/graphifyLint.cmake ${CMAKE_CURRENT_SOURCE_DIR}/cmake/graphifyWholeProgram.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/graphify)
