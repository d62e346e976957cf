#!/usr/bin/env python3
"""Runs the CI recipes of docs/ci.md on a small project, as their CI would.

Usage: run_recipes.py DOCS_CI_MD HOOKS_YAML PROJECT_DIR BIN_DIR WORK_DIR

Each recipe is the fenced yaml block of docs/ci.md whose first line names its file
(`# .github/workflows/graphify.yml`, `# .gitlab-ci.yml`, `# .pre-commit-config.yaml`). The steps
that install graphify are replaced by BIN_DIR on PATH (the graphify under test); everything else
runs as written, in a fresh copy of PROJECT_DIR, and what the recipe leaves is checked: the SARIF
file for code scanning holds the project's one finding, the job's exit status is the CI's verdict.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

FINDING = re.compile(r"capture\.cpp:12:3: warning: 'cudaDeviceSynchronize'")


def fail(message):
    print("run_recipes: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def recipes(docs_path):
    """The yaml blocks of the page, by the file their first line names."""
    text = open(docs_path, encoding="utf-8").read()
    found = {}
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        first = block.split("\n", 1)[0]
        if first.startswith("# ."):
            found[first[2:].split()[0]] = yaml.safe_load(block)
    return found


def fresh_project(project, work, name):
    target = os.path.join(work, name)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(project, target)
    return target


def shell(command, cwd, env, label):
    """Runs one step as GitHub and GitLab run them: bash, stop at the first failing command."""
    if "${{" in command:
        fail(label + ": a run step uses a ${{ }} expression, which a shell cannot expand: " + command)
    result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("$ " + command.strip() + "\n" + result.stdout)
    if result.returncode != 0:
        fail("%s: exit %d" % (label, result.returncode))
    return result.stdout


def check_sarif(path):
    if not os.path.exists(path):
        fail("no SARIF file at " + path)
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    if log.get("version") != "2.1.0":
        fail("%s is not SARIF 2.1.0" % path)
    results = [r for run in log.get("runs", []) for r in run.get("results", [])]
    rules = {r.get("ruleId") for r in results}
    if rules != {"graphify-capture-unsafe-api"} or len(results) != 1:
        fail("%s should hold the one capture-unsafe finding, holds %s" % (path, sorted(rules)))
    location = results[0]["locations"][0]["physicalLocation"]
    if not location["artifactLocation"]["uri"].endswith("src/capture.cpp") or location["region"]["startLine"] != 12:
        fail("%s points at %s" % (path, json.dumps(location)))


def github(workflow, project, work, env):
    jobs = workflow.get("jobs", {})
    if len(jobs) != 1:
        fail("the workflow should have one job")
    (name, job), = jobs.items()
    if job.get("permissions", {}).get("security-events") != "write":
        fail("upload-sarif needs permissions: security-events: write")
    checkout = None
    for step in job["steps"]:
        label = "github step '%s'" % step.get("name", step.get("uses", "?"))
        uses = step.get("uses", "")
        if uses.startswith("actions/checkout@"):
            checkout = fresh_project(project, work, "github")
        elif step.get("id") == "install-graphify":
            print("(install step replaced by the graphify under test on PATH)")
        elif uses.startswith("github/codeql-action/upload-sarif@"):
            check_sarif(os.path.join(checkout, step["with"]["sarif_file"]))
        elif "run" in step:
            if checkout is None:
                fail(label + " runs before the checkout")
            shell(step["run"], checkout, env, label)
        else:
            fail(label + ": the test does not know this action")


def gitlab(pipeline, project, work, env):
    job = pipeline["graphify"]
    checkout = fresh_project(project, work, "gitlab")
    print("(before_script, the install, replaced by the graphify under test on PATH)")
    job_env = dict(env)
    job_env.update({k: str(v) for k, v in job.get("variables", {}).items()})
    log = ""
    for command in job["script"]:
        log += shell(command, checkout, job_env, "gitlab script")
    if not FINDING.search(log):
        fail("the job log does not show the finding")
    for artifact in job["artifacts"]["paths"]:
        if not os.path.exists(os.path.join(checkout, artifact)):
            fail("artifact %s was not made" % artifact)
    check_sarif(os.path.join(checkout, "graphify.sarif"))


def pre_commit(config, hooks_path, project, work, env):
    """Runs the hook as pre-commit does: entry, the project's args, then the files of its types."""
    hooks = {h["id"]: h for h in yaml.safe_load(open(hooks_path, encoding="utf-8"))}
    (repo,) = config["repos"]
    (use,) = repo["hooks"]
    hook = hooks.get(use["id"])
    if hook is None:
        fail("the config uses hook %s, which .pre-commit-hooks.yaml does not define" % use["id"])
    if hook["language"] != "system" or not {"c++", "cuda"} <= set(hook.get("types_or", [])):
        fail("the hook should run the system graphify-lint on C++ and CUDA files")
    checkout = fresh_project(project, work, "pre-commit")
    subprocess.run(["cmake", "-S", ".", "-B", "build", "-G", "Ninja", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                   cwd=checkout, env=env, check=True, stdout=subprocess.DEVNULL)
    command = hook["entry"].split() + hook.get("args", []) + use.get("args", [])

    def run_hook(files):
        result = subprocess.run(command + files, cwd=checkout, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        print("$ " + " ".join(command + files) + "\n" + result.stdout)
        return result

    staged = run_hook(["src/capture.cpp", "src/clean.cpp"])
    if staged.returncode == 0 or not FINDING.search(staged.stdout):
        fail("the hook should fail on the capture-unsafe call")
    clean = run_hook(["src/clean.cpp"])
    if clean.returncode != 0:
        fail("the hook should pass a clean file")


def main():
    docs, hooks, project, bin_dir, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    env["PATH"] = bin_dir + os.pathsep + env["PATH"]
    found = recipes(docs)
    for name in (".github/workflows/graphify.yml", ".gitlab-ci.yml", ".pre-commit-config.yaml"):
        if name not in found:
            fail("docs/ci.md has no recipe for " + name)
    github(found[".github/workflows/graphify.yml"], project, work, env)
    gitlab(found[".gitlab-ci.yml"], project, work, env)
    pre_commit(found[".pre-commit-config.yaml"], hooks, project, work, env)
    print("run_recipes: the GitHub workflow, the GitLab job and the pre-commit hook ran as documented")


if __name__ == "__main__":
    main()
