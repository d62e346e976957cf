// Helpers whose bodies live in other translation units of the program.
#pragma once
#include <torch/torch.h>

float peak(const torch::Tensor &x);
void readStats(const torch::Tensor &x, float &out);
int64_t scaled(int64_t n);
float mid(const torch::Tensor &x);
float deep(const torch::Tensor &x);
void trainingOnly(const torch::Tensor &x);
