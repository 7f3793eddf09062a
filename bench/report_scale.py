"""report.html at scale: how big it gets and how long headless Chromium takes to load it (run by hand, never
timed in tests).

    /usr/bin/python3 bench/report_scale.py --broadcheck build/broadcheck [--cases-per-property 1250]
        [--signatures 200] [--out DIR]

1. `broadcheck run --seed 1 --no-known --cases N` over every property (8 x 1250 = 10,000 generated cases, plus
   the corpus), so the findings are real ones: real messages, shape pictures and regression drafts;
2. copies those findings, each under a new signature, until there are --signatures of them, and writes that
   summary back;
3. `broadcheck merge` re-renders report.html from it (merge writes the report from the summaries);
4. loads the page in headless Chromium (tests/reports/headless_chromium.py) and prints the size and the
   Navigation Timing figures.
"""

import argparse
import copy
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reports"))
import headless_chromium  # noqa: E402


def pad_findings(summary, signatures):
    real = summary["findings"]
    if not real:
        sys.exit("the run found nothing to copy")
    findings = list(real)
    n = 0
    while len(findings) < signatures:
        f = copy.deepcopy(real[n % len(real)])
        n += 1
        f["signature"] += f" | copy {n}"
        f["key"] = f["signature"]
        f["first_seq"] = 10 ** 6 + n
        f["hits"] = 1 + n % 50
        findings.append(f)
    summary["findings"] = findings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--broadcheck", default="build/broadcheck")
    parser.add_argument("--cases-per-property", type=int, default=1250)
    parser.add_argument("--signatures", type=int, default=200)
    parser.add_argument("--out", default="/tmp/broadcheck-report-scale")
    args = parser.parse_args()
    missing = headless_chromium.missing_packages()
    if missing:
        sys.exit("missing Debian package(s): " + "; ".join(missing))

    run_dir, merged_dir = os.path.join(args.out, "run"), os.path.join(args.out, "merged")
    subprocess.run([args.broadcheck, "run", "--seed", "1", "--no-known", "--quiet", "--cases",
                    str(args.cases_per_property), "--out", run_dir], check=False)
    summary_path = os.path.join(run_dir, "summary.json")
    with open(summary_path) as f:
        summary = json.load(f)
    cases = sum(summary["cases"].values())
    real = len(summary["findings"])
    pad_findings(summary, args.signatures)
    with open(summary_path, "w") as f:
        json.dump(summary, f, indent=2)
    merged = subprocess.run([args.broadcheck, "merge", run_dir, "--quiet", "--out", merged_dir], check=False)
    page = os.path.abspath(os.path.join(merged_dir, "report.html"))
    if merged.returncode not in (0, 1) or not os.path.exists(page):
        sys.exit(f"broadcheck merge failed ({merged.returncode})")
    print(f"{cases} cases, {real} real signatures padded to {len(summary['findings'])}")

    headless_chromium.time_loads(page)


if __name__ == "__main__":
    main()
