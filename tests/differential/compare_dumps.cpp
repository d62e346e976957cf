// Compares the LibTorch dump with the bundled runtime's dump, one GoogleTest per case, so that
// ctest lists every op-level disagreement by name. This file links no tensor library: it only
// reads the text both dumpers wrote (format in dump_main.h), so neither side grades itself.
//
// Equality rules: same status (values / error / crash); for values, same number of outputs, same
// kind (tensor or host scalar), same dtype and shape, and elements equal within
// |a - b| <= atol + rtol * |libtorch| for floating dtypes (exact for integer and bool dtypes);
// NaN equals NaN, infinities must match in sign. An error must be an error on both sides; the
// messages are shown but not compared.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr double kRelTol = 1e-5;
constexpr double kAbsTol = 1e-5;

struct Item {
  bool is_tensor = false;
  bool undefined = false;
  std::string dtype;
  std::vector<long long> shape;
  std::vector<double> values;
};

struct CaseResult {
  std::string status;  // "values", "error", "crash"
  std::string message;
  std::vector<Item> items;
};

using Dump = std::map<std::string, CaseResult>;

bool parse_number(const std::string& tok, double& out) {
  char* end = nullptr;
  out = std::strtod(tok.c_str(), &end);  // strtod reads "nan", "inf", "-inf"
  return end && *end == '\0';
}

/// Parses a dump; on malformed input returns false with a line number in `err`.
bool parse_dump(const std::string& path, Dump& dump, std::vector<std::string>& order, std::string& err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot open " + path;
    return false;
  }
  std::string line;
  int lineno = 0;
  CaseResult* current = nullptr;
  Item* pending_tensor = nullptr;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ss(line);
    std::string head;
    ss >> head;
    auto rest = [&]() {
      std::string r;
      std::getline(ss, r);
      if (!r.empty() && r[0] == ' ') r.erase(0, 1);
      return r;
    };
    if (head == "side" || head.empty()) continue;
    if (head == "case") {
      std::string name = rest();
      order.push_back(name);
      current = &dump[name];
      pending_tensor = nullptr;
      continue;
    }
    if (!current) {
      err = path + ":" + std::to_string(lineno) + ": data before the first case";
      return false;
    }
    if (head == "error" || head == "crash") {
      current->status = head;
      current->message = rest();
    } else if (head == "outputs") {
      current->status = "values";
    } else if (head == "scalar") {
      Item item;
      std::string tok;
      ss >> tok;
      double v = 0;
      if (!parse_number(tok, v)) {
        err = path + ":" + std::to_string(lineno) + ": bad scalar '" + tok + "'";
        return false;
      }
      item.values.push_back(v);
      current->items.push_back(item);
    } else if (head == "tensor") {
      Item item;
      item.is_tensor = true;
      ss >> item.dtype;
      if (item.dtype == "undefined") {
        item.undefined = true;
        current->items.push_back(item);
        continue;
      }
      long long ndim = 0;
      ss >> ndim;
      for (long long d = 0; d < ndim; ++d) {
        long long size = 0;
        ss >> size;
        item.shape.push_back(size);
      }
      current->items.push_back(item);
      pending_tensor = &current->items.back();
    } else if (head == "values") {
      if (!pending_tensor) {
        err = path + ":" + std::to_string(lineno) + ": values without a tensor";
        return false;
      }
      std::string tok;
      while (ss >> tok) {
        double v = 0;
        if (!parse_number(tok, v)) {
          err = path + ":" + std::to_string(lineno) + ": bad value '" + tok + "'";
          return false;
        }
        pending_tensor->values.push_back(v);
      }
      pending_tensor = nullptr;
    } else {
      err = path + ":" + std::to_string(lineno) + ": unknown line '" + head + "'";
      return false;
    }
  }
  return true;
}

bool is_floating(const std::string& dtype) { return dtype == "f32" || dtype == "f64"; }

bool close_enough(double ref, double got, bool floating) {
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got);
  if (std::isinf(ref) || std::isinf(got)) return ref == got;
  if (!floating) return ref == got;
  return std::fabs(ref - got) <= kAbsTol + kRelTol * std::fabs(ref);
}

std::string shape_str(const std::vector<long long>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Returns an empty string when the two results agree, otherwise what differs.
std::string compare(const CaseResult& ref, const CaseResult& got) {
  if (ref.status != got.status) {
    auto describe = [](const CaseResult& r) {
      return r.status + (r.message.empty() ? std::string() : " (" + r.message + ")");
    };
    return "libtorch: " + describe(ref) + "\ngraphify: " + describe(got);
  }
  if (ref.status != "values") return {};
  if (ref.items.size() != got.items.size()) {
    return "output count: libtorch " + std::to_string(ref.items.size()) + ", graphify " +
           std::to_string(got.items.size());
  }
  std::string diffs;
  for (size_t k = 0; k < ref.items.size(); ++k) {
    const Item& a = ref.items[k];
    const Item& b = got.items[k];
    const std::string where = "output " + std::to_string(k) + ": ";
    if (a.is_tensor != b.is_tensor) {
      diffs += where + "tensor vs host scalar\n";
      continue;
    }
    if (a.undefined != b.undefined) {
      diffs += where + "defined vs undefined tensor\n";
      continue;
    }
    if (a.dtype != b.dtype) {
      diffs += where + "dtype libtorch " + a.dtype + ", graphify " + b.dtype + "\n";
      continue;
    }
    if (a.shape != b.shape) {
      diffs += where + "shape libtorch " + shape_str(a.shape) + ", graphify " + shape_str(b.shape) + "\n";
      continue;
    }
    if (a.values.size() != b.values.size()) {
      diffs += where + "value count differs\n";
      continue;
    }
    const bool floating = !a.is_tensor || is_floating(a.dtype);
    int shown = 0;
    size_t mismatches = 0;
    for (size_t i = 0; i < a.values.size(); ++i) {
      if (close_enough(a.values[i], b.values[i], floating)) continue;
      ++mismatches;
      if (shown++ < 5) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "element %zu: libtorch %.9g, graphify %.9g\n", i, a.values[i], b.values[i]);
        diffs += where + buf;
      }
    }
    if (mismatches > 5) diffs += where + std::to_string(mismatches) + " elements differ in all\n";
  }
  return diffs;
}

long long mtime_of(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return -1;
  return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

/// Returns a dump path that is at least as new as the dumper: ctest runs this binary once per
/// test, and regenerating both dumps each time would cost seconds per case.
std::string fresh_dump(const std::string& dumper, const std::string& dump, std::string& err) {
  const long long exe_time = mtime_of(dumper);
  if (exe_time < 0) {
    err = "dumper not built: " + dumper;
    return {};
  }
  if (mtime_of(dump) >= exe_time) return dump;
  const std::string cmd = "'" + dumper + "' '" + dump + "' > '" + dump + ".log' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    err = "dumper failed: " + cmd + " (see " + dump + ".log)";
    return {};
  }
  return dump;
}

class DifferentialCase : public testing::Test {
 public:
  DifferentialCase(const CaseResult* ref, const CaseResult* got) : ref_(ref), got_(got) {}
  void TestBody() override {
    ASSERT_NE(ref_, nullptr) << "case is missing from the LibTorch dump";
    ASSERT_NE(got_, nullptr) << "case is missing from the graphify dump";
    const std::string diffs = compare(*ref_, *got_);
    EXPECT_TRUE(diffs.empty()) << diffs;
  }

 private:
  const CaseResult* ref_;
  const CaseResult* got_;
};

class SetupFailure : public testing::Test {
 public:
  explicit SetupFailure(std::string why) : why_(std::move(why)) {}
  void TestBody() override { FAIL() << why_; }

 private:
  std::string why_;
};

Dump g_libtorch;
Dump g_graphify;

}  // namespace

// usage: graphify_diff_compare [gtest flags] [--libtorch-dump=F --graphify-dump=F]
// Without dump flags the dumpers built beside this binary are run (or their cached dumps reused).
int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::string lt_path, gf_path, err;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--libtorch-dump=", 0) == 0) lt_path = a.substr(16);
    if (a.rfind("--graphify-dump=", 0) == 0) gf_path = a.substr(16);
  }
  if (lt_path.empty()) lt_path = fresh_dump(GRAPHIFY_DIFF_DUMPER_LIBTORCH, GRAPHIFY_DIFF_DUMP_DIR "/libtorch.dump", err);
  if (err.empty() && gf_path.empty())
    gf_path = fresh_dump(GRAPHIFY_DIFF_DUMPER_GRAPHIFY, GRAPHIFY_DIFF_DUMP_DIR "/graphify.dump", err);

  std::vector<std::string> lt_order, gf_order;
  if (err.empty() && parse_dump(lt_path, g_libtorch, lt_order, err) && parse_dump(gf_path, g_graphify, gf_order, err)) {
    std::vector<std::string> names = lt_order;
    std::set<std::string> seen(lt_order.begin(), lt_order.end());
    for (const auto& n : gf_order)
      if (seen.insert(n).second) names.push_back(n);
    for (const auto& name : names) {
      const CaseResult* ref = g_libtorch.count(name) ? &g_libtorch.at(name) : nullptr;
      const CaseResult* got = g_graphify.count(name) ? &g_graphify.at(name) : nullptr;
      testing::RegisterTest("Differential", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [ref, got]() -> testing::Test* { return new DifferentialCase(ref, got); });
    }
  } else {
    testing::RegisterTest("Differential", "setup", nullptr, nullptr, __FILE__, __LINE__,
                          [err]() -> testing::Test* { return new SetupFailure(err); });
  }
  return RUN_ALL_TESTS();
}
