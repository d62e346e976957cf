#!/usr/bin/env python3
"""Checks that a built graphify runtime runs on every x86-64 CPU: outside the functions of the
per-level kernel namespaces (gfy::cpu::x86_64_v3, gfy::cpu::x86_64_v4; src/cpu/IsaRegion.h), which
run only after KernelDispatch.cpp has found the level on the CPU, the library holds no instruction
beyond x86-64-v1 (SSE2). An AVX instruction in a standard-library template kept from a kernel
object, or a file compiled with -march=..., is what this catches: that library dies with SIGILL
on an older CPU.

usage: check_portable_isa.py LIBRARY [--expect-levels x86_64_v3,x86_64_v4] [--symbols-from UNSTRIPPED]
A stripped library (a package's) keeps only its exported symbols, so the code of internal functions
would be attributed to the exported one before it: give the unstripped library it was installed
from with --symbols-from; the check verifies that both hold the same code (stripping and the
install's RPATH edit move no code) and reads the function boundaries from the unstripped one.
Exit 0 when portable, 1 with the offending functions listed, 2 on usage errors."""
import argparse
import re
import subprocess
import sys

# Mnemonics beyond x86-64-v1 that do not start with 'v' (VEX/EVEX: AVX, AVX2, FMA, F16C, AVX-512)
# or 'k' (AVX-512 mask registers): SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT, LZCNT, BMI1/2, MOVBE, CX16.
# tzcnt is left out: GCC's generic tuning writes `rep bsf`, which objdump shows as tzcnt and which
# runs as bsf on CPUs without BMI1.
BEYOND_V1 = set("""
addsubpd addsubps haddpd haddps hsubpd hsubps lddqu movddup movshdup movsldup fisttp monitor mwait
pabsb pabsw pabsd palignr phaddw phaddd phaddsw phsubw phsubd phsubsw pmaddubsw pmulhrsw pshufb
psignb psignw psignd
blendpd blendps blendvpd blendvps dppd dpps extractps insertps movntdqa mpsadbw packusdw pblendvb
pblendw pcmpeqq pextrb pextrd pextrq phminposuw pinsrb pinsrd pinsrq pmaxsb pmaxsd pmaxuw pmaxud
pminsb pminsd pminuw pminud pmovsxbw pmovsxbd pmovsxbq pmovsxwd pmovsxwq pmovsxdq pmovzxbw pmovzxbd
pmovzxbq pmovzxwd pmovzxwq pmovzxdq pmuldq pmulld ptest roundpd roundps roundsd roundss
crc32 pcmpestri pcmpestrm pcmpistri pcmpistrm pcmpgtq
popcnt lzcnt andn bextr blsi blsmsk blsr bzhi mulx pdep pext rorx sarx shlx shrx movbe cmpxchg16b
""".split())
BASELINE_V = {"verr", "verw"}  # the only pre-AVX mnemonics starting with v

FUNCTION = re.compile(r"^[0-9a-f]+ <(.*)>:$")
INSTRUCTION = re.compile(r"^\s+[0-9a-f]+:\s+(?:(?:rep|repz|repnz|lock|notrack|bnd|data16|addr32|cs|ds)\s+)*([a-z][a-z0-9.]*)")


def beyond_v1(mnemonic):
    base = mnemonic.split(".")[0]
    if base.startswith("v") and base not in BASELINE_V:
        return True
    if base.startswith("k"):
        return True
    return base in BEYOND_V1


def code_sections(path):
    """The bytes of every executable section, by name (objcopy keeps addresses, so equal bytes at
    equal names mean the same code at the same places)."""
    headers = subprocess.run(["objdump", "-h", "-w", path], check=True, capture_output=True, text=True).stdout
    out = {}
    for line in headers.splitlines():
        parts = line.split()
        if len(parts) >= 7 and parts[0].isdigit() and "CODE" in line:
            name = parts[1]
            dump = subprocess.run(["objcopy", "-O", "binary", "--only-section=" + name, path, "/dev/stdout"],
                                  check=True, capture_output=True).stdout
            out[name] = dump
    return out


def has_symbol_table(path):
    return "no symbols" not in subprocess.run(["nm", path], capture_output=True, text=True).stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--symbols-from", default="", help="the unstripped library LIBRARY was installed from")
    ap.add_argument("--expect-levels", default="",
                    help="comma-separated level namespaces that must be present (x86_64_v3,x86_64_v4)")
    args = ap.parse_args()
    levels = ["x86_64_v3", "x86_64_v4"]
    if args.symbols_from:
        try:
            same = code_sections(args.library) == code_sections(args.symbols_from)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"check_portable_isa: cannot read the code of {args.library} or {args.symbols_from}: {e}",
                  file=sys.stderr)
            return 2
        if not same:
            print(f"{args.library} and {args.symbols_from} do not hold the same code: --symbols-from must name "
                  "the library it was installed from", file=sys.stderr)
            return 2
        args.library = args.symbols_from
    elif not has_symbol_table(args.library):
        print(f"check_portable_isa: {args.library} is stripped; internal functions cannot be told apart: pass "
              "--symbols-from with the unstripped library it was installed from", file=sys.stderr)
        return 2
    try:
        dump = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", args.library], check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"check_portable_isa: cannot disassemble {args.library}: {e}", file=sys.stderr)
        return 2
    offenders = {}
    seen_levels = set()
    functions = 0
    current = None
    for line in dump.splitlines():
        m = FUNCTION.match(line)
        if m:
            current = m.group(1)
            functions += 1
            for level in levels:
                if f"::{level}::" in current:
                    seen_levels.add(level)
            continue
        m = INSTRUCTION.match(line)
        if not m or current is None or not beyond_v1(m.group(1)):
            continue
        if any(f"::{level}::" in current for level in levels):
            continue
        offenders.setdefault(current, set()).add(m.group(1))
    if functions == 0:
        print(f"check_portable_isa: no function found in {args.library}", file=sys.stderr)
        return 2
    missing = [lv for lv in args.expect_levels.split(",") if lv and lv not in seen_levels]
    for name, mnemonics in sorted(offenders.items()):
        print(f"beyond x86-64-v1 outside the level namespaces: {name}: {' '.join(sorted(mnemonics))}")
    for lv in missing:
        print(f"no function of gfy::cpu::{lv} in {args.library}: that level's kernels are missing")
    if offenders or missing:
        print(f"{len(offenders)} of {functions} functions would not run on every x86-64 CPU" if offenders else "")
        return 1
    print(f"{args.library}: {functions} functions; outside {', '.join(sorted(seen_levels)) or 'no level namespace'}, "
          "nothing beyond x86-64-v1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
