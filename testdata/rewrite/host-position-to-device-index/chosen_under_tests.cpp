// Values set under tests of values read from tensors (implicit flows), as an MCTS move choice
// writes them: the recipe follows what the value becomes. A position picked by comparing visit
// counts is an argmax on the device; a value that only a logging loop over host nodes uses leaves
// with that loop; a value stored into host objects (the moves of an expansion) leaves with them.
#include <torch/torch.h>

#include <memory>
#include <vector>

struct Node {
  int visits = 0;
  float value = 0;
  int move = 0;
  std::vector<std::shared_ptr<Node>> children;
};

void log_child(int move, float avg);

torch::Tensor best_policy(const torch::Tensor &visits, int n) {
  const float *counts = visits.data_ptr<float>(); // EXPECT-NO-FIX: ^the condition depends on 'counts\[i\]', a host value computed on the host from tensor data
  int best = -1;
  float most = -1;
  for (int i = 0; i < n; ++i) {
    if (counts[i] > most) { // EXPECT-NO-FIX: ^the condition depends on 'counts\[i\]'
      most = counts[i];
      best = i;
    }
  }
  torch::Tensor policy = torch::zeros({n});
  policy[best] = 1.0f; // EXPECT-RECIPE: ^the position is chosen under conditions on tensor data
  return policy;
}

void log_children(const torch::Tensor &values, Node &root) {
  const float *v = values.data_ptr<float>(); // EXPECT-NO-FIX: ^the condition depends on 'v\[child->move\]'
  for (auto &child : root.children)
    if (v[child->move] > 0) // EXPECT-NO-FIX: ^the condition depends on 'v\[child->move\]'
      child->visits += 1;
  for (const auto &child : root.children) {
    float avg = (child->visits > 0) ? child->value / child->visits : 0.0f; // EXPECT-RECIPE: ^the code is in a loop whose body works on host values only \(line 39\)
    log_child(child->move, avg);
  }
}

struct Move {
  int player;
  torch::Tensor prior;
};

std::vector<Move> expand(const torch::Tensor &logits, int current) {
  const float *p = logits.data_ptr<float>(); // EXPECT-NO-FIX: ^the condition depends on 'p\[0\]'
  int player = current;
  if (p[0] > 0.5f) // EXPECT-NO-FIX: ^the condition depends on 'p\[0\]'
    player = 1 - current;
  std::vector<Move> moves;
  for (int k = 0; k < 4; ++k) {
    int next = player == 1 ? 0 : 1; // EXPECT-RECIPE: ^the value is decided under conditions on tensor data \(an implicit flow\) and goes into host code
    moves.push_back(Move{next, logits[k]});
  }
  return moves;
}
