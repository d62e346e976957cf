#!/usr/bin/env python3
"""compat.survey.forward_match: scripts/compat-survey --forward-match on testdata/compat/survey.

Runs the survey as a user runs it (a fresh cache, --json) and checks what it decided for each
translation unit and each module class: the header-declared detector builds from the TU that
defines its forward (not the demo whose main calls an undefined loader) and matches LibTorch; the
module built from an integer (8) matches too; the one that needs a file path and the templated one
are reported, not run; the model that
draws random numbers mismatches (the two generators differ), which proves the comparison can fail.

Usage: forward_match_test.py GRAPHIFY_SOURCE_DIR GRAPHIFY_BUILD_DIR SCRATCH_DIR [TORCH_API_INCLUDE]
"""
import json
import os
import shutil
import subprocess
import sys


def main():
    source, build, scratch = sys.argv[1:4]
    torch_include = sys.argv[4:5]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    out_json = os.path.join(scratch, 'survey.json')
    cmd = [sys.executable, os.path.join(source, 'scripts', 'compat-survey'), '--forward-match', '-j2',
           '--graphify', source, '--graphify-build', build, '--cache', os.path.join(scratch, 'cache'),
           '--json', out_json] + ['--torch-include=' + d for d in torch_include]
    cmd.append(os.path.join(source, 'testdata', 'compat', 'survey'))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout)
    if p.returncode != 0:
        sys.exit('compat-survey exited %d' % p.returncode)
    with open(out_json) as fh:
        result = json.load(fh)

    failures = []
    tus = {(r['repo'], r['tu']): r for r in result['tus']}
    for key in [('detector', 'src/detector.cpp'), ('detector', 'src/demo.cpp'), ('noisy', 'noisy_model.cpp')]:
        r = tus.get(key)
        if not r or not (r['libtorch'] and r.get('compat')):
            failures.append('%s/%s should compile on both sides: %s' % (key + (r,)))
    expected = {
        'vision::TinyDetectorImpl': ('match', 'src/detector.cpp', None),
        'vision::ScoreHead': ('match', None, 'max error'),
        'vision::LabelledHeadImpl': ('skipped', None, 'needs constructor arguments'),
        'vision::BlockImpl': ('no harness', None, None),
        'NoisyEncoderImpl': ('mismatch', 'noisy_model.cpp', 'output 0'),
    }
    modules = {r['module']: r for r in result['forward']}
    for name, (verdict, tu, detail) in expected.items():
        r = modules.get(name)
        if r is None:
            failures.append('%s: not found by the scan' % name)
            continue
        if r['verdict'] != verdict:
            failures.append('%s: verdict %r, expected %r (%s)' % (name, r['verdict'], verdict, r.get('detail')))
        if tu and r.get('tu') != tu:
            failures.append('%s: built from %s, expected %s' % (name, r.get('tu'), tu))
        if detail and detail not in r.get('detail', ''):
            failures.append('%s: detail %r lacks %r' % (name, r.get('detail'), detail))
    if set(modules) != set(expected):
        failures.append('modules found: %s' % sorted(modules))
    if modules.get('vision::ScoreHead', {}).get('constructed') != '(8)':
        failures.append('ScoreHead was not built with the integer 8: %s' % modules.get('vision::ScoreHead'))
    if 'conv2d [2,3,32,32]' not in modules.get('vision::TinyDetectorImpl', {}).get('input', ''):
        failures.append('the detector input was not taken from its first convolution: %s'
                        % modules.get('vision::TinyDetectorImpl'))
    if failures:
        sys.exit('\n'.join(failures))


if __name__ == '__main__':
    main()
