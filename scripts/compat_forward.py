"""The forward-match mode of scripts/compat-survey (issue #34): do the modules of the surveyed
translation units compute what LibTorch computes?

For every TU that compiles on both sides, the module classes it defines or includes from its own
repository (`TORCH_MODULE(X)`, classes deriving directly from `torch::nn::Module` or
`torch::nn::Cloneable<X>`) are found by a light scan of the source (comments and strings removed,
namespaces tracked by braces). Each class, once per repository (at most --forward-per-repo of them,
a class named by fewer other module classes first: models before their blocks), gets a harness: the TU itself
(its `main` renamed) followed by scripts/compat-forward/forward_probe.h, built twice — against
LibTorch (C++17, linked with libtorch) and against the compat headers (C++20, linked with the
runtime library of --graphify-build) — and run. The probe constructs the module with its default
constructor or else with up to four integers ((8), (8, 8), (8, 8, 3), (8, 8, 3, 1): channel counts,
then a kernel size and a stride), sets the weights from their names, feeds the first input it accepts and writes the
outputs; the two files are compared here.

Verdicts, by the first that applies: `no harness` (the harness does not build against LibTorch:
the module needs other TUs, or it is a template), `skipped` (a constructor that needs other
arguments, a forward that does not take one tensor, no input accepted by LibTorch, an output that is not tensors),
`compat build` (builds against LibTorch, not against the shim), `compat refused` (the runtime
threw on the input LibTorch accepted), `mismatch` (shapes, dtypes or values differ beyond the
tolerance), `match`. The figure is matches out of the modules LibTorch ran.
"""

import hashlib
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(HERE)
PROBE_DIR = os.path.join(HERE, 'compat-forward')
INPUTS_DIR = os.path.join(REPO_ROOT, 'tests', 'differential')
RUN_TIMEOUT_S = 180
# Both sides compute in float32 with different summation orders and kernels (blocked GEMMs,
# Winograd-free direct convolutions): elements may differ by rounding amplified through depth.
RTOL, ATOL = 1e-3, 1e-4

_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_NAMESPACE = re.compile(r'\bnamespace\s+([A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)\s*\{')
_TORCH_MODULE = re.compile(r'\bTORCH_MODULE\s*\(\s*([A-Za-z_]\w*)\s*\)')
_MODULE_CLASS = re.compile(
    r'\b(?:struct|class)\s+(?:[A-Z_]+\s+)?([A-Za-z_]\w*)\s*(?:final\s*)?:\s*(?:public\s+)?(?:virtual\s+)?'
    r'(?:::\s*)?(?:torch\s*::\s*)?(?:nn\s*::\s*)?(Module\b|Cloneable\s*<\s*([A-Za-z_]\w*)\s*>)')
_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def strip_code(text):
    """Comments and string literals blanked out (same length, so positions still match)."""
    return _COMMENT_OR_STRING.sub(lambda m: ' ' * len(m.group(0)) if not m.group(0).startswith('"')
                                  else '""' + ' ' * (len(m.group(0)) - 2), text)


def namespaces_at(code):
    """A function from position to the enclosing namespace path ('a::b'), by brace tracking."""
    opens = {m.end() - 1: re.sub(r'\s+', '', m.group(1)) for m in _NAMESPACE.finditer(code)}
    marks, stack = [], []  # (position, namespace path after it)
    for i, ch in enumerate(code):
        if ch == '{':
            stack.append(opens.get(i))
            if i in opens:
                marks.append((i, '::'.join(n for n in stack if n)))
        elif ch == '}' and stack:
            if stack.pop() is not None:
                marks.append((i, '::'.join(n for n in stack if n)))

    def at(pos):
        current = ''
        for p, ns in marks:
            if p >= pos:
                break
            current = ns
        return current
    return at


def module_classes(text):
    """Qualified names of the module classes (the Impl for TORCH_MODULE) defined in `text`."""
    code = strip_code(text)
    at = namespaces_at(code)
    found = []

    def add(pos, name):
        q = (at(pos) + '::' if at(pos) else '') + name
        if q not in found:
            found.append(q)
    for m in _TORCH_MODULE.finditer(code):
        add(m.start(), m.group(1) + 'Impl')
    for m in _MODULE_CLASS.finditer(code):
        if m.group(3) is not None and m.group(3) != m.group(1):
            continue  # Cloneable<Other>: not this class's own base
        add(m.start(), m.group(1))
    return found


def local_sources(repo, tu, depth=2):
    """The TU and the repository headers it includes by quotes (and theirs, `depth` levels)."""
    seen, frontier = [tu], [tu]
    for _ in range(depth):
        nxt = []
        for path in frontier:
            try:
                with open(path, errors='replace') as fh:
                    text = fh.read()
            except OSError:
                continue
            for inc in _QUOTED_INCLUDE.findall(text):
                for d in [os.path.dirname(path)] + repo.header_dirs:
                    cand = os.path.normpath(os.path.join(d, inc))
                    if os.path.isfile(cand):
                        if cand not in seen:
                            seen.append(cand)
                            nxt.append(cand)
                        break
        frontier = nxt
    return seen


def classes_by_tu(repo, tus, most=None):
    """{qualified class: [TUs that see it, the one defining its forward out of line first]}.

    With `most`, only that many classes, the models before their parts: a class named in the
    files of fewer other module classes comes first (a backbone's blocks are named in it)."""
    out, files_of = {}, {}
    for tu in tus:
        for path in local_sources(repo, tu):
            with open(path, errors='replace') as fh:
                for q in module_classes(fh.read()):
                    out.setdefault(q, [])
                    files_of.setdefault(q, set()).add(path)
                    if tu not in out[q]:
                        out[q].append(tu)
    if most is not None and len(out) > most:
        texts = {}
        for paths in files_of.values():
            for path in paths:
                if path not in texts:
                    with open(path, errors='replace') as fh:
                        texts[path] = strip_code(fh.read())

        def users(q):
            short = q.split('::')[-1]
            names = re.compile(r'\b(?:%s|%s)\b' % (re.escape(short), re.escape(short[:-4]) if short.endswith('Impl')
                                                     else re.escape(short)))
            return sum(1 for other, paths in files_of.items() if other != q and
                       any(names.search(texts[p]) for p in paths if p not in files_of[q]))
        keep = sorted(out, key=lambda q: (users(q), q))[:most]
        out = {q: out[q] for q in keep}

    def defines_forward(tu, q):
        with open(tu, errors='replace') as fh:
            return re.search(r'\b%s\s*::\s*forward\s*\(' % re.escape(q.split('::')[-1]), fh.read()) is not None
    for q, ts in out.items():
        ts.sort(key=lambda tu: (not defines_forward(tu, q), tu))
    return out


def harness_source(tu, qualified):
    return ('// generated by scripts/compat-survey --forward-match\n'
            '#include <torch/torch.h>\n'
            '#define main gfy_forward_user_main\n'
            '#include "%s"\n'
            '#undef main\n'
            '#include "forward_probe.h"\n'
            'int main(int argc, char **argv) {\n'
            '  return argc == 2 ? gfy_forward_probe::run<::%s>(argv[1]) : 2;\n'
            '}\n') % (tu, qualified)


def run(cmd, timeout=None):
    env = dict(os.environ, LC_ALL='C', LANG='C')
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
                           errors='replace', timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return 'timeout', ''


def first_error(output):
    for line in output.splitlines():
        if ': error: ' in line or 'undefined reference' in line or ': fatal error: ' in line:
            return line.split(': ', 1)[-1][:240]
    return (output.strip().splitlines() or ['?'])[-1][:240]


def build_and_run(args, repo, tu, qualified, side, workdir):
    """Builds the harness for one side and runs it; returns (verdict, detail, result text)."""
    src = os.path.join(workdir, 'probe_%s.cpp' % side)
    exe = os.path.join(workdir, 'probe_%s' % side)
    out = os.path.join(workdir, 'result_%s.txt' % side)
    with open(src, 'w') as fh:
        fh.write(harness_source(tu, qualified))
    # Unused code of the user's TU (its renamed main, OpenCV calls) is dropped at link time, so
    # only what the module itself needs must resolve.
    common = ['-O1', '-w', '-ffunction-sections', '-fdata-sections', '-I' + PROBE_DIR, '-I' + INPUTS_DIR]
    third_party = [f for d in args.isystem for f in ('-isystem', d)]
    if side == 'libtorch':
        cmd = ([args.cxx, '-std=c++17', '-D_GLIBCXX_USE_CXX11_ABI=1'] + common + repo.include_flags(tu) +
               third_party + ['-isystem', args.torch_include, src, '-o', exe, '-Wl,--gc-sections', '-ltorch',
                                '-ltorch_cpu', '-lc10'])
    else:
        rt = os.path.join(os.path.abspath(args.graphify), 'runtime', 'include')
        lib = os.path.join(args.graphify_build, 'runtime', 'libgraphify_runtime.a')
        cmd = ([args.cxx, '-std=c++20', '-fno-char8_t'] + common + ['-I' + os.path.join(rt, 'graphify', 'compat'), '-I' + rt] +
               repo.include_flags(tu) + third_party + [src, '-o', exe, '-Wl,--gc-sections', lib,
                                                       '-lopenblas', '-lpthread'])
    rc, output = run(cmd)
    if rc != 0:
        return 'build', first_error(output), ''
    rc, output = run([exe, out], timeout=RUN_TIMEOUT_S)
    if rc != 0:
        return 'crash', 'timed out' if rc == 'timeout' else 'exit %s: %s' % (rc, first_error(output)), ''
    with open(out, errors='replace') as fh:
        return 'ran', '', fh.read()


def parse_result(text):
    """{'status': 'input'|'skip'|'error', 'input': index, 'detail': str, 'tensors': [...]}."""
    res = {'status': 'error', 'detail': 'empty result', 'tensors': [], 'refused': []}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('constructed '):
            res['constructed'] = line[len('constructed '):]
        elif line.startswith('refused '):
            res['refused'].append(line[len('refused '):])
        elif line.startswith(('skip ', 'error ')):
            res['status'], res['detail'] = line.split(' ', 1)
        elif line.startswith('input '):
            _, idx, origin = line.split(' ', 2)
            res.update(status='input', input=int(idx), detail=origin)
        elif line.startswith('opaque output'):
            res['tensors'].append(None)
        elif line.startswith('tensor '):
            parts = line.split()
            if parts[1] == 'undefined':
                res['tensors'].append({'dtype': 'undefined', 'shape': '', 'values': []})
            else:
                values = []
                j = i + 1
                while j < len(lines) and not lines[j].startswith(('tensor ', 'opaque ')):
                    values.extend(float(v) for v in lines[j].split())
                    j += 1
                res['tensors'].append({'dtype': parts[1], 'shape': parts[2], 'sum': float(parts[4]),
                                       'abs_sum': float(parts[6]), 'values': values})
                i = j - 1
        i += 1
    return res


def compare(lt, ct):
    """(verdict, detail) for a module LibTorch ran."""
    if ct['status'] != 'input':
        refusal = ct['refused'][lt['input']] if lt['input'] < len(ct['refused']) else ct['detail']
        return 'compat refused', 'LibTorch takes %s; %s' % (lt['detail'], refusal)
    if ct['input'] != lt['input']:
        refusal = ct['refused'][lt['input']] if lt['input'] < len(ct['refused']) else '?'
        return 'compat refused', 'LibTorch takes %s; %s' % (lt['detail'], refusal)
    if len(ct['tensors']) != len(lt['tensors']):
        return 'mismatch', '%d outputs, LibTorch %d' % (len(ct['tensors']), len(lt['tensors']))
    worst = 0.0
    for k, (a, b) in enumerate(zip(ct['tensors'], lt['tensors'])):
        if a is None or b is None:
            if a is not b:
                return 'mismatch', 'output %d: one side is not a tensor' % k
            continue
        if (a['dtype'], a['shape']) != (b['dtype'], b['shape']):
            return 'mismatch', 'output %d: %s %s, LibTorch %s %s' % (k, a['dtype'], a['shape'], b['dtype'], b['shape'])
        scale = max([abs(v) for v in b['values']] + [1e-30])
        for x, y in zip(a['values'], b['values']):
            err = abs(x - y)
            if not err <= ATOL * max(1.0, scale) + RTOL * abs(y):
                if not (x != x and y != y):  # NaN on both sides agrees
                    return 'mismatch', 'output %d: %.6g, LibTorch %.6g' % (k, x, y)
            worst = max(worst, err / max(1.0, scale))
        if abs(a['sum'] - b['sum']) > ATOL * max(1.0, b['abs_sum']) + RTOL * abs(b['sum']):
            return 'mismatch', 'output %d: sum %.9g, LibTorch %.9g' % (k, a['sum'], b['sum'])
    return 'match', 'max error %.2g (relative to the largest output)' % worst


def digest(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(str(part).encode())
        h.update(b'\0')
    return h.hexdigest()


def probe_module(args, repo, tus, qualified, rt_digest):
    """The verdict for one module class; cached like the compile verdicts."""
    with open(os.path.join(PROBE_DIR, 'forward_probe.h'), 'rb') as fh:
        probe_digest = hashlib.sha256(fh.read()).hexdigest()
    key = digest('forward', repo.digest, qualified, [os.path.relpath(t, repo.path) for t in tus], rt_digest,
                 probe_digest, args.torch_include, ' '.join(args.isystem))
    cache_file = os.path.join(args.cache, 'forward', key[:2], key + '.json')
    if not args.no_cache and os.path.exists(cache_file):
        with open(cache_file) as fh:
            return json.load(fh)
    rec = {'repo': repo.name, 'module': qualified}
    workdir = os.path.join(args.cache, 'forward', 'work', key[:16])
    os.makedirs(workdir, exist_ok=True)
    for tu in tus[:2]:  # the TU defining forward first; a second chance for header-only modules
        rec['tu'] = os.path.relpath(tu, repo.path)
        state, detail, text = build_and_run(args, repo, tu, qualified, 'libtorch', workdir)
        if state == 'ran':
            break
    if state != 'ran':
        rec.update(verdict='no harness' if state == 'build' else 'skipped',
                   detail=('LibTorch side: ' if state == 'build' else 'LibTorch run: ') + detail)
    else:
        lt = parse_result(text)
        if lt['status'] != 'input' or all(t is None for t in lt['tensors']):
            rec.update(verdict='skipped', detail=lt['detail'] if lt['status'] != 'input' else 'outputs are not tensors')
        else:
            rec['input'] = lt['detail']
            rec['constructed'] = lt.get('constructed', '()')
            state, detail, text = build_and_run(args, repo, os.path.join(repo.path, rec['tu']), qualified,
                                                'compat', workdir)
            if state == 'build':
                rec.update(verdict='compat build', detail=detail)
            elif state == 'crash':
                rec.update(verdict='compat refused', detail='the probe crashed: ' + detail)
            else:
                verdict, detail = compare(lt, parse_result(text))
                rec.update(verdict=verdict, detail=detail)
    for f in os.listdir(workdir):  # the binaries are large; the verdict is what is kept
        os.remove(os.path.join(workdir, f))
    os.rmdir(workdir)
    os.makedirs(os.path.dirname(cache_file), exist_ok=True)
    with open(cache_file + '.tmp', 'w') as fh:
        json.dump(rec, fh)
    os.replace(cache_file + '.tmp', cache_file)
    return rec


VERDICT_ORDER = ['match', 'mismatch', 'compat refused', 'compat build', 'skipped', 'no harness']


def report(records):
    """Prints the forward-match table; returns the lines for --json."""
    ran = [r for r in records if r['verdict'] in ('match', 'mismatch', 'compat refused', 'compat build')]
    print('\nForward match (modules built with no arguments or up to four integers, run by LibTorch and by the '
          'runtime):')
    counts = {v: sum(1 for r in records if r['verdict'] == v) for v in VERDICT_ORDER}
    print('  ' + ', '.join('%s %d' % (v, counts[v]) for v in VERDICT_ORDER))
    matched = counts['match']
    print('  %d of %d modules LibTorch ran produce the same outputs%s' % (
        matched, len(ran), ' (%.1f%%)' % (100.0 * matched / len(ran)) if ran else ''))
    for r in sorted(records, key=lambda r: (VERDICT_ORDER.index(r['verdict']), r['repo'], r['module'])):
        built = r['module'].split('::')[-1] + r['constructed'] if r.get('constructed') else r['module']
        print('  %-14s %s %s (%s)%s' % (r['verdict'], r['repo'], built, r.get('tu', '?'),
                                         ': ' + r['detail'] if r.get('detail') else ''))
