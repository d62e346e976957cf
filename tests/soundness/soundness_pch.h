// Precompiled once per build (target soundness_pch) and force-included into every driver of the
// rewrite-soundness fuzzer: each parse of <torch/torch.h> costs 30-100 s otherwise.
#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
