// The generator keeps one invariant that makes every program compile and every rewrite
// comparable: each tensor expression it writes has the module's shape S ([N] or [2, N]) or
// broadcasts to it, and is a postfix-safe primary expression (a name, a call or a parenthesised
// expression), so `.sum()` or `.item<float>()` can follow any of them. Names a block declares
// never repeat within that block, and a declaration's initialiser never reads the name it
// declares (in C++ that would read the new, uninitialised variable).
//
// The interesting part is the mix: each construct a rewrite rule matches is paired with what
// makes that rewrite unsound if the rule overlooks it (see docs/reliability.md, *Rewrite soundness
// fuzzer*). Draw weights are spelled out where they are used; they are tuned so that a program of
// six modules exercises most rules.
#include "ProgramGenerator.h"

#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <vector>

namespace graphify::soundness {
namespace {

/// Deterministic on every platform: mt19937_64's output sequence is fixed by the standard, the
/// standard distributions' are not, so draws are reduced here.
class Rng {
public:
  explicit Rng(uint64_t Seed) : Engine(Seed) {}
  unsigned below(size_t N) { return static_cast<unsigned>(Engine() % N); }
  bool chance(unsigned Percent) { return below(100) < Percent; }
  template <typename T> const T &pick(const std::vector<T> &V) { return V[below(V.size())]; }

private:
  std::mt19937_64 Engine;
};

/// Names a branch or a loop may declare: the rewriter's own names (`active`, `cond`, its `2`
/// suffix for renamed locals) and names modules also use for fields.
const std::vector<std::string> LocalNames = {"h",    "t",     "s",      "a",   "b",  "next",
                                             "tmp",  "delta", "active", "cond", "h2", "t2"};
/// Fields a module may carry besides its parameters: each is a name some local also takes.
const std::vector<std::string> ShadowFieldNames = {"h", "active", "cond", "t", "h2", "s"};
const std::vector<std::string> Reductions = {"sum", "mean", "max", "min"};
const std::vector<std::string> Comparisons = {">", "<", ">=", "<="};
const std::vector<std::string> Thresholds = {"-1.5", "-0.5", "0", "0.25", "0.5", "1", "2"};

class ModuleGenerator {
public:
  ModuleGenerator(uint64_t Seed, unsigned Index, const std::set<std::string> &Without)
      : R(Seed * 0x9E3779B97F4A7C15ull + Index + 1), Name("Case" + std::to_string(Index)), Without(Without) {}

  std::string generate();

private:
  // Shape and signature.
  int64_t N = 4;
  bool TwoRows = false;
  bool Double = false;
  bool HasY = false;
  bool HasIds = false;

  std::string sizes() const { return TwoRows ? "{2, " + std::to_string(N) + "}" : "{" + std::to_string(N) + "}"; }
  int64_t numel() const { return TwoRows ? 2 * N : N; }

  // Expressions and conditions.
  std::string leaf();
  std::string expr(unsigned Depth);
  std::string threshold() { return R.pick(Thresholds); }
  std::string cond(unsigned Depth = 1);
  std::string defineMacro(const std::string &Params, const std::string &Body);
  std::string indexGuard();

  // Statements.
  void stmt(unsigned Depth, bool TopLevel);
  void declare();
  void ifAssign(unsigned Depth);
  void branchBody(unsigned Depth);
  void ternary();
  void earlyReturn();
  void loop();
  void nonzeroPut();
  void guardedRaise();
  void partition();
  void hostRead();
  void maskedSelectLocal();

  // Scopes: names of tensors of shape S that may be read and assigned.
  void open() { Scopes.emplace_back(); }
  void close() { Scopes.pop_back(); }
  std::string newLocal(bool TopLevel);
  std::string target();
  bool declaredInBlock(const std::string &Name) const;
  void line(const std::string &Text) { Body << std::string(2 * Indent, ' ') << Text << "\n"; }
  void directive(const std::string &Text) { Body << Text << "\n"; }
  /// `Type Local = <Init()>;`, then Local is in scope.
  template <typename F> void declareAs(const std::string &Type, const std::string &Local, F Init) {
    Declaring = Local;
    std::string Text = Init();
    Declaring.clear();
    line(Type + " " + Local + " = " + Text + ";");
    Scopes.back().push_back(Local);
  }

  Rng R;
  std::string Name;
  const std::set<std::string> &Without;
  /// Whether feature F is generated. The draw that would choose it is made either way, so turning
  /// a feature off changes only the modules that used it.
  bool on(const char *F) const { return !Without.count(F); }
  std::vector<std::string> Fields;
  std::vector<std::string> Macros, MacroNames;
  std::vector<std::vector<std::string>> Scopes;
  std::ostringstream Body;
  unsigned Indent = 2;
  unsigned Fresh = 0;
  bool UsesW1 = false, UsesTable = false;
  /// The local whose initialiser is being written: nothing in it may read that name.
  std::string Declaring;
};

bool ModuleGenerator::declaredInBlock(const std::string &Local) const {
  for (const std::string &S : Scopes.back())
    if (S == Local)
      return true;
  // The parameters belong to the function's outermost block.
  return Scopes.size() == 1 && (Local == "x" || Local == "y" || Local == "ids");
}

std::string ModuleGenerator::newLocal(bool TopLevel) {
  // Nested blocks like the shadowing names more: that is where hoisting goes wrong.
  if (R.chance(TopLevel ? 50 : 80)) {
    const std::string &Candidate = R.pick(LocalNames);
    if (!declaredInBlock(Candidate))
      return Candidate;
  }
  return "v" + std::to_string(Fresh++);
}

std::string ModuleGenerator::target() {
  std::vector<std::string> Candidates = {"x"};
  if (HasY)
    Candidates.push_back("y");
  for (const auto &Scope : Scopes)
    for (const std::string &S : Scope)
      Candidates.push_back(S);
  // Locals are assigned more often than parameters.
  if (Candidates.size() > 2 && R.chance(70))
    return Candidates[Candidates.size() - 1 - R.below(Candidates.size() - (HasY ? 2 : 1))];
  return R.pick(Candidates);
}

std::string ModuleGenerator::leaf() {
  // The parameters weigh more than the rest: conditions must follow the inputs to take both
  // sides over the trials.
  std::vector<std::string> Names = {"x", "x", "x", "w"};
  if (HasY)
    Names.insert(Names.end(), {"y", "y"});
  for (const auto &Scope : Scopes)
    for (const std::string &S : Scope)
      Names.push_back(S);
  for (const std::string &F : Fields)
    Names.push_back(F);
  if (HasIds && R.chance(5) && on("ids-leaf"))
    return "ids.to(torch::kFloat)";
  std::vector<std::string> Allowed;
  for (const std::string &S : Names)
    if (S != Declaring)
      Allowed.push_back(S);
  return R.pick(Allowed);
}

std::string ModuleGenerator::expr(unsigned Depth) {
  if (Depth == 0 || R.chance(25))
    return leaf();
  auto Sub = [&] { return expr(Depth - 1); };
  switch (R.below(16)) {
  case 0: return "torch::tanh(" + Sub() + ")";
  case 1: return "torch::sigmoid(" + Sub() + ")";
  case 2: return Sub() + ".relu()";
  case 3: return Sub() + ".abs()";
  case 4: return "(" + Sub() + " + " + Sub() + ")";
  case 5: return "(" + Sub() + " - " + Sub() + ")";
  case 6: return "(" + Sub() + " * " + Sub() + ")";
  case 7: return "(" + Sub() + " * " + threshold() + ")";
  case 8: return Sub() + ".clamp(-2, 2)";
  case 9: // Domain-restricted math: NaN outside the domain, sometimes guarded by an abs.
    switch (R.below(3)) {
    case 0: return Sub() + ".abs().sqrt()";
    case 1: return "torch::log(" + Sub() + ".abs() + 1)";
    default: return Sub() + ".sqrt()";
    }
  case 10: // A scalar read only to feed tensor math (scalar-read-to-device).
    if (!on("host-read"))
      return Sub() + ".abs()";
    return "(" + Sub() + " * " + leaf() + "." + R.pick(Reductions) + "().item<float>())";
  case 11: // The read truncates: item<int64_t>() of a floating tensor.
    if (!on("int-read"))
      return "(" + Sub() + " + " + leaf() + ".sum())";
    return "(" + Sub() + " + " + leaf() + ".sum().item<int64_t>())";
  case 12: { // Masked reductions (masked-reduce-to-where).
    std::string V = leaf(), C = threshold();
    switch (R.below(3)) {
    case 0: return "(" + Sub() + " + " + V + ".index({" + V + " > " + C + "}).sum())";
    case 1: return "(" + Sub() + " + " + V + ".masked_select(" + V + " < " + C + ").sum())";
    default: return "(" + Sub() + " * " + V + ".masked_select(" + V + " > " + C + ").mean())";
    }
  }
  case 13: // A host position (host-position-to-device-index); rows only index 1-D values.
    if (!TwoRows && on("host-read")) {
      std::string V = leaf(), W = leaf();
      if (R.chance(80))
        return "(" + Sub() + " + " + V + "[" + W + ".argmax().item<int64_t>()])";
      return "(" + Sub() + " + " + V + "[" + W + ".sum().item<int64_t>()])";
    }
    return Sub() + ".relu()";
  case 14: // A data-dependent ternary inside an expression (ternary-to-where).
    return "(" + cond() + " ? " + Sub() + " : " + Sub() + ")";
  default: return "(" + Sub() + " / 2)";
  }
}

std::string ModuleGenerator::defineMacro(const std::string &Params, const std::string &MacroBody) {
  std::string Macro = "CASE" + Name.substr(4) + "_M" + std::to_string(MacroNames.size());
  MacroNames.push_back(Macro);
  Macros.push_back("#define " + Macro + "(" + Params + ") " + MacroBody);
  return Macro;
}

std::string ModuleGenerator::cond(unsigned Depth) {
  unsigned P = R.below(100);
  if (Depth > 0 && P < 6)
    return "(" + cond(Depth - 1) + " && " + cond(Depth - 1) + ")";
  if (Depth > 0 && P < 10)
    return "(" + cond(Depth - 1) + " || " + cond(Depth - 1) + ")";
  if (Depth > 0 && P < 13)
    return "!(" + cond(Depth - 1) + ")";
  std::string E = expr(1);
  if (P < 22 && on("macro-condition")) // the condition is a macro
    return defineMacro("v", "((v)." + R.pick(Reductions) + "().item<float>() " + R.pick(Comparisons) + " " +
                                threshold() + ")") +
           "(" + E + ")";
  if (P < 30 && on("int-read")) // truncating read: 0.7 > 0 is true, int64_t(0.7) > 0 is not
    return E + ".sum().item<int64_t>() " + R.pick(Comparisons) + " " + std::to_string(int(R.below(3)) - 1);
  if (P < 36)
    return "(" + E + " > " + threshold() + ")." + (R.chance(50) ? "any" : "all") + "().item<bool>()";
  if (P < 40) { // && guards a reduction that raises on an empty selection
    std::string V = leaf(), C = threshold();
    return "(" + V + ".index({" + V + " > " + C + "}).numel() > 0 && " + V + ".index({" + V + " > " + C +
           "}).max().item<float>() > " + threshold() + ")";
  }
  if (P < 43 && on("int-read"))
    return "static_cast<int>(" + E + ".sum().item<float>()) != 0";
  return E + "." + R.pick(Reductions) + "().item<float>() " + R.pick(Comparisons) + " " + threshold();
}

std::string ModuleGenerator::indexGuard() {
  // Integer reads (item<int64_t>) are refused by the condition lifter; the boolean and floating
  // forms are lifted, which is where an unconditional index op can go wrong.
  switch (R.below(6)) {
  case 0: return "ids.max().item<int64_t>() < n && ids.min().item<int64_t>() >= 0";
  case 1: return "(ids >= 0).all().item<bool>() && (ids < n).all().item<bool>()";
  case 2: return "!(ids < 0).any().item<bool>() && !(ids >= n).any().item<bool>()";
  case 3: return "ids.max().item<float>() < n && ids.min().item<float>() >= 0";
  case 4:
    return defineMacro("i, bound", "((i).ge(0).all().item<bool>() && (i).lt(bound).all().item<bool>())") +
           "(ids, n)";
  default: return "(ids.ge(0) & ids.lt(n)).all().item<bool>()";
  }
}

void ModuleGenerator::declare() {
  declareAs("auto", newLocal(true), [&] { return expr(2); });
}

void ModuleGenerator::branchBody(unsigned Depth) {
  open();
  if (R.chance(45)) { // a branch temporary, often named like a field or a later local
    declareAs("auto", newLocal(false), [&] { return expr(2); });
  }
  unsigned Assignments = 1 + R.below(2);
  for (unsigned I = 0; I < Assignments; ++I) {
    if (R.chance(10) && on("ifdef")) { // #ifdef inside the branch: which arm exists depends on the preprocessor
      std::string Feature = "CASE" + Name.substr(4) + "_FAST";
      if (std::find(MacroNames.begin(), MacroNames.end(), Feature) == MacroNames.end()) {
        MacroNames.push_back(Feature);
        if (R.chance(50))
          Macros.push_back("#define " + Feature);
      }
      std::string T = target();
      directive("#ifdef " + Feature);
      line(T + " = " + expr(2) + ";");
      directive("#else");
      line(T + " = " + expr(2) + ";");
      directive("#endif");
      continue;
    }
    if (Depth < 2 && R.chance(15)) {
      ifAssign(Depth + 1);
      continue;
    }
    line(target() + " = " + expr(2) + ";");
  }
  close();
}

void ModuleGenerator::ifAssign(unsigned Depth) {
  line("if (" + cond() + ") {");
  ++Indent;
  branchBody(Depth);
  --Indent;
  while (R.chance(25)) {
    line("} else if (" + cond() + ") {");
    ++Indent;
    branchBody(Depth);
    --Indent;
  }
  if (R.chance(50)) {
    line("} else {");
    ++Indent;
    branchBody(Depth);
    --Indent;
  }
  line("}");
}

void ModuleGenerator::ternary() {
  if (R.chance(50)) {
    declareAs("torch::Tensor", newLocal(true), [&] { return cond() + " ? " + expr(2) + " : " + expr(2); });
    return;
  }
  line(target() + " = " + cond() + " ? " + expr(2) + " : " + expr(2) + ";");
}

void ModuleGenerator::earlyReturn() {
  std::string C = cond();
  if (R.chance(30)) {
    line("if (" + C + ")");
    line("  return " + expr(2) + ";");
    return;
  }
  line("if (" + C + ") {");
  ++Indent;
  open();
  if (R.chance(50)) {
    declareAs("auto", newLocal(false), [&] { return expr(2); });
  }
  if (R.chance(20)) {
    line("if (" + cond() + ")");
    line("  return " + expr(2) + ";");
  }
  line("return " + expr(2) + ";");
  close();
  --Indent;
  line("}");
}

void ModuleGenerator::loop() {
  unsigned Trips = 2 + R.below(5);
  if (R.chance(35)) { // the exit test sits in the loop condition
    line("for (int64_t step = 0; step < " + std::to_string(Trips) + " && " + cond(0) + "; ++step) {");
    ++Indent;
    open();
    line(target() + " = " + expr(2) + ";");
    close();
    --Indent;
    line("}");
    return;
  }
  line("for (int i = 0; i < " + std::to_string(Trips) + "; ++i) {");
  ++Indent;
  open();
  if (R.chance(60)) {
    declareAs("auto", newLocal(false), [&] { return expr(2); });
  }
  unsigned Assignments = 1 + R.below(2);
  for (unsigned I = 0; I < Assignments; ++I)
    line(target() + " = " + expr(2) + ";");
  if (R.chance(50)) {
    line("if (" + cond(0) + ")");
    line("  break;");
  } else {
    line("if (" + cond(0) + ") {");
    line("  break;");
    line("}");
  }
  close();
  --Indent;
  line("}");
}

void ModuleGenerator::nonzeroPut() {
  std::string T = target(), Idx = "idx" + std::to_string(Fresh++);
  line("auto " + Idx + " = (" + T + " > " + threshold() + ").nonzero();");
  line(T + ".index_put_({" + Idx + "}, " + threshold() + ");");
}

void ModuleGenerator::guardedRaise() {
  // The op raises on the values the guard excludes; evaluated unconditionally it raises where
  // the original did not.
  std::string Guard, Op;
  switch (HasIds ? R.below(7) : 6) {
  case 0: Guard = indexGuard(), Op = "w1.index_select(0, ids)", UsesW1 = true; break;
  case 1: Guard = indexGuard(), Op = "w1.gather(0, ids)", UsesW1 = true; break;
  case 2: Guard = indexGuard(), Op = "w1.index({ids})", UsesW1 = true; break;
  case 3: Guard = indexGuard(), Op = "torch::embedding(table, ids).sum(-1)", UsesTable = true; break;
  case 4:
    Guard = R.chance(50) ? "ids.abs().min().item<float>() > 0" : "(ids != 0).all().item<bool>()";
    Op = std::string(R.chance(50) ? "torch::floor_divide" : "torch::remainder") + "(ids + 7, ids).to(torch::kFloat)";
    break;
  case 5: {
    std::string V = leaf();
    // Domain-restricted math under its guard: NaN, not an exception, outside the domain.
    bool Log = R.chance(50);
    Guard = V + ".min().item<float>() " + (Log ? "> 0" : ">= 0");
    Op = Log ? "torch::log(" + V + ")" : V + ".sqrt()";
    break;
  }
  default: {
    std::string V = leaf();
    Guard = V + ".min().item<float>() >= 0 && " + V + ".sum().item<float>() > 0";
    Op = "torch::multinomial(" + V + ".flatten(), 1).to(torch::kFloat)";
    break;
  }
  }
  switch (R.below(4)) {
  case 0:
    line("if (" + Guard + ")");
    line("  return " + Op + " * " + expr(1) + ";");
    return;
  case 1: {
    std::string T = target();
    line(T + " = (" + Guard + ") ? " + T + " + " + Op + " : " + expr(1) + ";");
    return;
  }
  default: {
    std::string T = target();
    line("if (" + Guard + ") {");
    ++Indent;
    open();
    if (R.chance(40)) {
      // Op was drawn before the name: re-check that it does not read it.
      std::string L = newLocal(false);
      if (Op.find(L) != std::string::npos)
        L = "v" + std::to_string(Fresh++);
      line("auto " + L + " = " + Op + ";");
      line(T + " = " + T + " + " + L + ";");
    } else {
      line(T + " = " + T + " + " + Op + ";");
    }
    close();
    --Indent;
    if (R.chance(40)) {
      line("} else {");
      line("  " + T + " = " + expr(1) + ";");
    }
    line("}");
  }
  }
}

void ModuleGenerator::partition() {
  std::string V = target(), M = "m" + std::to_string(Fresh++), P = newLocal(true);
  std::string C = threshold();
  line("auto " + M + " = " + V + " > " + C + ";");
  if (R.chance(70))
    line("auto " + P + " = torch::cat({" + V + ".index({" + M + "}), " + V + ".index({~" + M + "})});");
  else
    line("auto " + P + " = torch::cat({" + V + ".index({" + M + "}), " + V + ".index({" + V + " <= " + C + "})});");
  Scopes.back().push_back(P);
}

void ModuleGenerator::hostRead() {
  std::string T = target(), Id = std::to_string(Fresh++);
  unsigned Kind = R.below(TwoRows ? 2 : 3);
  if (Kind == 1 && !on("int-read"))
    Kind = 0;
  switch (Kind) {
  case 0:
    line("float sc" + Id + " = " + leaf() + "." + R.pick(Reductions) + "().item<float>();");
    line(T + " = " + T + " * sc" + Id + ";");
    return;
  case 1:
    line("int64_t k" + Id + " = " + leaf() + ".sum().item<int64_t>();");
    line(T + " = " + T + " + k" + Id + ";");
    return;
  default:
    line("int64_t pos" + Id + " = " + leaf() + ".argmax().item<int64_t>();");
    line(T + " = " + T + " + " + leaf() + "[pos" + Id + "];");
  }
}

void ModuleGenerator::maskedSelectLocal() {
  std::string V = leaf(), Sel = "sel" + std::to_string(Fresh++), T = target();
  line("auto " + Sel + " = " + V + ".masked_select(" + V + " " + R.pick(Comparisons) + " " + threshold() + ");");
  line(T + " = " + T + " + " + Sel + "." + (R.chance(50) ? "sum" : "mean") + "();");
}

void ModuleGenerator::stmt(unsigned Depth, bool TopLevel) {
  unsigned P = R.below(100);
  if (P < 14)
    return declare();
  if (P < 38)
    return ifAssign(Depth);
  if (P < 46)
    return ternary();
  if (P < 55 && TopLevel)
    return earlyReturn();
  if (P < 65 && TopLevel)
    return loop();
  if (P < 71)
    return on("nonzero-put") ? nonzeroPut() : declare();
  if (P < 84)
    return on("guarded-raise") ? guardedRaise() : declare();
  if (P < 88 && !TwoRows)
    return partition();
  if (P < 94)
    return hostRead();
  return maskedSelectLocal();
}

std::string ModuleGenerator::generate() {
  N = 3 + R.below(3);
  TwoRows = R.chance(30) && on("two-rows");
  Double = R.chance(15) && on("f64");
  HasY = R.chance(60);
  HasIds = R.chance(60);
  for (const std::string &F : ShadowFieldNames)
    if (R.chance(20) && on("shadow-field"))
      Fields.push_back(F);

  open();
  declareAs("torch::Tensor", newLocal(true), [&] { return expr(1); });
  unsigned Statements = 4 + R.below(6);
  for (unsigned I = 0; I < Statements; ++I)
    stmt(0, true);
  line("return " + expr(2) + ";");
  close();

  std::ostringstream Out;
  for (const std::string &M : Macros)
    Out << M << "\n";
  std::string Dtype = Double ? "f64" : "f32";
  std::string Dims = TwoRows ? "[2," + std::to_string(N) + "]" : "[" + std::to_string(N) + "]";
  Out << "// graphify-entry: x: " << Dtype << Dims;
  if (HasY)
    Out << ", y: " << Dtype << Dims;
  if (HasIds)
    Out << ", ids: i64[" << N << "] in [-1, " << N << "]";
  Out << "\nstruct " << Name << " : torch::nn::Module {\n";
  if (HasIds)
    Out << "  int64_t n = " << N << ";\n";
  Out << "  torch::Tensor w = torch::linspace(-1.0, 1.0, " << numel() << ").reshape(" << sizes() << ");\n";
  if (UsesW1)
    Out << "  torch::Tensor w1 = torch::linspace(0.5, 2.0, " << N << ");\n";
  if (UsesTable)
    Out << "  torch::Tensor table = torch::linspace(-1.0, 1.0, " << 2 * N << ").reshape({" << N << ", 2});\n";
  double Start = -0.75;
  for (const std::string &F : Fields) {
    Out << "  torch::Tensor " << F << " = torch::linspace(" << Start << ", " << Start + 1.5 << ", " << numel()
        << ").reshape(" << sizes() << ");\n";
    Start += 0.25;
  }
  Out << "  torch::Tensor forward(torch::Tensor x";
  if (HasY)
    Out << ", torch::Tensor y";
  if (HasIds)
    Out << ", torch::Tensor ids";
  Out << ") {\n" << Body.str() << "  }\n};\n";
  for (const std::string &M : MacroNames)
    Out << "#undef " << M << "\n";
  return Out.str();
}

} // namespace

std::string generateProgram(const GeneratorOptions &Options) {
  std::ostringstream Out;
  Out << "// Generated by soundness-generate --seed " << Options.Seed;
  for (size_t I = 0; I < Options.Picked.size(); ++I)
    Out << (I ? "," : " --module ") << Options.Picked[I];
  size_t K = 0;
  for (const std::string &F : Options.Without)
    Out << (K++ ? "," : " --without ") << F;
  Out << " (tests/soundness): modules whose forward\n"
      << "// graphify-lint --fix rewrites; original and rewritten must agree on every input.\n"
      << "#include <torch/torch.h>\n\n";
  for (unsigned I = 0; I < Options.Modules; ++I) {
    std::string Module = ModuleGenerator(Options.Seed, I, Options.Without).generate();
    if (Options.Picked.empty() || std::find(Options.Picked.begin(), Options.Picked.end(), I) != Options.Picked.end())
      Out << Module << "\n";
  }
  return Out.str();
}

} // namespace graphify::soundness
