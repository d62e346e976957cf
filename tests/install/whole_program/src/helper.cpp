#include "api.h"

void helper(int n) {
  if (n > 0)
    cudaDeviceSynchronize();
}
