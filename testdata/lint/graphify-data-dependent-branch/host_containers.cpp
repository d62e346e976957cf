// RUN-ARGS: --graph-region=Decoder::decode
// RUN-ARGS: --checks=-*,graphify-data-dependent-branch,graphify-data-dependent-loop,graphify-data-dependent-size
// Host containers keep two facts apart: what their elements hold and how many elements there are.
// Storing a value read from a tensor into an element taints the elements, not the length; the
// length follows tensor data when the container grows under a data-dependent condition (a filter
// that continues, a loop over a selection, a greedy loop) or by a data-dependent count. Assertions
// are not branches, and an object whose method only receives a value read from a tensor is not
// tainted by it.
#include <torch/torch.h>

#include <cassert>
#include <optional>
#include <string>
#include <vector>

struct Vocabulary {
  std::vector<std::string> words;
  std::string lookup(int id);      // defined in another file: computes, stores nothing
  void add(const std::string &w);  // defined in another file: may store
  int size() const;
};

struct Box {
  float x1, y1, x2, y2, score;
};

struct Decoder : torch::nn::Module {
  Vocabulary vocab;
  Vocabulary seen;
  std::vector<float> history;
  std::vector<int> flagged;

  void note(torch::Tensor s) {
    if (s.item<float>() > 0.5f)
      flagged.push_back(1);
  }

  std::string decode(torch::Tensor logits, std::vector<float> &scores) {
    std::string text;
    for (int t = 0; t < 16; ++t) {
      int token = logits[t].argmax().item<int>();
      text += vocab.lookup(token);
      seen.add(vocab.lookup(token));
      scores[t] = logits[t].max().item<float>();
    }
    if (vocab.size() > 0) // lookup() returns a value: it is taken to store nothing
      text += " ";
    if (seen.size() > 0) // add() returns nothing: it is taken to store its argument
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-7]]:12: note: added to 'seen' here
    // CHECK-NOTES: :[[@LINE-10]]:11: note: assigned to 'token' here
    // CHECK-NOTES: :[[@LINE-11]]:38: note: value read from tensor here
      text += ".";
    assert(scores.size() > 0 && "scores were sized by the caller");
    TORCH_CHECK(scores.size() == 16, "expected 16 scores");
    TORCH_CHECK(scores[0] >= 0.f, "negative score");
    if (scores.size() > 4) // elements were stored, the length is the caller's
      text += "?";
    for (float s : scores)
      text += s > 0.5f ? "+" : "-";
      // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-NOTES: :[[@LINE-3]]:16: note: assigned to 's' here
      // CHECK-NOTES: :[[@LINE-19]]:7: note: stored into 'scores' here
      // CHECK-NOTES: :[[@LINE-20]]:35: note: value read from tensor here
    float first = scores[0];
    if (first > 0.5f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-3]]:11: note: assigned to 'first' here
    // CHECK-NOTES: :[[@LINE-25]]:7: note: stored into 'scores' here
    // CHECK-NOTES: :[[@LINE-26]]:35: note: value read from tensor here
      text += "!";
    history.push_back(scores[1]);
    if (history.empty()) // grown once on every path
      text += "e";
    if (flagged.empty()) // grown under a data-dependent condition in note()
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-42]]:15: note: the length of 'flagged' follows tensor data from here
    // CHECK-NOTES: :[[@LINE-44]]:11: note: value read from tensor here
      text += "f";
    return text;
  }
};

struct PostProcess : torch::nn::Module {
  torch::Tensor forward(torch::Tensor pred) {
    std::vector<Box> boxes;
    for (int64_t i = 0; i < pred.size(0); ++i) {
      float score = pred[i][4].item<float>();
      if (score < 0.25f)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-NOTES: :[[@LINE-3]]:13: note: assigned to 'score' here
      // CHECK-NOTES: :[[@LINE-4]]:32: note: value read from tensor here
        continue;
      boxes.push_back({pred[i][0].item<float>(), pred[i][1].item<float>(), pred[i][2].item<float>(),
                       pred[i][3].item<float>(), score});
    }
    auto out = torch::zeros({static_cast<int64_t>(boxes.size()), 5});
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-5]]:13: note: the length of 'boxes' follows tensor data from here
    // CHECK-NOTES: :[[@LINE-12]]:13: note: assigned to 'score' here
    // CHECK-NOTES: :[[@LINE-13]]:32: note: value read from tensor here
    for (const Box &b : boxes)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-10]]:13: note: the length of 'boxes' follows tensor data from here
    // CHECK-NOTES: :[[@LINE-17]]:13: note: assigned to 'score' here
    // CHECK-NOTES: :[[@LINE-18]]:32: note: value read from tensor here
      out[0][4] += b.score;

    std::vector<int64_t> counts;
    for (int64_t i = 0; i < 8; ++i) {
      std::vector<float> row;
      for (int j = 0; j < 4; ++j)
        row.push_back(pred[i][j].item<float>());
      auto r = torch::zeros({static_cast<int64_t>(row.size())}); // declared in the body: 4
      out = out + r.sum();
      counts.push_back(i);
    }
    auto fixed = torch::zeros({static_cast<int64_t>(counts.size())}); // 8, whatever the data

    std::optional<int64_t> best;
    for (int64_t i = 0; i < 8; ++i)
      if (pred[i][4].item<float>() > 0.9f)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-NOTES: :[[@LINE-2]]:22: note: value read from tensor here
        best = i;
    if (best.has_value())
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-6]]:22: note: value read from tensor here
      out = out * 2;

    std::vector<int64_t> slots(4);
    slots.resize(pred.select(1, 4).argmax().item<int64_t>());
    for (int64_t s : slots)
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-3]]:11: note: the length of 'slots' follows tensor data from here
    // CHECK-NOTES: :[[@LINE-4]]:45: note: value read from tensor here
      out = out + s;
    return out.sum() + fixed.sum();
  }
};

// A helper given a copy of a vector of read values loops to its length, which the caller fixed:
// the elements follow tensor data, the length does not.
static std::vector<float> widen(std::vector<float> w) {
  std::vector<float> out;
  for (size_t i = 0; i < w.size(); ++i)
    out.push_back(std::max(w[i], 1.0f / w[i]));
  return out;
}

struct Widener : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto c = x.contiguous();
    const float *p = c.data_ptr<float>();
    std::vector<float> w(16, 0.0f);
    for (int i = 0; i < 16; ++i)
      w[i] = p[i] + 1.0f;
    auto wide = widen(w);
    if (wide[0] > 1.0f) // CHECK-MESSAGES: :[[@LINE]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      x = x * 2;
    return x;
  }
};

// An opaque host function writes its output through a wrapper object built from a non-const
// reference (OpenCV's OutputArray): the wrapped vector holds what the function computed.
struct OutputWrapper {
  OutputWrapper(std::vector<float> &v);
};
void threshold_on_host(const std::vector<float> &src, OutputWrapper dst, float t);

struct Thresholder : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto c = x.contiguous();
    std::vector<float> scores(c.data_ptr<float>(), c.data_ptr<float>() + 8);
    std::vector<float> kept(8, 0.0f);
    threshold_on_host(scores, kept, 0.5f);
    if (kept[0] > 0.0f) // CHECK-MESSAGES: :[[@LINE]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      x = x * 2;
    return x;
  }
};

// A pointer to the elements (`data()`) handed out under a condition read from a tensor reads the
// elements, it does not resize: the loop over the buffer's size stays a fixed number of steps.
struct Staging : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<float> staged(16);
    if (x.max().item<float>() > 0.5f) { // CHECK-MESSAGES: :[[@LINE]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      float *p = staged.data();
      p[0] = 1.0f;
    }
    for (size_t i = 0; i < staged.size(); ++i)
      x = x + staged[i];
    return x;
  }
};
