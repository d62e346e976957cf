# The Debian package, made by CPack from what `cmake --install` installs:
#   cmake --preset package && cmake --build --preset package && (cd build/package && cpack)
# gives graphify_<version>_amd64.deb: the tools, the rule packs, the clang-tidy module, the runtime
# (static and shared), its headers, the CMake package and the man pages, under /usr. Depends are
# computed from the binaries by dpkg-shlibdeps, plus what they need at run time and consumers at
# build time (Clang's builtin headers for the tools, OpenBLAS's link library for the static
# runtime). A package built with the CUDA backend would depend on the CUDA toolkit, which is not
# a Debian package: the package preset builds without it (docs/ci.md, "The Debian package").
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME graphify)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "graphify")
set(CPACK_PACKAGE_CONTACT "graphify developers <graphify@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "find and fix what blocks tracing and CUDA-graph capture in C++ tensor code")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "graphify-lint reports the lines of LibTorch-style C++ that block tracing or CUDA-graph capture "
    "(data-dependent branches, loops and sizes, dynamic shapes, host syncs, capture-unsafe CUDA calls) "
    "and rewrites what it can prove equivalent; libgraphify-tidy.so runs the same checks in clang-tidy; "
    "graphify-validate runs original and rewritten code side by side on the bundled runtime.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-19-dev, libopenblas-dev")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clang-tidy-19")
set(CPACK_STRIP_FILES ON)
include(CPack)
