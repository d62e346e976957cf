// The CPU's global random generator (Generator.h) and manual_seed, compiled once, outside the
// per-level kernel sources.
#include "Generator.h"

#include <graphify/core/Functions.h>

namespace gfy {
namespace detail {
std::mt19937_64 &generator() {
  static std::mt19937_64 gen(67280421310721ULL);
  return gen;
}
} // namespace detail

void manual_seed(uint64_t seed) { detail::generator().seed(seed); }
} // namespace gfy
