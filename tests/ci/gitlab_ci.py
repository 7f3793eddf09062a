"""Plays a GitLab CI template locally (ci_templates_test.py): its jobs by stage and `needs`, `extends`, `parallel: N`
as N jobs (CI_NODE_INDEX from 1, CI_NODE_TOTAL), `script` lines in bash, artifacts `paths` kept with their paths and
given to the jobs that need them (ci_workspace.py). Anything else in the template is a TemplateError."""
import re

try:
    import yaml
except ImportError:
    raise SystemExit("the CI templates' test needs PyYAML: apt-get install python3-yaml (scripts/setup.sh installs it)")

from ci_workspace import TemplateError

NOT_JOBS = {"include", "stages", "variables", "default", "workflow", "image", "services", "before_script",
            "after_script", "cache"}
STAGES = [".pre", "build", "test", "deploy", ".post"]


def resolve(jobs, name):
    """A job with its `extends` merged in (variables merged key by key, the job's own winning)."""
    job = dict(jobs[name])
    parent = job.pop("extends", None)
    if parent is None:
        return job
    base = resolve(jobs, parent)
    variables = {**base.get("variables", {}), **job.get("variables", {})}
    base.update(job)
    base["variables"] = variables
    return base


def play(path, workspace, env_override, only=None):
    """Runs the jobs of the template at PATH (or those in ONLY, the others' artifacts taken from the store as an
    earlier play left them); returns ({job name: worst exit code of its parallel jobs}, {})."""
    with open(path) as f:
        template = yaml.safe_load(f)
    names = [n for n in template if n not in NOT_JOBS and not n.startswith(".")]
    for key in ("stages", "default", "workflow", "before_script", "after_script"):
        if key in template:
            raise TemplateError(f"a top-level {key} this test does not play")
    jobs = {n: resolve(template, n) for n in names}
    order = sorted(names, key=lambda n: STAGES.index(jobs[n].get("stage", "test")))
    results = {}
    for name in order:
        if only is not None and name not in only:
            continue
        job = jobs[name]
        parallel = job.get("parallel", 1)
        if not isinstance(parallel, int):
            raise TemplateError(f"job {name}: this test plays `parallel: N` only")
        # Without `needs`, a job gets the artifacts of every job of an earlier stage.
        needs = job.get("needs", [n for n in order if STAGES.index(jobs[n].get("stage", "test")) <
                                  STAGES.index(job.get("stage", "test"))])
        if not all(isinstance(n, str) for n in needs):
            raise TemplateError(f"job {name}: this test plays `needs` as a list of job names only")
        codes = []
        for node in range(1, parallel + 1):
            instance = name if parallel == 1 else f"{name} {node} of {parallel}"
            env = workspace.base_env()
            env.update({k: str(v) for k, v in template.get("variables", {}).items()})
            env.update({k: str(v) for k, v in job.get("variables", {}).items()})
            env.update(env_override)
            env.update({"CI": "true", "CI_PROJECT_DIR": workspace.path})
            if parallel > 1:
                env.update({"CI_NODE_INDEX": str(node), "CI_NODE_TOTAL": str(parallel)})
            workspace.fresh()
            for needed in needs:
                for artifact in workspace.artifacts(re.escape(needed) + r"( [0-9]+ of [0-9]+)?"):
                    workspace.download(artifact)
            code = 0
            for line in job["script"]:
                code = workspace.run(instance, line, env)
                if code:
                    break
            artifacts = job.get("artifacts", {})
            if artifacts and (code == 0 or artifacts.get("when") == "always"):
                workspace.upload(instance, artifacts["paths"], keep_paths=True)
            codes.append(code)
        results[name] = max(codes, key=lambda c: (c != 0, c))
    return results, {}
