// Tensor printing. Invariant: `os << t` writes exactly the bytes LibTorch 1.13 writes for the
// same tensor on the same stream (ATen/core/Formatting.cpp is the spec; tests/differential/
// print_cases.cpp checks it against the installed LibTorch), because user programs print tensors
// and their outputs are diffed against LibTorch builds of the same source.
//
// LibTorch's format is a function of the values as doubles and of the stream's state, and it
// changes that state while it prints: per 2-D block it picks one of defaultfloat / fixed(4) /
// scientific(4), a column width and a common scale factor, and leaves the flags set for the next
// block (a later integer-valued block inherits an earlier block's precision 4). To get the same
// bytes we drive the caller's stream through the same sequence of manipulators rather than
// formatting numbers ourselves, and restore its state at the end as LibTorch does. Its quirks are
// kept on purpose and marked "LibTorch quirk" below.
#include "OpsCommon.h"

#include <cmath>
#include <iomanip>
#include <ostream>
#include <vector>

namespace gfy::detail {

namespace {

/// Restores a stream's formatting state (flags, precision, width, fill) when it goes out of scope.
class FormatGuard {
public:
  explicit FormatGuard(std::ostream &os) : os_(os), saved_(nullptr) { saved_.copyfmt(os); }
  ~FormatGuard() { os_.copyfmt(saved_); }
  FormatGuard(const FormatGuard &) = delete;
  FormatGuard &operator=(const FormatGuard &) = delete;

private:
  std::ostream &os_;
  std::ios saved_;
};

std::ios_base &default_float(std::ios_base &s) {
  s.unsetf(std::ios_base::floatfield);
  return s;
}

/// Every value of a block is printed as `value / scale`, right-aligned in `width` characters.
struct BlockFormat {
  double scale = 1;
  int64_t width = 0;
};

/// Number of digits before the decimal point of a positive magnitude (1 for zero).
double integer_digits(double magnitude) { return magnitude != 0 ? std::floor(std::log10(magnitude)) + 1 : 1; }

/// Chooses the notation for the `n` values at `v` and sets it on `os` (left set for the caller).
BlockFormat choose_format(std::ostream &os, const double *v, int64_t n) {
  if (n == 0) return {};
  bool int_valued = true;
  for (int64_t i = 0; i < n; ++i)
    if (std::isfinite(v[i]) && v[i] != std::ceil(v[i])) {
      int_valued = false;
      break;
    }
  int64_t first = 0;
  while (first < n && !std::isfinite(v[first])) ++first;
  double lo = 1, hi = 1; // digits of the smallest and largest finite magnitudes
  if (first < n) {
    double min_abs = std::fabs(v[first]), max_abs = min_abs;
    for (int64_t i = first; i < n; ++i) {
      if (!std::isfinite(v[i])) continue;
      min_abs = std::min(min_abs, std::fabs(v[i]));
      // LibTorch quirk: the signed value is compared, so a negative value never widens the
      // column unless it is the first finite one.
      if (v[i] > max_abs) max_abs = std::fabs(v[i]);
    }
    lo = integer_digits(min_abs);
    hi = integer_digits(max_abs);
  }
  BlockFormat f;
  if (int_valued) {
    if (hi > 9) {
      f.width = 11;
      os << std::scientific << std::setprecision(4);
    } else {
      f.width = int64_t(hi) + 1;
      os << default_float; // precision stays whatever the stream has
    }
  } else if (hi - lo > 4) {
    f.width = std::fabs(hi) > 99 || std::fabs(lo) > 99 ? 12 : 11;
    os << std::scientific << std::setprecision(4);
  } else {
    if (hi > 5 || hi < 0) {
      f.width = 7;
      f.scale = std::pow(10, hi - 1);
    } else {
      f.width = hi == 0 ? 7 : int64_t(hi) + 6;
    }
    os << std::fixed << std::setprecision(4);
  }
  return f;
}

void indent_by(std::ostream &os, int64_t n) {
  for (int64_t i = 0; i < n; ++i) os << ' ';
}

/// The "1e+05 *" line; written with precision 4 inherited from the block's fixed notation.
void print_scale(std::ostream &os, double scale) {
  FormatGuard guard(os);
  os << default_float << scale << " *\n";
}

/// A row-major `rows` x `cols` block, wrapped into "Columns a to b" groups to fit `linesize`.
void print_matrix(std::ostream &os, const double *v, int64_t rows, int64_t cols, int64_t linesize,
                  int64_t indent) {
  const BlockFormat f = choose_format(os, v, rows * cols);
  indent_by(os, indent);
  const int64_t per_line = (linesize - indent) / (f.width + 1);
  for (int64_t first = 0; first < cols;) {
    const int64_t last = std::min(first + per_line, cols) - 1;
    if (per_line < cols) {
      if (first != 0) os << '\n';
      // LibTorch quirk: no newline after the header, so the first row follows on its line.
      os << "Columns " << first + 1 << " to " << last + 1;
      indent_by(os, indent);
    }
    if (f.scale != 1) {
      print_scale(os, f.scale);
      indent_by(os, indent);
    }
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = first; c <= last; ++c) {
        os << std::setw(int(f.width)) << v[r * cols + c] / f.scale;
        if (c != last) {
          os << ' ';
          continue;
        }
        os << '\n';
        if (r != rows - 1) {
          indent_by(os, indent);
          if (f.scale != 1) os << ' '; // LibTorch quirk: scaled rows after the first shift by one
        }
      }
    }
    first = last + 1;
  }
}

/// 3-d and up: one "(i,j,.,.) = " block per trailing matrix.
void print_blocks(std::ostream &os, const std::vector<double> &v, const std::vector<int64_t> &sizes,
                  int64_t linesize) {
  const size_t lead = sizes.size() - 2;
  const int64_t rows = sizes[lead], cols = sizes[lead + 1];
  // LibTorch quirk: the leading index that varies fastest is the FIRST one, so blocks come in
  // column-major order of the leading indices: (1,1), (2,1), (1,2), ...
  std::vector<int64_t> counter(lead, 0);
  for (bool start = true;; start = false) {
    if (!start) {
      size_t i = 0;
      while (i < lead && ++counter[i] == sizes[i]) counter[i++] = 0;
      if (i == lead) return;
      os << '\n';
    }
    os << "(";
    int64_t offset = 0;
    for (size_t i = 0; i < lead; ++i) {
      offset = offset * sizes[i] + counter[i];
      os << counter[i] + 1 << ",";
    }
    os << ".,.) = \n";
    print_matrix(os, v.data() + offset * rows * cols, rows, cols, linesize, 1);
  }
}

} // namespace

void print_tensor(std::ostream &os, const Tensor &t, int64_t linesize) {
  FormatGuard guard(os);
  if (!t.defined()) {
    os << "[ Tensor (undefined) ]";
    return;
  }
  // LibTorch prints t.to(kCPU, kDouble).contiguous(); reading each element as a double is the
  // same (exact for every dtype but int64 beyond 2^53, where both round to nearest).
  const Tensor host = t.is_cpu() ? t : t.to(Device(kCPU));
  const TensorImpl &impl = *host.unsafeGetTensorImpl();
  std::vector<double> v(size_t(impl.numel));
  for (int64_t i = 0; i < impl.numel; ++i) v[size_t(i)] = read_scalar(impl, i).toDouble();
  const std::vector<int64_t> &sizes = impl.sizes;

  if (sizes.empty()) {
    os << default_float << v[0] << '\n';
  } else if (impl.numel > 0 && sizes.size() == 1) {
    const BlockFormat f = choose_format(os, v.data(), impl.numel);
    if (f.scale != 1) print_scale(os, f.scale);
    for (double x : v) os << std::setw(int(f.width)) << x / f.scale << '\n';
  } else if (impl.numel > 0 && sizes.size() == 2) {
    print_matrix(os, v.data(), sizes[0], sizes[1], linesize, 0);
  } else if (impl.numel > 0) {
    print_blocks(os, v, sizes, linesize);
  }
  os << "[ " << t.toString() << "{";
  for (size_t i = 0; i < sizes.size(); ++i) os << (i ? "," : "") << sizes[i];
  os << "} ]";
}

} // namespace gfy::detail
