// Host containers filled by helpers keep their elements and their length apart: a helper that
// stores tensor values at positions it chooses statically leaves the length static for its
// callers, through an out-parameter and through its return value; one that keeps only some
// values makes the length data dependent.
#include <torch/torch.h>

#include <vector>

void fill_rows(const torch::Tensor &t, std::vector<std::vector<int>> &out) {
  auto c = t.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  for (int x = 0; x < 4; ++x) {
    std::vector<int> row(4);
    for (int y = 0; y < 4; ++y)
      row[y] = c[x][y].item<int>();
    out.emplace_back(row);
  }
}

std::vector<std::vector<int>> rows_of(const torch::Tensor &t) {
  std::vector<std::vector<int>> rows;
  fill_rows(t, rows);
  return rows;
}

std::vector<float> kept_scores(const torch::Tensor &scores, float threshold) {
  std::vector<float> kept;
  for (int64_t i = 0; i < scores.size(0); ++i) {
    float s = scores[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (s > threshold)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      kept.push_back(s);
  }
  return kept;
}

struct Decoder : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<std::vector<int>> direct;
    fill_rows(x, direct);
    for (size_t i = 0; i < direct.size(); ++i)
      x = x + 1;
    auto rows = rows_of(x);
    for (size_t i = 0; i < rows.size(); ++i)
      x = x + 1;
    if (rows[0][0] > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-5]]:17: note: returned from 'rows_of' here
    // CHECK-NOTES: :[[@LINE-28]]:3: note: written by 'fill_rows' here
      x = x * 2;
    auto kept = kept_scores(x, 0.5f);
    for (size_t i = 0; i < kept.size(); ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-3]]:17: note: returned from 'kept_scores' here
    // CHECK-NOTES: :[[@LINE-23]]:12: note: the length of 'kept' follows tensor data from here
      x = x + 1;
    return x;
  }
};

// A container whose elements hold tensor values and whose length is static, passed to a helper:
// the helper's loop over its length is not data dependent.
float total(const std::vector<float> &vals) {
  float t = 0;
  for (size_t i = 0; i < vals.size(); ++i)
    t += vals[i];
  return t;
}

struct Summer : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<float> v(4);
    for (int i = 0; i < 4; ++i)
      v[i] = x[i].item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return x * total(v);
  }
};

// An accessor's size is its tensor's metadata, not a value read through it: a loop to
// `a.size(0)` over a copied tensor has a static trip count (only the reads are syncs).
struct AccessorSum : torch::nn::Module {
  torch::Tensor forward(torch::Tensor probs) {
    auto h = probs.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto a = h.accessor<float, 1>();
    float s = 0;
    for (int64_t i = 0; i < a.size(0); ++i)
      s += a[i];
    return probs * s;
  }
};

// A helper given one element of a vector of vectors (`drop_below(groups[g], t)`) changes that
// element's length, not how many elements the outer vector has: sized once by resize(), the loop
// over it is static, the loop over each inner vector is not.
static void drop_below(std::vector<float> &v, float threshold) {
  for (size_t j = 0; j < v.size();) {
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    if (v[j] < threshold)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      v.erase(v.begin() + j);
    else
      ++j;
  }
}

struct Grouped : torch::nn::Module {
  torch::Tensor forward(torch::Tensor scores, float threshold) {
    auto host = scores.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto a = host.accessor<float, 1>();
    std::vector<std::vector<float>> groups;
    groups.resize(4);
    for (int64_t r = 0; r < 16; ++r)
      groups[r % 4].push_back(a[r]);
    float total = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      drop_below(groups[g], threshold);
      for (float s : groups[g])
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
        total += s;
    }
    return scores * total;
  }
};
