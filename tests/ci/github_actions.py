"""Plays a GitHub Actions workflow locally (ci_templates_test.py): its jobs in the order of `needs`, a matrix as one
job per entry (strategy.job-index, strategy.job-total), `run` steps in bash, actions/checkout, upload-artifact and
download-artifact on a local store (ci_workspace.py). Anything else in the workflow is a TemplateError, so that the
test never passes over a step it did not play."""
import itertools
import os
import re

try:
    import yaml
except ImportError:
    raise SystemExit("the CI templates' test needs PyYAML: apt-get install python3-yaml (scripts/setup.sh installs it)")

from ci_workspace import TemplateError

EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def substitute(text, context):
    def value(m):
        name = m.group(1)
        if name not in context:
            raise TemplateError(f"an expression this test cannot play: ${{{{ {name} }}}}")
        return str(context[name])
    return EXPRESSION.sub(value, str(text))


def job_order(jobs):
    order, seen = [], set()
    def visit(name):
        if name in seen:
            return
        seen.add(name)
        needs = jobs[name].get("needs", [])
        for n in [needs] if isinstance(needs, str) else needs:
            visit(n)
        order.append(name)
    for name in jobs:
        visit(name)
    return order


def matrix_entries(job):
    matrix = job.get("strategy", {}).get("matrix")
    if not matrix:
        return [{}]
    if any(k in matrix for k in ("include", "exclude")) or not all(isinstance(v, list) for v in matrix.values()):
        raise TemplateError("this test plays a matrix of plain lists only")
    keys = list(matrix)
    return [dict(zip(keys, values)) for values in itertools.product(*(matrix[k] for k in keys))]


def play(path, workspace, env_override, only=None):
    """Runs the jobs of the workflow at PATH (or those in ONLY, the others' artifacts taken from the store as an
    earlier play left them), with ENV_OVERRIDE over the workflow's env; returns ({job name: the worst exit code of
    its matrix entries}, {job[entry]: its step summary file})."""
    with open(path) as f:
        workflow = yaml.safe_load(f)
    jobs = workflow["jobs"]
    results, summaries = {}, {}
    for name in job_order(jobs):
        if only is not None and name not in only:
            continue
        job = jobs[name]
        entries = matrix_entries(job)
        codes = []
        for index, matrix in enumerate(entries):
            context = {f"matrix.{k}": v for k, v in matrix.items()}
            context.update({"strategy.job-index": index, "strategy.job-total": len(entries)})
            env = workspace.base_env()
            env.update({k: str(v) for k, v in workflow.get("env", {}).items()})
            env.update({k: str(v) for k, v in job.get("env", {}).items()})
            env.update(env_override)
            context.update({f"env.{k}": v for k, v in env.items()})
            summary = os.path.join(workspace.root, f"step-summary-{name}-{index}.md")
            open(summary, "w").close()
            env["GITHUB_STEP_SUMMARY"] = summary
            workspace.fresh()
            codes.append(play_steps(f"{name}[{index}]", job["steps"], context, env, workspace))
            summaries[f"{name}[{index}]"] = summary
        results[name] = max(codes, key=lambda c: (c != 0, c))
    return results, summaries


def play_steps(job, steps, context, env, workspace):
    failed = 0
    for step in steps:
        condition = str(step.get("if", ""))
        if condition not in ("", "always()"):
            raise TemplateError(f"job {job}: a step condition this test cannot play: {condition}")
        if failed and condition != "always()":
            continue
        if "run" in step:
            code = workspace.run(job, substitute(step["run"], context), env)
            failed = failed or code
            continue
        uses = step.get("uses", "")
        given = {k: substitute(v, context) for k, v in step.get("with", {}).items()}
        if uses.startswith("actions/checkout@"):
            continue  # the workspace starts as the checkout
        if uses.startswith("actions/upload-artifact@"):
            workspace.upload(given["name"], given["path"].split("\n"), keep_paths=False)
        elif uses.startswith("actions/download-artifact@"):
            if "name" in given:
                workspace.download(given["name"], given.get("path", ""))
            else:  # a pattern: each artifact into a folder of its name
                pattern = re.escape(given["pattern"]).replace(r"\*", ".*")
                for name in workspace.artifacts(pattern):
                    workspace.download(name, os.path.join(given.get("path", ""), name))
        else:
            raise TemplateError(f"job {job}: an action this test cannot play: {uses}")
    return failed
