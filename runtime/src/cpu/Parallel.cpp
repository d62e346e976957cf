// The intra-op thread pool. Invariant: at most one parallel_for runs at a time (callers hold
// `run_mu_`), workers only touch the job while `pending_` counts them, and nested calls run
// inline, so no kernel ever waits on a worker that waits on it.
#include "Parallel.h"

#include <graphify/core/Functions.h>
#include <graphify/core/Parallel.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <cblas.h>

namespace gfy {
namespace cpu {
namespace {

thread_local bool t_in_parallel = false;

class Pool {
public:
  static Pool &get() {
    // Never destroyed: workers may be blocked in wait() during static destruction.
    static Pool *pool = new Pool();
    return *pool;
  }
  int threads() const { return threads_; }
  void set_threads(int n) {
    std::lock_guard<std::mutex> run(run_mu_);
    n = std::max(1, n);
    std::unique_lock<std::mutex> lock(mu_);
    while (int(workers_.size()) < n - 1) {
      const int id = int(workers_.size()) + 1;
      workers_.emplace_back([this, id] { work(id); });
      workers_.back().detach();
    }
    threads_ = n;
  }
  void run(int64_t n, int64_t chunks, const std::function<void(int64_t, int64_t)> &f) {
    std::lock_guard<std::mutex> run(run_mu_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      job_ = &f;
      n_ = n;
      chunks_ = chunks;
      pending_ = chunks - 1;
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    t_in_parallel = true;
    std::exception_ptr mine;
    try {
      f(0, range_end(0));
    } catch (...) {
      mine = std::current_exception();
    }
    t_in_parallel = false;
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
    if (mine) std::rethrow_exception(mine);
    if (error_) std::rethrow_exception(error_);
  }

private:
  Pool() {
    const unsigned hw = std::thread::hardware_concurrency();
    set_threads(int(hw == 0 ? 1 : std::min(hw, 64u)));
  }
  int64_t range_begin(int64_t i) const { return n_ * i / chunks_; }
  int64_t range_end(int64_t i) const { return n_ * (i + 1) / chunks_; }
  void work(int id) {
    t_in_parallel = true;
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (id >= chunks_ || job_ == nullptr) continue;
      const auto *job = job_;
      const int64_t b = range_begin(id), e = range_end(id);
      lock.unlock();
      std::exception_ptr err;
      try {
        (*job)(b, e);
      } catch (...) {
        err = std::current_exception();
      }
      lock.lock();
      if (err && !error_) error_ = err;
      if (--pending_ == 0) done_cv_.notify_one();
    }
  }

  std::mutex run_mu_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> workers_;
  const std::function<void(int64_t, int64_t)> *job_ = nullptr;
  int64_t n_ = 0, chunks_ = 1, pending_ = 0;
  uint64_t generation_ = 0;
  std::exception_ptr error_;
  int threads_ = 1;
};

} // namespace

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)> &f) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  Pool &pool = Pool::get();
  const int64_t chunks = std::min<int64_t>(pool.threads(), n / grain);
  if (t_in_parallel || chunks <= 1) {
    f(0, n);
    return;
  }
  pool.run(n, chunks, f);
}

} // namespace cpu

void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const std::function<void(int64_t, int64_t)> &f) {
  GFY_CHECK(grain_size >= 0, "parallel_for: grain_size must be non-negative, got ", grain_size);
  if (begin >= end) return;
  cpu::parallel_for(end - begin, grain_size, [&](int64_t b, int64_t e) { f(begin + b, begin + e); });
}
bool in_parallel_region() { return cpu::t_in_parallel; }

void set_num_threads(int n) {
  GFY_CHECK(n > 0, "set_num_threads expects a positive number of threads, got ", n);
  cpu::Pool::get().set_threads(n);
  openblas_set_num_threads(n);
}
int get_num_threads() { return cpu::Pool::get().threads(); }

namespace {
constexpr int kInteropUnset = -1;
std::atomic<int> g_interop_threads{kInteropUnset};
} // namespace

void set_num_interop_threads(int n) {
  GFY_CHECK(n > 0, "Expected positive number of threads");
  int unset = kInteropUnset;
  GFY_CHECK(g_interop_threads.compare_exchange_strong(unset, n),
            "Error: cannot set number of interop threads after parallel work has started or set_num_interop_threads "
            "called");
}
int get_num_interop_threads() {
  const int n = g_interop_threads.load();
  return n > 0 ? n : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace gfy
