// The differential dumper: a registry of named cases written once against `torch::`, and a main
// that runs each case and writes what it produced (dtype, shape, values — or that it threw) to a
// dump file. The same source is compiled against LibTorch and against graphify::torch_compat; the
// comparison lives in compare_dumps.cpp, which has no tensor library at all, so that neither side
// is ever judged by its own code.
//
// Invariant kept here: a dump line depends only on the tensor's dtype, shape and element values
// read back through `contiguous()` + `data_ptr<T>()` — never on strides, storage sharing or
// printing — so that two correct implementations produce dumps that compare equal.
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace diff {

/// A host scalar produced by a case (`item<float>()`, `equal`, `allclose`, a size).
struct S {
  double v;
};
/// A yes/no a case computed on the host (a property that must hold for any random draw), as 1 or 0.
inline S flag(bool b) { return S{b ? 1.0 : 0.0}; }

/// What one case returns: tensors and host scalars, in order.
struct Out {
  struct Item {
    bool is_tensor;
    torch::Tensor t;
    double s;
    Item(const torch::Tensor& tensor) : is_tensor(true), t(tensor), s(0.0) {}
    Item(S scalar) : is_tensor(false), s(scalar.v) {}
  };
  std::vector<Item> items;

  Out(const torch::Tensor& t) { items.emplace_back(t); }
  Out(S s) { items.emplace_back(s); }
  Out(std::initializer_list<Item> list) : items(list) {}
  Out(const std::vector<torch::Tensor>& ts) {
    for (const auto& t : ts) items.emplace_back(t);
  }
};

using CaseFn = Out (*)();

inline std::vector<std::pair<const char*, CaseFn>>& registry() {
  static std::vector<std::pair<const char*, CaseFn>> cases;
  return cases;
}

inline bool add_case(const char* name, CaseFn fn) {
  registry().emplace_back(name, fn);
  return true;
}

#define DIFF_CASE(name)                                                   \
  static ::diff::Out diff_case_##name();                                  \
  [[maybe_unused]] static const bool diff_reg_##name =                    \
      ::diff::add_case(#name, &diff_case_##name);                         \
  static ::diff::Out diff_case_##name()

inline const char* dtype_name(const torch::Tensor& t) {
  const auto st = t.scalar_type();
  if (st == torch::kFloat) return "f32";
  if (st == torch::kDouble) return "f64";
  if (st == torch::kInt) return "i32";
  if (st == torch::kLong) return "i64";
  if (st == torch::kBool) return "bool";
  if (st == torch::kByte) return "u8";
  if (st == torch::kChar) return "i8";
  if (st == torch::kShort) return "i16";
  if (st == torch::kHalf) return "f16";
  if (st == torch::kBFloat16) return "bf16";
  return "other";
}

// %.9g round-trips a float exactly; doubles get %.17g. Integers are exact below 2^53, which the
// cases never exceed.
inline void append_number(std::string& out, double v, bool is_double) {
  char buf[64];
  if (std::isnan(v)) {
    std::snprintf(buf, sizeof buf, "nan");
  } else if (std::isinf(v)) {
    std::snprintf(buf, sizeof buf, v > 0 ? "inf" : "-inf");
  } else {
    std::snprintf(buf, sizeof buf, is_double ? "%.17g" : "%.9g", v);
  }
  out += buf;
}

template <typename T>
void append_values(std::string& out, const torch::Tensor& c, bool is_double) {
  const T* p = c.data_ptr<T>();
  const int64_t n = c.numel();
  for (int64_t i = 0; i < n; ++i) {
    out += ' ';
    append_number(out, static_cast<double>(p[i]), is_double);
  }
}

inline std::string serialize_tensor(const torch::Tensor& t) {
  std::string out = "tensor ";
  if (!t.defined()) return out + "undefined\n";
  out += dtype_name(t);
  out += ' ' + std::to_string(t.dim());
  for (int64_t d = 0; d < t.dim(); ++d) out += ' ' + std::to_string(t.size(d));
  out += "\nvalues";
  auto c = t.contiguous();
  const auto st = c.scalar_type();
  if (st == torch::kFloat) append_values<float>(out, c, false);
  else if (st == torch::kDouble) append_values<double>(out, c, true);
  else if (st == torch::kInt) append_values<int32_t>(out, c, false);
  else if (st == torch::kLong) append_values<int64_t>(out, c, false);
  else if (st == torch::kBool) append_values<bool>(out, c, false);
  else if (st == torch::kByte) append_values<uint8_t>(out, c, false);
  else if (st == torch::kChar) append_values<int8_t>(out, c, false);
  else if (st == torch::kShort) append_values<int16_t>(out, c, false);
  // Every half and bfloat16 value is a float: compared exactly, as the integers are.
  else if (st == torch::kHalf) append_values<at::Half>(out, c, false);
  else if (st == torch::kBFloat16) append_values<at::BFloat16>(out, c, false);
  return out + "\n";
}

inline std::string one_line(std::string s) {
  for (auto& ch : s) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  if (s.size() > 300) s.resize(300);
  return s;
}

/// Runs one case and returns its dump block (without the `case` header).
inline std::string run_case(CaseFn fn) {
  try {
    Out out = fn();
    std::string text = "outputs " + std::to_string(out.items.size()) + "\n";
    for (const auto& item : out.items) {
      if (item.is_tensor) {
        text += serialize_tensor(item.t);
      } else {
        text += "scalar ";
        append_number(text, item.s, true);
        text += "\n";
      }
    }
    return text;
  } catch (const std::exception& e) {
    return "error " + one_line(e.what()) + "\n";
  } catch (...) {
    return "error (non-std exception)\n";
  }
}

// Each case runs in a forked child so that a crash (a missing bounds check, an abort) costs one
// case, not the dump: the parent records `crash <signal>` and goes on.
inline std::string run_case_isolated(CaseFn fn) {
  int fds[2];
  if (pipe(fds) != 0) return run_case(fn);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return run_case(fn);
  }
  if (pid == 0) {
    close(fds[0]);
#ifndef GRAPHIFY_TORCH_COMPAT
    // LibTorch marks its intra-op pool corrupt in a forked child and replaces it on the next
    // pthreadpool() call, without a lock: two DataLoader workers calling set_num_threads at once
    // can see the pool null ("Invalid thread pool!"). Replace it here, while one thread runs.
    torch::set_num_threads(torch::get_num_threads());
#endif
    alarm(60);  // a hung kernel costs one case (recorded as `crash signal 14`), not the suite
    const std::string text = run_case(fn);
    size_t off = 0;
    while (off < text.size()) {
      const ssize_t n = write(fds[1], text.data() + off, text.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return "crash signal " + std::to_string(WTERMSIG(status)) + "\n";
  if (text.empty()) return "crash no output\n";
  return text;
}

/// usage: <dumper> OUT_FILE [--no-fork] [--only NAME]
inline int dump_main(int argc, char** argv, const char* side) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT_FILE [--no-fork] [--only NAME]\n", argv[0]);
    return 2;
  }
  bool isolate = true;
  const char* only = nullptr;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-fork") == 0) isolate = false;
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
  }
  std::string all = std::string("side ") + side + "\n";
  for (const auto& [name, fn] : registry()) {
    if (only && std::strcmp(only, name) != 0) continue;
    all += std::string("case ") + name + "\n";
    all += isolate ? run_case_isolated(fn) : run_case(fn);
  }
  const std::string tmp = std::string(argv[1]) + ".tmp." + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) {
    std::perror(tmp.c_str());
    return 1;
  }
  std::fwrite(all.data(), 1, all.size(), f);
  std::fclose(f);
  // Rename so that a concurrent reader (ctest -j) never sees half a dump.
  if (std::rename(tmp.c_str(), argv[1]) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}

}  // namespace diff
