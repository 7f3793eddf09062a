"""A CI runner's workspace and artifact store, played locally for the templates' test (ci_templates_test.py).

Every job starts in a fresh workspace at the same path, as on a CI runner, holding the checkout (links to the
clone's files, its build folders left out). The set-up step is not run (it would install packages): its build
(`scripts/setup.sh run`) is played by linking the already built build/broadcheck into the workspace; every other
command of a template runs for real, with bash, in the workspace.
"""
import os
import re
import shutil
import subprocess

SETUP = re.compile(r"^bash scripts/setup\.sh run( --packages-only)?$")


class TemplateError(Exception):
    """Something in a template this test does not know how to play: the test fails and names it."""


class Workspace:
    def __init__(self, root, source_dir, binary_dir):
        self.root = root
        self.path = os.path.join(root, "workspace")
        self.source_dir = source_dir
        self.binary_dir = binary_dir
        self.store = os.path.join(root, "artifacts")
        os.makedirs(self.store, exist_ok=True)
        self.log = []  # (job, command, exit code)

    def fresh(self):
        """A new job's workspace: the checkout, nothing else."""
        shutil.rmtree(self.path, ignore_errors=True)
        os.makedirs(self.path)
        for name in os.listdir(self.source_dir):
            if name.startswith(("build", ".git", "broadcheck-out", "Testing")):
                continue
            os.symlink(os.path.join(self.source_dir, name), os.path.join(self.path, name))

    def base_env(self):
        """The environment a job starts from: this process's, without a CI's or a sharded runner's variables."""
        drop = ("GITHUB_", "GITLAB_", "CI_", "GTEST_", "BC_")
        return {k: v for k, v in os.environ.items() if not k.startswith(drop) and k != "CI"}

    def run(self, job, command, env):
        """Runs one template command in the workspace (the set-up played as the class comment says); its exit code."""
        match = SETUP.match(command.strip())
        if "setup.sh" in command and not match:
            raise TemplateError(f"job {job}: a set-up command this test cannot play: {command!r}")
        if match:
            if not match.group(1):  # the build: the broadcheck that ctest's build made
                os.makedirs(os.path.join(self.path, "build"), exist_ok=True)
                os.symlink(os.path.join(self.binary_dir, "broadcheck"), os.path.join(self.path, "build", "broadcheck"))
            self.log.append((job, command, 0))
            return 0
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command], cwd=self.path,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.log.append((job, command, done.returncode))
        if done.returncode != 0:
            self.log.append((job, done.stdout[-3000:], done.returncode))
        return done.returncode

    def upload(self, name, paths, keep_paths):
        """Keeps PATHS (relative to the workspace) as artifact NAME: with their paths (GitLab), or, one path only,
        as upload-artifact does (a folder's contents, or a file alone). Paths that do not exist are left out."""
        target = os.path.join(self.store, name)
        os.makedirs(target, exist_ok=True)
        if not keep_paths and len(paths) != 1:
            raise TemplateError(f"artifact {name!r}: this test plays one path per upload-artifact, got {paths}")
        for p in paths:
            source = os.path.join(self.path, p.rstrip("/"))
            if not os.path.lexists(source):
                continue
            if keep_paths:
                copy(source, os.path.join(target, p.rstrip("/")))
            elif os.path.isdir(source) and not os.path.islink(source):
                copy(source, target)
            else:
                copy(source, os.path.join(target, os.path.basename(source)))

    def download(self, name, into=""):
        """Puts artifact NAME's files into the workspace, under INTO."""
        source = os.path.join(self.store, name)
        if not os.path.isdir(source):
            raise TemplateError(f"no artifact named {name!r}")
        for entry in os.listdir(source):
            copy(os.path.join(source, entry), os.path.join(self.path, into, entry))

    def artifacts(self, pattern):
        return sorted(n for n in os.listdir(self.store) if re.fullmatch(pattern, n))


def copy(source, target):
    """Copies a file or folder; a link stays a link (broadcheck names itself by /proc/self/exe in replay commands)."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if os.path.isdir(source) and not os.path.islink(source):
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    elif os.path.islink(source):
        if os.path.lexists(target):
            os.remove(target)
        os.symlink(os.readlink(source), target)
    else:
        shutil.copy2(source, target)
