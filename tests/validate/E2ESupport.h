#pragma once
// What the end-to-end tests share: the built graphify-validate run as a user would, through the
// process runner the tool uses for its harnesses, with the tests' own harness cache.
#include "graphify/validate/Runner.h"

#include <string>
#include <vector>

namespace graphify::validate::e2e {

inline RunResult runValidate(std::vector<std::string> Args, unsigned Timeout = 1500) {
  // The cache option first: what follows a `--` among the arguments is the compiler's.
  Args.insert(Args.begin(), "--cache-dir=" GRAPHIFY_VALIDATE_TEST_CACHE);
  Args.insert(Args.begin(), GRAPHIFY_VALIDATE_EXE);
  return runIsolated(Args, Timeout);
}

} // namespace graphify::validate::e2e
