// Which level's kernel table runs (KernelTable.h): chosen the first time a kernel runs, as the
// highest level this build has and the CPU runs, or the level GRAPHIFY_CPU_ISA names. The build
// says which tables exist: GFY_CPU_ISA_HAVE_V1/_V3/_V4 for a build with one copy of the kernels
// per level, GFY_CPU_ISA_SINGLE_NAME for a build with one copy (runtime/CMakeLists.txt).
#include "KernelTable.h"

#include <graphify/core/Backend.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace gfy {
namespace cpu {
namespace {

/// What this CPU runs; __builtin_cpu_supports also checks that the OS saves the wide registers.
[[maybe_unused]] bool cpu_runs(int level) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  switch (level) {
  case 1: return true;
  case 3: return __builtin_cpu_supports("x86-64-v3");
  case 4: return __builtin_cpu_supports("x86-64-v4");
  }
#endif
  return level == 1;
}

/// Every table this build has, lowest level first, with whether this CPU runs it.
std::vector<std::pair<const KernelTable *, bool>> built_tables() {
  std::vector<std::pair<const KernelTable *, bool>> out;
#if defined(GFY_CPU_ISA_SINGLE_NAME)
  out.emplace_back(&kernel_table_single(), true);
#else
#if defined(GFY_CPU_ISA_HAVE_V1)
  out.emplace_back(&kernel_table_x86_64_v1(), cpu_runs(1));
#endif
#if defined(GFY_CPU_ISA_HAVE_V3)
  out.emplace_back(&kernel_table_x86_64_v3(), cpu_runs(3));
#endif
#if defined(GFY_CPU_ISA_HAVE_V4)
  out.emplace_back(&kernel_table_x86_64_v4(), cpu_runs(4));
#endif
#endif
  return out;
}

std::string names(const std::vector<std::pair<const KernelTable *, bool>> &tables, bool runnable_only) {
  std::string out;
  for (const auto &[table, runs] : tables)
    if (runs || !runnable_only) out += (out.empty() ? "" : ", ") + std::string(table->isa);
  return out.empty() ? "none" : out;
}

/// The table of `level`, or gfy::Error saying why not (`what` names where the level came from).
const KernelTable &table_named(std::string_view level, const std::string &what) {
  const auto tables = built_tables();
  for (const auto &[table, runs] : tables) {
    if (table->isa != level) continue;
    if (!runs)
      throw Error(what + ": this CPU does not run " + std::string(level) + "; it runs " + names(tables, true));
    return *table;
  }
  throw Error(what + ": not a CPU kernel level of this build of the graphify runtime (it has " +
              names(tables, false) + ")");
}

const KernelTable *initial_table() {
  const char *env = std::getenv("GRAPHIFY_CPU_ISA");
  if (env && *env) return &table_named(env, std::string("GRAPHIFY_CPU_ISA=") + env);
  const auto &runnable = runnable_kernel_tables();
  if (runnable.empty()) throw Error("this CPU runs none of the CPU kernel levels of this build of the graphify runtime");
  return runnable.back();
}

std::atomic<const KernelTable *> active{nullptr};

} // namespace

const KernelTable &kernels() {
  if (const KernelTable *t = active.load(std::memory_order_acquire)) return *t;
  // A throwing initialisation is retried (and throws again) on the next call.
  static const KernelTable *const initial = initial_table();
  const KernelTable *expected = nullptr;
  active.compare_exchange_strong(expected, initial, std::memory_order_acq_rel);
  return *active.load(std::memory_order_acquire);
}

const std::vector<const KernelTable *> &runnable_kernel_tables() {
  static const std::vector<const KernelTable *> tables = [] {
    std::vector<const KernelTable *> out;
    for (const auto &[table, runs] : built_tables())
      if (runs) out.push_back(table);
    return out;
  }();
  return tables;
}

} // namespace cpu

std::string_view cpu_isa() { return cpu::kernels().isa; }

std::vector<std::string_view> cpu_isas() {
  std::vector<std::string_view> out;
  for (const cpu::KernelTable *t : cpu::runnable_kernel_tables()) out.push_back(t->isa);
  return out;
}

void set_cpu_isa(std::string_view level) {
  cpu::active.store(&cpu::table_named(level, "set_cpu_isa(\"" + std::string(level) + "\")"), std::memory_order_release);
}

} // namespace gfy
