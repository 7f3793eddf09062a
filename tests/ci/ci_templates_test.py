"""The CI templates (.github/workflows/conformance.yml, ci/gitlab/conformance.yml), played locally: the build, N
shard jobs, the merge (github_actions.py, gitlab_ci.py) with a small --cases, and the merged report compared with
an unsharded `broadcheck run` of the same seed and flags: results.jsonl's lines as a set, summary.json's findings
and verdicts, and the exit code (a run with declarations: 0; with --no-known: 1, the merge job failing). The merge
played again with one shard's artifact lost must make the comparison fail. Run by ctest: ci_templates_test.py SOURCE_DIR BINARY_DIR."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import github_actions  # noqa: E402
import gitlab_ci  # noqa: E402
from ci_workspace import Workspace  # noqa: E402

SOURCE_DIR, BINARY_DIR = (os.path.abspath(p) for p in sys.argv[1:3])
CASES = "40"


def normalised(text, *roots):
    """TEXT with each folder in ROOTS written <checkout>: a replay command names the clone it was run in."""
    for root in roots:
        text = text.replace(root, "<checkout>")
    return text


def lines(path, *roots):
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {normalised(line, *roots) for line in f}


def outcome(folder, exit_code, *roots):
    """What a run decided: its results.jsonl lines (a set), summary.json's findings and verdicts, its exit code."""
    lines_ = lines(os.path.join(folder, "results.jsonl"), *roots)
    with open(os.path.join(folder, "summary.json")) as f:
        summary = json.loads(normalised(f.read(), *roots))
    return {"results": lines_, "findings": summary["findings"], "verdicts": summary["verdicts"], "exit": exit_code}


def differences(a, b):
    return [k for k in a if a[k] != b[k]]


class TemplateTest:
    """Shared by both templates. A subclass names its template's jobs and folders and plays them (play)."""

    unsharded_runs = {}  # flags -> outcome, shared by both templates' tests

    def unsharded(self, extra):
        key = " ".join(extra)
        if key not in TemplateTest.unsharded_runs:
            with tempfile.TemporaryDirectory() as root:
                out = os.path.join(root, "unsharded")
                saved = os.path.join(root, "saved.jsonl")
                args = [os.path.join(BINARY_DIR, "broadcheck"), "run", "--seed", "1", "--cases", CASES, "--quiet",
                        "--out", out, "--save", saved] + extra
                env = Workspace(root, SOURCE_DIR, BINARY_DIR).base_env()
                code = subprocess.run(args, cwd=root, stdout=subprocess.DEVNULL, env=env).returncode
                TemplateTest.unsharded_runs[key] = (outcome(out, code, SOURCE_DIR), lines(saved))
        return TemplateTest.unsharded_runs[key]

    def play(self, workspace, extra, only=None):
        """Plays the template (or the jobs in ONLY); returns its jobs' exit codes and step summary files."""
        env = {"BC_SEED": "1", "BC_CASES": CASES, "BC_RUN_ARGS": " ".join(extra)}
        return self.module.play(os.path.join(SOURCE_DIR, self.path), workspace, env, only)

    def check(self, extra, expected_exit):
        whole, saved = self.unsharded(extra)
        self.assertEqual(bool(saved), expected_exit == 1)
        with tempfile.TemporaryDirectory() as root:
            self.assertEqual(whole["exit"], expected_exit)
            workspace = Workspace(os.path.join(root, "ci"), SOURCE_DIR, BINARY_DIR)
            codes, summaries = self.play(workspace, extra)
            self.assertEqual(codes[self.build], 0, workspace.log)
            self.assertEqual(codes[self.shard], 0, f"a shard job fails only when its run cannot run: {workspace.log}")
            report = os.path.join(workspace.store, self.report)
            self.assertTrue(os.path.isfile(os.path.join(report, "summary.json")), workspace.log)
            merged = outcome(report, codes[self.merge], workspace.path, SOURCE_DIR)
            self.assertEqual(differences(merged, whole), [], workspace.log)
            self.assertEqual(merged, whole)
            # Each new minimal case the unsharded run saves is among the shards' (which may hold more: a signature
            # met in two shards is shrunk in both).
            self.assertLessEqual(saved, lines(os.path.join(report, "new-findings.jsonl")))
            for job, path in summaries.items():  # GitHub: the merge's summary.md is the run's page, the shards add none
                with open(path) as f:
                    text = f.read()
                with open(os.path.join(report, "summary.md")) as f:
                    self.assertEqual(text.strip(), f.read().strip() if job.startswith(self.merge) else "", job)

            # The same merge with one shard's artifact lost: the comparison must fail (this test can fail).
            shutil.rmtree(os.path.join(workspace.store, self.dropped))
            shutil.rmtree(os.path.join(workspace.store, self.report))
            codes, _ = self.play(workspace, extra, only=[self.merge])
            self.assertEqual(codes[self.merge], 2, "the merge refuses an incomplete set of shards")
            merged = os.path.join(report, "summary.json")
            self.assertTrue(not os.path.exists(merged) or
                            differences(outcome(report, codes[self.merge], workspace.path, SOURCE_DIR), whole))

    def test_merged_run_equals_the_unsharded_run_and_a_dropped_shard_does_not(self):
        self.check([], 0)

    def test_new_findings_fail_the_merge_as_they_fail_the_unsharded_run(self):
        self.check(["--known", nondeterministic_declarations_only()], 1)


# tfjs-wasm's kernels whose answer depends on what its memory holds (tests/cli/cli_util.h keeps them too).
MEMORY_DEPENDENT_FAULTS = {"tfjs-wasm-reciprocal-bool-out-of-bounds", "tfjs-wasm-where-mixed-branches-fault",
                           "tfjs-wasm-bool-kernels-read-garbage"}


def nondeterministic_declarations_only():
    """A declarations file with the corpus's declarations of nondeterministic implementations only: every other
    difference is a new finding, while the numbers of kernels that read uninitialised memory (LibTorch's baddbmm with
    beta 0, tfjs-wasm and ONNX Runtime over size-0 dims), which no two runs share, are still withheld."""
    path = os.path.join(tempfile.gettempdir(), f"broadcheck-ci-templates-nondeterministic-{os.getpid()}.jsonl")
    with open(os.path.join(SOURCE_DIR, "corpus", "known_divergences.jsonl")) as f, open(path, "w") as out:
        out.writelines(line for line in f if json.loads(line).get("on") == "nondeterministic"
                       or json.loads(line).get("id") in MEMORY_DEPENDENT_FAULTS)
    return path


class GitHubActionsTest(TemplateTest, unittest.TestCase):
    module = github_actions
    path = ".github/workflows/conformance.yml"
    build, shard, merge = "build", "shard", "merge"
    report = "broadcheck-report"
    dropped = "shard-1"


class GitLabCiTest(TemplateTest, unittest.TestCase):
    module = gitlab_ci
    path = "ci/gitlab/conformance.yml"
    build, shard, merge = "broadcheck-build", "broadcheck-shard", "broadcheck-merge"
    report = "broadcheck-merge/broadcheck-report"
    dropped = "broadcheck-shard 2 of 4"


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)
