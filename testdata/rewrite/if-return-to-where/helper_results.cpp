// A terminal test that combines what the game's helpers return, as board-game environments for
// self-play write it: the helpers read the board tensor, the test itself holds no tensor. The
// advice is to return the helper's result as a 0-d tensor and test it with tensor ops.
#include <torch/torch.h>

class Game {
public:
  bool is_terminal() const;

private:
  int winner() const;
  bool full() const;
  torch::Tensor board_;
};

int Game::winner() const { return board_.max().item<int>(); }

bool Game::full() const { return (board_ != 0).all().item<bool>(); }

bool Game::is_terminal() const {
  if (winner() != 0) // EXPECT-NO-FIX: ^the condition tests what 'winner' \(line 21\) returns, a host value it computes from tensor data: return it as a 0-d tensor
    return true;
  return full();
}
