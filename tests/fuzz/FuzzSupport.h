#pragma once
// Shared by the text-input fuzz targets: a scratch file per process for loaders that read paths.

#include <cstdint>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace graphify::fuzz {

/// Writes `Size` bytes to a file private to this process (one per `Name`) and returns its path.
inline std::string writeScratch(const char *Name, const uint8_t *Data, size_t Size) {
  const std::string Path = "/tmp/graphify-fuzz-" + std::to_string(::getpid()) + "-" + Name;
  if (std::FILE *F = std::fopen(Path.c_str(), "wb")) {
    std::fwrite(Data, 1, Size, F);
    std::fclose(F);
  }
  return Path;
}

} // namespace graphify::fuzz
