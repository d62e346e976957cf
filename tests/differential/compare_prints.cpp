// Runs the two print_cases.cpp binaries (LibTorch, graphify) and requires byte-identical stdout.
// No tensor library here, so neither side is judged by its own code. On a mismatch it names the
// first differing case (cases start at a "=== name ===" line), shows both sides with every line
// end marked by '|' so that trailing blanks are visible, and counts the differing cases.
//
//   graphify_diff_print_compare <libtorch-binary> <graphify-binary>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

bool run(const std::string &binary, std::string &out) {
  FILE *p = popen(("\"" + binary + "\"").c_str(), "r");
  if (!p) return false;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  return pclose(p) == 0;
}

/// (name, text) per case, in order; text before the first header goes under "<preamble>".
std::vector<std::pair<std::string, std::string>> split_cases(const std::string &s) {
  std::vector<std::pair<std::string, std::string>> cases{{"<preamble>", ""}};
  for (size_t pos = 0; pos < s.size();) {
    size_t end = s.find('\n', pos);
    end = end == std::string::npos ? s.size() : end + 1;
    const std::string line = s.substr(pos, end - pos);
    if (line.rfind("=== ", 0) == 0) cases.emplace_back(line.substr(4, line.find(" ===", 4) - 4), "");
    else cases.back().second += line;
    pos = end;
  }
  return cases;
}

void show(const char *side, const std::string &text) {
  std::cout << "--- " << side << " ---\n";
  std::string line;
  for (char c : text) {
    if (c == '\n') {
      std::cout << line << "|\n";
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) std::cout << line << "(no newline at end)\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " <libtorch-binary> <graphify-binary>\n";
    return 2;
  }
  std::string expected, actual;
  if (!run(argv[1], expected)) std::cout << "warning: " << argv[1] << " exited with an error\n";
  if (!run(argv[2], actual)) std::cout << "warning: " << argv[2] << " exited with an error\n";
  if (expected == actual) {
    std::cout << "identical: " << split_cases(expected).size() - 1 << " cases, " << expected.size() << " bytes\n";
    return 0;
  }
  const auto want = split_cases(expected), got = split_cases(actual);
  std::map<std::string, std::string> got_by_name(got.begin(), got.end());
  int differing = 0;
  for (const auto &[name, text] : want) {
    auto it = got_by_name.find(name);
    const bool missing = it == got_by_name.end();
    if (!missing && it->second == text) continue;
    if (differing++ == 0) {
      std::cout << "first differing case: " << name << "\n";
      show("LibTorch", text);
      if (missing) std::cout << "--- graphify ---\n(case missing)\n";
      else show("graphify", it->second);
    } else {
      std::cout << "also differs: " << name << "\n";
    }
  }
  if (differing == 0) std::cout << "outputs differ only in case order or extra graphify-only cases\n";
  std::cout << differing << " of " << want.size() - 1 << " cases differ\n";
  return 1;
}
