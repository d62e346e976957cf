#pragma once
// CUDA's prototype is declared here, so that no toolkit is needed.
extern "C" int cudaDeviceSynchronize(void);
void helper(int n);
int level();
int other(int x);
