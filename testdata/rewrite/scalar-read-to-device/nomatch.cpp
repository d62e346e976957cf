// scalar-read-to-device: host reads that do not feed tensor arithmetic are not this rule's.
#include "mock_torch.h"

float host_value(torch::Tensor x) { return x.sum().item<float>() * 2; }
