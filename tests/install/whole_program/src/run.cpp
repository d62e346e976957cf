#include "api.h"

[[clang::annotate("graphify.graph_region")]] void run() {
  helper(level());
}
