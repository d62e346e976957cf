# Man pages generated from a tool's --help by help2man (Debian's help2man), installed gzipped
# under share/man/man1, so that the package documents what the binary itself says.
find_program(GRAPHIFY_HELP2MAN help2man)
if(NOT GRAPHIFY_HELP2MAN)
  message(FATAL_ERROR "graphify: help2man not found (the man pages are made from --help). Install it with:\n"
                      "  sudo apt-get install help2man\nor run scripts/setup, which installs every dependency.")
endif()

function(graphify_man_page target summary)
  set(page ${CMAKE_CURRENT_BINARY_DIR}/${target}.1)
  add_custom_command(OUTPUT ${page}.gz
    COMMAND ${GRAPHIFY_HELP2MAN} --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
            --name=${summary} --output=${page} $<TARGET_FILE:${target}>
    COMMAND gzip -9nf ${page}
    DEPENDS ${target}
    COMMENT "Man page of ${target}"
    VERBATIM)
  add_custom_target(${target}-man ALL DEPENDS ${page}.gz)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()
