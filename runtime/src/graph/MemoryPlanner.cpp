// The graph-private pool. After capture, a buffer that only the tape can reach (no user handle,
// no control-flow node holds it) and that the tape writes before it reads is an intermediate:
// its contents live exactly from its first to its last node. Intermediates whose lifetimes do
// not overlap share memory (first-fit interval packing, largest first), as a CUDA graph's
// private pool would, so replay touches about as much memory as eager execution does with the
// caching allocator, instead of one buffer per op.
#include "Tape.h"

#include <algorithm>

namespace gfy::detail {

void plan_memory(Tape &tape) {
  const TapeAccesses acc(tape);
  struct Block {
    Storage *st;
    int64_t first, last;
    size_t size, offset = 0;
  };
  std::vector<Block> blocks;
  for (Storage *st : acc.storages()) {
    const TapeAccesses::Use &u = acc.use(st);
    if (!u.first_is_write || st->backend == nullptr || !st->device.is_cpu() || st->nbytes == 0) continue;
    if (acc.tape_private(st)) blocks.push_back({st, u.nodes.front(), u.nodes.back(), (st->nbytes + 63) / 64 * 64});
  }
  if (blocks.empty()) return;
  std::vector<Block *> by_size;
  for (Block &b : blocks) by_size.push_back(&b);
  std::stable_sort(by_size.begin(), by_size.end(), [](Block *a, Block *b) { return a->size > b->size; });
  std::vector<Block *> placed;
  size_t pool_size = 0;
  for (Block *b : by_size) {
    std::vector<std::pair<size_t, size_t>> busy; // [offset, end) of time-overlapping blocks
    for (Block *p : placed)
      if (p->first <= b->last && b->first <= p->last) busy.push_back({p->offset, p->offset + p->size});
    std::sort(busy.begin(), busy.end());
    size_t at = 0;
    for (auto [o, e] : busy) {
      if (o >= at + b->size) break;
      at = std::max(at, e);
    }
    b->offset = at;
    pool_size = std::max(pool_size, at + b->size);
    placed.push_back(b);
  }
  Backend &cpu = backend_for(kCPU);
  auto pool = std::make_shared<Storage>();
  pool->nbytes = pool_size;
  pool->data = cpu.allocate(pool_size);
  pool->device = Device(kCPU);
  pool->backend = &cpu;
  for (Block &b : blocks) {
    // The intermediate's own buffer goes back to the cache; from now on it lives in the pool,
    // which the tape owns (backend = null: the Storage no longer frees anything itself).
    b.st->backend->deallocate(b.st->data, b.st->nbytes);
    b.st->data = static_cast<char *>(pool->data) + b.offset;
    b.st->backend = nullptr;
  }
  tape.pool = std::move(pool);
}

} // namespace gfy::detail
