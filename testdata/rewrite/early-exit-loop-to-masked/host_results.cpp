// Advice for host reads whose values end in host results: fields of result structs, constructors
// of classes outside the tensor API and braced aggregates (a host object), containers reached
// through a smart pointer (collected), strings built with += (host work), a compaction written in
// a function template, and flags and counts set under tests of tensor data (implicit flows).
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

struct Detection {
  int left = 0;
  int top = 0;
  float score = 0;
};

struct Rect {
  Rect(int x, int y, int w, int h) : x(x), y(y), w(w), h(h) {}
  int x, y, w, h;
};

void to_detections(const torch::Tensor &pred, float t, std::shared_ptr<std::vector<Detection>> &out) {
  auto dets = pred.index({pred.select(1, 4) > t});
  for (int64_t i = 0; i < dets.size(0); ++i) // EXPECT-NO-FIX: the loop's body does host work \('out->emplace_back' \(line 25\) fills a host container\)
    out->emplace_back(Detection{static_cast<int>(dets[i][0].item<float>()), static_cast<int>(dets[i][1].item<float>()), // EXPECT-RECIPE: the value is collected into a host container
                                dets[i][4].item<float>()});
}

std::vector<Detection> labelled(const torch::Tensor &pred, float t) {
  auto dets = pred.index({pred.select(1, 4) > t});
  std::vector<Detection> result;
  for (int64_t i = 0; i < dets.size(0); ++i) { // EXPECT-NO-FIX: the loop's body does host work \('result.push_back' \(line 38\)
    Detection d;
    d.left = static_cast<int>(dets[i][0].item<float>()); // EXPECT-RECIPE: the value is stored in a host object
    auto top = static_cast<int>(dets[i][1].item<float>()); // EXPECT-RECIPE: the value is stored in a host object
    Rect box(d.left, top, 4, 4);
    d.top = box.y;
    result.push_back(d);
  }
  return result;
}

std::string decode_bases(const torch::Tensor &ids) {
  static const char table[4] = {'A', 'C', 'G', '*'};
  auto c = ids.contiguous();
  const int *p = c.data_ptr<int>(); // EXPECT-NO-FIX: the branch runs host code: 'text \+=' \(line 53\) fills a host container
  std::string text;
  int skipped = 0;
  for (int i = 0; i < 8; ++i) {
    if (table[p[i]] == '*') // EXPECT-NO-FIX: the branch runs host code: 'text \+=' \(line 53\)
      ++skipped;
    else
      text += table[p[i]];
  }
  return text + std::to_string(skipped);
}

template <typename T> int front_of(const T *g, float thr, std::vector<int> &front) {
  int n = 0;
  for (int s = 0; s < 16; ++s) {
    if (static_cast<float>(g[s]) >= thr) { // EXPECT-RECIPE: the branch compacts: 'front\[n\]' \(line 62\) is written at 'n'
      front[n] = s;
      ++n;
    }
  }
  return n;
}

int beam_front(const torch::Tensor &guide, float thr, std::vector<int> &front) {
  auto c = guide.contiguous();
  return front_of<float>(c.data_ptr<float>(), thr, front); // EXPECT-RECIPE: decides a branch \(line 61\) that no select can express: the branch compacts
}

torch::Tensor scale_if_present(const torch::Tensor &labels, const torch::Tensor &x, int64_t c) {
  bool found = false;
  if (torch::nonzero(labels == c).size(0) > 0) // EXPECT-NO-FIX: the size of a value-dependent selection: .*mask.any\(\)
    found = true;
  if (found) // EXPECT-NO-FIX: the condition depends on 'found', which is set or counted under a condition that tests tensor data \(an implicit flow\)
    return x * 2;
  return x;
}

torch::Tensor first_confident(const torch::Tensor &scores, const torch::Tensor &boxes, float t) {
  int64_t n = 0;
  for (int64_t i = 0; i < scores.size(0); ++i)
    if (scores[i].item<float>() > t) // EXPECT-NO-FIX: the branch counts on the host: 'n \+= 1' \(line 87\)
      n += 1;
  return boxes.narrow(0, 0, n); // EXPECT-RECIPE: counts or records how often a condition on tensor data held .*mask.sum\(\)
}

struct Mark {
  float x;
};

void marks_present(const torch::Tensor &pred, float t, std::vector<Mark> &out) {
  auto dets = pred.index({pred.select(1, 4) > t});
  if (dets.size(0) > 0) { // EXPECT-NO-FIX: the size of a value-dependent selection: the branch runs host code: 'out.push_back'
    for (int64_t i = 0; i < 2; ++i)
      out.push_back(Mark{1.0f});
  }
}

int count_marks(const torch::Tensor &ids) {
  static const std::string marks = "a*b";
  auto c = ids.contiguous();
  const int *p = c.data_ptr<int>(); // EXPECT-NO-FIX: 'marks', a host string, which the condition reads with values that follow tensor data
  int n = 0;
  if (marks[p[0]] == '*') // EXPECT-NO-FIX: which the condition reads with values that follow tensor data: keep the table as a tensor
    n = 1;
  return n;
}

float host_mean(const float *p, int n);

float mean_on_host(const torch::Tensor &x) {
  auto c = x.contiguous();
  return host_mean(c.data_ptr<float>(), 4); // EXPECT-RECIPE: the tensor's memory is handed to host code
}

int count_above(const float *p, int n, float t) {
  int count = 0;
  for (int i = 0; i < n; ++i)
    if (p[i] > t) // EXPECT-NO-FIX: the code is in 'count_above', which works on host values only
      ++count;
  return count;
}

int confident_count(const torch::Tensor &scores, float t) {
  auto c = scores.contiguous();
  return count_above(c.data_ptr<float>(), 16, t); // EXPECT-RECIPE: decides a branch \(line [0-9]+\) that no select can express: the code is in 'count_above'
}

torch::Tensor rescore_on_host(const torch::Tensor &dets) {
  auto h = dets.cpu(); // EXPECT-RECIPE: the host copy is used only by tensor ops \(and size queries\), which run on the device as well: drop the copy
  auto rows = torch::ones({h.size(0), 1});
  h.slice(1, 0, 4) = h.slice(1, 0, 4) * 2;
  torch::Tensor out;
  out = torch::cat({h, rows}, 1);
  return dets + out.sum();
}

std::vector<float> scores_on_host(const torch::Tensor &dets) {
  auto h = dets.cpu(); // EXPECT-RECIPE: the tensor is copied to host memory: move the copy, and the host code that uses it, out
  auto s = h.select(1, 4).contiguous();
  return std::vector<float>(s.data_ptr<float>(), s.data_ptr<float>() + s.numel());
}

struct Tally {
  int above = 0;
};

int tally_above(const torch::Tensor &s, float t) {
  auto c = s.contiguous();
  const float *p = c.data_ptr<float>(); // EXPECT-NO-FIX: the branch counts on the host: '\+\+tally.above' \(line [0-9]+\)
  Tally tally;
  for (int i = 0; i < 16; ++i)
    if (p[i] > t) // EXPECT-NO-FIX: the branch counts on the host: .*mask.sum\(\)
      ++tally.above;
  return tally.above;
}

void affine_point(float x, float y, const std::vector<float> &m, std::vector<float> &out);

void warp_joints(torch::Tensor &joints, const std::vector<float> &m) {
  for (int j = 0; j < 4; ++j) {
    std::vector<float> pt;
    const float x = joints[j][0].item<float>(); // EXPECT-RECIPE: the value is handed to host code \(a function that takes no tensor
    affine_point(x, 1.0f, m, pt);
  }
}

float refine_peak(const torch::Tensor &preds, const torch::Tensor &hm) {
  int px = static_cast<int>(preds[0].item<float>()); // EXPECT-NO-FIX: 'preds\[0\].item<float>\(\)' is not read as an integer
  float dx = hm[px + 1].item<float>() - hm[px - 1].item<float>(); // EXPECT-NO-FIX: 'preds\[0\].item<float>\(\)' is not read as an integer
  return dx > 0 ? 0.25f : -0.25f;
}

int clamp_edge(const torch::Tensor &stats) {
  auto c = stats.contiguous();
  const int *p = c.data_ptr<int>(); // EXPECT-RECIPE: decides a branch \(line 182\)
  int sx = p[0] - 2;
  if (sx < 0) // EXPECT-NO-FIX: the condition depends on 'sx', a host value computed on the host from tensor data .* or move the test
    sx = 0;
  return sx;
}

struct Corners {
  int top;
  int bottom;
};

Corners corners_of(const std::vector<int> &stats);

int flipped_box(const torch::Tensor &stats) {
  auto s = stats.contiguous();
  std::vector<int> host(s.data_ptr<int>(), s.data_ptr<int>() + 4); // EXPECT-RECIPE: .
  Corners c = corners_of(host);
  if (c.bottom < c.top) // EXPECT-NO-FIX: the condition depends on 'c', a host 'Corners' \(not a number\)
    return 1;
  return 0;
}

// A value type that names its element type (as OpenCV's Point_ does) is a host object, not a
// container: the reads that build it are handed, with it, to host code.
struct Pixel {
  using value_type = int;
  Pixel(int x, int y);
  int x, y;
};
struct Canvas;
void draw_segment(Canvas &canvas, Pixel from, Pixel to);

void draw_edges(const torch::Tensor &pts, Canvas &canvas) {
  for (int k = 0; k < 4; ++k) {
    Pixel a(pts[k][0].item<int>(), pts[k][1].item<int>()); // EXPECT-RECIPE: the value is handed to host code \(a function that takes no tensor
    Pixel b(pts[k + 1][0].item().toInt(), pts[k + 1][1].item().toInt()); // EXPECT-RECIPE: the value is handed to host code
    draw_segment(canvas, a, b);
  }
}

// A decoder method of a model class (which holds tensors) handed the scores' memory and a length
// read from a tensor: its body works on host values only, so both reads are handed to host code,
// at every call (a second call site gets the same advice, not the generic one). A method whose
// body computes with the model's tensors is not host code.
class Recognizer {
public:
  std::string greedy_search(const float *scores, int len, int64_t vocab) {
    std::string text;
    for (int t = 0; t < len; ++t) { // EXPECT-NO-FIX: the loop's body works on host values only
      int best = 0;
      for (int64_t v = 1; v < vocab; ++v)
        if (scores[t * vocab + v] > scores[t * vocab + best]) // EXPECT-NO-FIX: the code is in 'Recognizer::greedy_search', which works on host values only
          best = static_cast<int>(v);
      text += static_cast<char>('a' + best);
    }
    return text;
  }
  std::string embed_first(int token) { return std::to_string(table_[token].sum().item<float>()); }

  std::string decode(const torch::Tensor &am_scores, const torch::Tensor &lens, bool again) {
    auto s = am_scores.contiguous();
    std::string out;
    if (again)
      out = greedy_search(s.data_ptr<float>(), lens[0].item<int>(), s.size(1)); // EXPECT-RECIPE: is used by host code \(the loop at line
    else
      out = greedy_search(s.data_ptr<float>(), lens[0].item<int>(), s.size(1)); // EXPECT-RECIPE: the value is handed to host code \(a function that takes no tensor, called for its effect or working on host values only
    out += greedy_search(s.data_ptr<float>() + vocab_, 1, s.size(1)); // EXPECT-RECIPE: the tensor's memory is handed to host code
    return out + embed_first(lens[1].item<int>()); // EXPECT-RECIPE: becomes a position
  }

private:
  torch::Tensor table_;
  int64_t vocab_ = 8;
};

// A method of an object that holds no tensor (a writer), handed the tensor's memory: host code,
// whatever its body (declared only here).
struct ScoreWriter {
  void write(const float *scores, int n);
  int written = 0;
};

void dump_scores(const torch::Tensor &scores, ScoreWriter &writer) {
  auto c = scores.contiguous();
  writer.write(c.data_ptr<float>(), 4); // EXPECT-RECIPE: the tensor's memory is handed to host code
}

// A tracker that scores on the host: the reads go into a host vector, a host argmax over it moves
// the centre, and a later method tests the centre. The vector is the first thing to change, not
// the branch the argmax reaches (the twenty-first set's tracker).
struct CentreTracker {
  float cx = 0;
  int cols = 8;
  void clamp_centre() {
    if (cx > cols - 1) // EXPECT-NO-FIX: the branch runs host code
      printf("clamped\n");
  }
  void update(const torch::Tensor &response, const std::vector<float> &penalty) {
    std::vector<float> scored;
    for (size_t i = 0; i < penalty.size(); ++i)
      scored.push_back(response[i].item<float>() * penalty[i]); // EXPECT-RECIPE: the value is collected into a host container
    cx += static_cast<float>(std::max_element(scored.begin(), scored.end()) - scored.begin());
    clamp_centre();
  }
};

// A helper that builds the tensor from what each call site hands it: an upload of values the code
// computes is a plain copy, one of values read from a tensor a round trip (the other call site's
// data is not this one's).
static torch::Tensor as_tensor(const std::vector<float> &v) { return torch::tensor(v); }

static std::vector<float> ramp(int n) {
  std::vector<float> r;
  for (int i = 0; i < n; ++i)
    r.push_back(0.5f * static_cast<float>(i));
  return r;
}

torch::Tensor uploads(const torch::Tensor &score, std::vector<float> &log) {
  auto a = as_tensor(ramp(4)).to(torch::kCUDA); // EXPECT-RECIPE: the tensor is built in pageable host memory and copied to the device
  std::vector<float> crop;
  const float s = score.max().item<float>();
  for (int i = 0; i < 4; ++i)
    crop.push_back(s * static_cast<float>(i));
  log.push_back(s);
  return a + as_tensor(crop).to(torch::kCUDA); // EXPECT-RECIPE: the host data copied here holds values read from tensors \(line 302\), a round trip
}

// A host copy stored into a map the caller keeps (an MCTS node's priors): read where this function
// does not look, so the copy moves out with those reads.
void cache_priors(const torch::Tensor &out, std::map<int, torch::Tensor> &cache, int key) {
  auto h = out.detach().to(torch::kCPU); // EXPECT-RECIPE: ^the tensor is copied to host memory: move the copy, and the host code that uses it, out
  cache[key] = h;
}
