"""report.html in a real browser: headless Chromium, driven by Selenium (registered with ctest as
html_report_browser; run it with Debian's /usr/bin/python3).

It makes a report with real findings and hostile text, the way a user would:
  1. `broadcheck run --seed 1 --cases 300 --no-known` on a copy of the corpus with one more case whose note holds
     a <script> (xtensor's resizing in-place ops become new discrepancies; the corpus's INT64_MIN % -1 makes
     LibTorch crash with SIGFPE);
  2. puts a <script> (and an <img onerror>) into an error message of the run's summary.json, gives another
     finding's minimal case 38 more leading 1s in its first operand (a shape picture far wider than the window),
     and re-renders the report with `broadcheck merge`, which writes report.html from the summaries.
Then, in the browser, it checks that
  - the header and summary render, with the verdict in words; the sections come in order (the verdict, new
    findings, known ones, then the summary, coverage and declarations);
  - each finding's summary line shows its whole minimal case (every operand's dtype and layout, the scalars);
  - "open all" takes at most 2 s plus 10 ms per finding (a finding's content is laid out when it comes into
    view: content-visibility);
  - with every finding open at 1024 px, no element sticks out of the window and the page does not scroll
    sideways: the wide picture scrolls inside its own box; no word of an error message in the outcome tables is
    cut across lines;
  - only the differing cells are red: every red cell of a finding is a td.diff (outcomes) or td.clash (shape
    picture), and a td.diff's text differs from another cell of its row;
  - a new discrepancy opens to show its shape picture, and the crash is there;
  - choosing an implementation in the filter hides the findings that do not have it as the odd one out, and the
    text search hides the findings without the text;
  - the hostile note and message show as text (the text "<script>" is visible) and none of their code ran;
  - a copy button exists, and a click reports "copied";
  - for print, the filter bar and buttons are hidden and every finding opens;
  - the page logged no error.
It saves screenshots under ARTIFACTS (report.png, report-finding.png, report-1024.png) and prints their paths.

A missing browser is a failure, not a skip: scripts/setup.sh installs it; the message names the package.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headless_chromium  # noqa: E402

NOTE_FLAG = "window.__bcNoteRan"
MESSAGE_FLAG = "window.__bcMessageRan"
HOSTILE_NOTE = "<script>window.__bcNoteRan = 1; document.title = 'pwned by a note'</script> note with markup"
HOSTILE_MESSAGE = ("<script>window.__bcMessageRan = 1; document.title = 'pwned by a message'</script>"
                   "<img src=\"x\" onerror=\"window.__bcMessageRan = 2\"> hostile message")


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)
    print(f"ok: {what}")


def broadcheck(binary, *args, expect):
    result = subprocess.run([binary, *args], capture_output=True, text=True, timeout=600)
    if result.returncode not in expect:
        raise Failure(f"broadcheck {' '.join(args)} exited {result.returncode}, expected {expect}:\n"
                      f"{result.stdout}{result.stderr}")


def make_report(binary, corpus, work):
    """Runs broadcheck with a hostile corpus note, injects a hostile message, merges; returns report.html."""
    corpus_copy = os.path.join(work, "corpus")
    shutil.copytree(corpus, corpus_copy)
    with open(os.path.join(corpus_copy, "hostile.jsonl"), "w") as f:
        f.write(json.dumps({"id": "hostile-note", "op": "add_", "shapes": [[1], [3]], "note": HOSTILE_NOTE}) + "\n")
    run_dir, merged_dir = os.path.join(work, "run"), os.path.join(work, "merged")
    broadcheck(binary, "run", "--seed", "1", "--cases", "300", "--no-known", "--quiet", "--corpus-dir", corpus_copy,
               "--out", run_dir, expect=[1])

    summary_path = os.path.join(run_dir, "summary.json")
    with open(summary_path) as f:
        summary = json.load(f)
    target = None
    for finding in summary["findings"]:
        for outcome in finding["minimal"]["outcomes"].values():
            if outcome.get("status") == "error" and finding["minimal"]["case"].get("id") != "hostile-note":
                target = outcome
                break
        if target:
            break
    if target is None:
        raise Failure("no finding with an error outcome to put a hostile message into")
    target["error"]["message"] = HOSTILE_MESSAGE
    wide = next((f for f in summary["findings"] if f["minimal"]["case"]["shapes"]
                 and f["minimal"]["case"].get("id") != "hostile-note"), None)
    if wide is None:
        raise Failure("no finding with an operand to widen")
    wide["minimal"]["case"]["shapes"][0] = [1] * 38 + wide["minimal"]["case"]["shapes"][0]  # same elements
    with open(summary_path, "w") as f:
        json.dump(summary, f, indent=2)
    broadcheck(binary, "merge", run_dir, "--quiet", "--out", merged_dir, expect=[1])
    return os.path.join(merged_dir, "report.html")


def visible_findings(driver):
    from selenium.webdriver.common.by import By
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "details.finding") if b.is_displayed()]


RED_BACKGROUND = """
  return Array.prototype.filter.call(document.querySelectorAll('#findings *'), function (el) {
    var m = getComputedStyle(el).backgroundColor.match(/\\d+/g);
    if (!m || (m.length > 3 && +m[3] === 0)) return false;
    var r = +m[0], g = +m[1], b = +m[2];
    return r > 200 && r - g > 40 && r - b > 40 && Math.abs(g - b) < 40;  // pink to red, not yellow or orange
  }).map(function (el) { return el.tagName.toLowerCase() + '.' + el.className; });
"""

# Elements that stick out of the window on the right, outside any div.wide (whose content scrolls inside it).
OVERFLOWING = """
  var width = document.documentElement.clientWidth, out = [];
  document.querySelectorAll('body *').forEach(function (el) {
    if (el.closest('div.wide') && !el.matches('div.wide')) return;
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1) out.push(el.tagName.toLowerCase() + '.' + el.className + ' ' + r.right);
  });
  return out;
"""


# Words of error messages in the outcome tables that a line break cuts in two (at most 5), among the first 40
# messages: a narrow column must wrap between words, not every few characters.
SPLIT_WORDS = """
  var split = [], pres = Array.prototype.slice.call(document.querySelectorAll('table.outcomes td pre'), 0, 40);
  pres.forEach(function (pre) {
    // A word is cut where it breaks inside; a break after a hyphen ("non-" / "float32") keeps both parts whole.
    var node = pre.firstChild, re = /[^\\s-]+-?/g, m;
    if (!node || node.nodeType !== 3) return;
    while ((m = re.exec(node.data)) && split.length < 5) {
      if (m[0].length > 12) continue;  // a token longer than the narrowest column may have to be cut
      var range = document.createRange(), rows = {};
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      Array.prototype.forEach.call(range.getClientRects(), function (r) { if (r.width > 0) rows[Math.round(r.top)] = 1; });
      if (Object.keys(rows).length > 1) split.push(m[0]);
    }
  });
  return [pres.length, split];
"""

# "open all": the click, then two animation frames (style, layout and paint of what shows), in ms.
OPEN_ALL = """
  var done = arguments[0], start = performance.now();
  document.getElementById('open-all').click();
  requestAnimationFrame(function () { requestAnimationFrame(function () { done(performance.now() - start); }); });
"""


def check_open_all(driver, blocks):
    """"open all" takes at most 2 s plus 10 ms per finding (issue 36: 24 s for 436 findings, about 40 ms each)."""
    driver.set_script_timeout(120)
    ms = driver.execute_async_script(OPEN_ALL)
    budget = 2000 + 10 * blocks
    check(ms <= budget, f"open all shows {blocks} findings in {ms:.0f} ms (at most {budget} ms)")
    driver.execute_script("document.getElementById('close-all').click();")


def check_layout(driver, artifacts):
    """Order of sections, whole minimal cases in the headers, no overflow at 1024 px, only differing cells red."""
    from selenium.webdriver.common.by import By

    ids = driver.execute_script("return Array.prototype.map.call(document.querySelectorAll('body > header, "
                                "body > section, details.finding'), function (el) { return el.tagName === "
                                "'HEADER' ? 'header' : el.id.indexOf('finding-') === 0 ? "
                                "(el.classList.contains('new') ? 'new' : 'known') : el.id; });")
    collapsed = [k for i, k in enumerate(ids) if i == 0 or ids[i - 1] != k]
    groups = [g for g in ("new", "known") if g in ids]
    messages = ["messages"] if "messages" in ids else []  # the message findings, when a library words a check two ways
    check(collapsed == ["header", "findings", *groups, "summary", "coverage", "declarations", *messages, "input-errors"],
          f"the sections come in order: {collapsed}")

    for block in driver.find_elements(By.CSS_SELECTOR, "details.finding"):
        case = json.loads(block.find_element(By.TAG_NAME, "pre").get_attribute("textContent"))
        summary = block.find_element(By.TAG_NAME, "summary").get_attribute("textContent")
        for dtype in case.get("dtypes", []):
            check_quiet(dtype in summary, f"the summary line {summary!r} names the dtype {dtype}")
        for layout in case.get("layouts", []):
            check_quiet(layout in summary, f"the summary line {summary!r} names the layout {layout}")
        for name in case.get("scalars", {}):
            check_quiet(f"{name}=" in summary, f"the summary line {summary!r} gives {name}")
    check(True, "every finding's summary line names its operands' dtypes and layouts and its scalars")

    driver.set_window_size(1024, 900)
    driver.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = true; });")
    width = driver.execute_script("return document.documentElement.clientWidth;")
    page = driver.execute_script("return document.documentElement.scrollWidth;")
    check(page <= width, f"at 1024 px the page is {page} px wide in a window of {width} px")
    out = driver.execute_script(OVERFLOWING)
    check(not out, f"no element sticks out of the window {out[:5]}")
    scrolled = driver.execute_script("return Array.prototype.filter.call(document.querySelectorAll('div.wide'), "
                                     "function (d) { return d.scrollWidth > d.clientWidth + 1; }).length;")
    check(scrolled >= 1, f"{scrolled} wide table(s) scroll inside their own box")
    driver.execute_script("document.querySelector('table.shapes td.clash, table.shapes th').scrollIntoView();")
    driver.save_screenshot(os.path.join(artifacts, "report-1024.png"))

    red = driver.execute_script(RED_BACKGROUND)
    check(red and all(r in ("td.diff", "td.clash") for r in red),
          f"every red element of the findings is a differing cell ({len(red)}: {sorted(set(red))})")
    rows = driver.execute_script("""
      return Array.prototype.map.call(document.querySelectorAll('table.outcomes tr'), function (tr) {
        return Array.prototype.map.call(tr.querySelectorAll('td'), function (td) {
          return [td.classList.contains('diff'), td.textContent.replace(/^≠ /, '')];
        });
      });""")
    diffs = [(cells, i) for cells in rows for i, (diff, _) in enumerate(cells) if diff]
    # ("—" is a cell too: a gradient one implementation has and another has not is a difference.)
    alike = [[t for d, t in cells] for cells, i in diffs if not any(t != cells[i][1] for d, t in cells)]
    check(diffs and not alike,
          f"each of the {len(diffs)} marked outcome cells differs from another cell of its row {alike[:3]}")
    messages, split = driver.execute_script(SPLIT_WORDS)
    check(messages > 0 and not split, f"at 1024 px no word of {messages} messages is cut across lines {split}")
    driver.set_window_size(1400, 1800)
    driver.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = false; });")


def check_quiet(condition, what):
    if not condition:
        raise Failure(what)


def check_report(driver, report, artifacts):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver.get("file://" + report)
    blocks = driver.find_elements(By.CSS_SELECTOR, "details.finding")

    # The summary renders, verdict in words.
    verdict = driver.find_element(By.CSS_SELECTOR, "header .verdict")
    check(verdict.is_displayed() and verdict.text.startswith("FAILED:"), f"the verdict reads {verdict.text!r}")
    header = driver.find_element(By.TAG_NAME, "header").text
    check("new discrepancies" in header and "crashes (any implementation)" in header and "seed 1" in header,
          "the header shows the counts and the seed")
    run = driver.find_element(By.CSS_SELECTOR, "#summary table.run").get_attribute("textContent")
    check("LibTorch" in run and "xtensor" in run, "the summary shows the versions")
    check(driver.find_element(By.ID, "summary").is_displayed(), "the summary section is displayed")
    check(len(blocks) >= 3, f"{len(blocks)} findings are listed")
    check_open_all(driver, len(blocks))

    # A discrepancy opens to show its shape picture; the corpus's crash is a finding.
    first = driver.find_element(By.CSS_SELECTOR, "details.finding.new")
    picture = first.find_element(By.CSS_SELECTOR, "table.shapes")
    # Selenium's is_displayed() only looks for a closed <details> as the direct parent (the picture sits in a
    # box), and Chromium lays a closed block's content out (content-visibility: hidden): ask checkVisibility().
    check(not driver.execute_script("return arguments[0].checkVisibility();", picture), "a finding starts folded")
    first.find_element(By.TAG_NAME, "summary").click()
    check(picture.is_displayed() and picture.size["height"] > 20, "an opened finding shows its shape picture")
    check(len(picture.find_elements(By.CSS_SELECTOR, "tr")) >= 3, "the picture has a row per operand and a heading")
    driver.execute_script("arguments[0].scrollIntoView()", first)
    first.screenshot(os.path.join(artifacts, "report-finding.png"))
    crashes = driver.find_elements(By.CSS_SELECTOR, "details.finding[data-error~='crash']")
    check(len(crashes) >= 1 and "SIGFPE" in crashes[0].get_attribute("textContent"),
          "LibTorch's SIGFPE on INT64_MIN % -1 is a finding")

    # Filter: choosing an implementation hides the findings without it as the odd one out.
    odd = Select(driver.find_element(By.ID, "filter-odd"))
    values = [o.get_attribute("value") for o in odd.options if o.get_attribute("value")]
    check("xtensor" in values, f"the implementation filter offers {values}")
    odd.select_by_value("xtensor")
    shown = visible_findings(driver)
    check(0 < len(shown) < len(blocks), f"filtering on xtensor shows {len(shown)} of {len(blocks)} findings")
    check(all("xtensor" in b.get_attribute("data-odd").split() for b in shown),
          "every finding shown has xtensor as the odd one out")
    count = driver.find_element(By.ID, "filter-count").text
    check(count == f"{len(shown)} of {len(blocks)} findings shown", f"the filter says {count!r}")
    odd.select_by_value("")
    check(len(visible_findings(driver)) == len(blocks), "clearing the filter shows every finding again")
    search = driver.find_element(By.ID, "filter-text")
    search.send_keys("SIGFPE")
    shown = visible_findings(driver)
    check(0 < len(shown) < len(blocks) and all("SIGFPE" in b.get_attribute("textContent") for b in shown),
          f"searching for SIGFPE shows {len(shown)} finding(s), each with the text")
    search.clear()
    search.send_keys(" ")  # an input event with an empty query
    check(len(visible_findings(driver)) == len(blocks), "clearing the search shows every finding again")

    # Hostile text shows as text; none of its code ran.
    check(driver.execute_script(f"return {NOTE_FLAG} === undefined && {MESSAGE_FLAG} === undefined;"),
          "no script from a note or a message ran")
    check(driver.title.startswith("broadcheck"), f"the title is still {driver.title!r}")
    check(not driver.find_elements(By.XPATH, "//img"), "no <img> from a message became an element")
    for flag, text in (("note", HOSTILE_NOTE), ("message", HOSTILE_MESSAGE)):
        holder = driver.find_element(By.XPATH, f"//details[contains(@class, 'finding') and contains(., {json.dumps(text[:40])})]")
        summary = holder.find_element(By.TAG_NAME, "summary")
        # Below the sticky filter bar, which would take a click at the top of the window.
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
        if holder.get_attribute("open") is None:  # an earlier check may have opened this finding already
            summary.click()
        shown_text = holder.find_element(By.XPATH, f".//*[contains(text(), {json.dumps(text[:40])})]")
        check(shown_text.is_displayed() and "<script>" in shown_text.text,
              f"the hostile {flag} is visible as text: {shown_text.text[:60]!r}")

    # A copy button exists, reports success, and the clipboard then holds the text; the same through the
    # fallback (select + execCommand) when navigator.clipboard refuses, as it may on a file:// page.
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite",
                                                                        "clipboardSanitizedWrite"]})
    buttons = first.find_elements(By.CSS_SELECTOR, "button.copy")
    check(len(buttons) >= 2, f"the finding has {len(buttons)} copy buttons")
    for how, button in (("navigator.clipboard", buttons[0]), ("the execCommand fallback", buttons[-1])):
        if how != "navigator.clipboard":
            driver.execute_script("navigator.clipboard.writeText = function () {"
                                  "  return Promise.reject(new Error('no permission')); };")
        source = driver.find_element(By.ID, button.get_attribute("data-copy"))
        check(button.is_displayed() and source.text.strip() != "", f"a copy button for #{source.get_attribute('id')}")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)  # clear of the sticky bar
        button.click()
        WebDriverWait(driver, 5).until(lambda d: button.get_attribute("data-copied"))
        status = button.find_element(By.XPATH, "following-sibling::span[@class='copy-status']").text
        check(button.get_attribute("data-copied") == "yes" and status == "copied",
              f"through {how}, the copy button reports {status!r}")
        pasted = driver.execute_async_script(
            "var done = arguments[0]; navigator.clipboard.readText().then(done, function (e) { done(null); });")
        expected = source.get_attribute("textContent")
        check(pasted == expected, f"through {how}, the clipboard holds the text ({len(expected)} characters)")

    # Print: the controls are hidden, every finding opens.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    driver.execute_script("window.dispatchEvent(new Event('beforeprint'));")
    check(not driver.find_element(By.ID, "filters").is_displayed() and not buttons[0].is_displayed(),
          "for print, the filter bar and the copy buttons are hidden")
    check(driver.execute_script("return document.querySelectorAll('details.finding:not([open])').length;") == 0,
          "for print, every finding is open")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    check_layout(driver, artifacts)

    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    check(not errors, f"the page logged no error {errors}")

    driver.execute_script("document.querySelectorAll('details.finding').forEach(function (b) { b.open = false; });"
                          "window.scrollTo(0, 0);")
    driver.find_element(By.CSS_SELECTOR, "details.finding.new summary").click()
    driver.execute_script("window.scrollTo(0, 0);")
    shot = os.path.join(artifacts, "report.png")
    driver.save_screenshot(shot)
    print(f"screenshot: {shot}")
    print(f"screenshot: {os.path.join(artifacts, 'report-finding.png')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--broadcheck", required=True, help="the broadcheck binary")
    parser.add_argument("--corpus", required=True, help="the corpus folder to copy")
    parser.add_argument("--artifacts", required=True, help="where the screenshots go")
    args = parser.parse_args()

    missing = headless_chromium.missing_packages()
    if missing:
        print("FAILED: the browser test needs the Debian package(s) " + "; ".join(missing) +
              ". scripts/setup.sh installs them (apt-get install chromium chromium-driver python3-selenium).")
        return 1
    os.makedirs(args.artifacts, exist_ok=True)
    work = tempfile.mkdtemp(prefix="broadcheck-browser-test-")
    driver = None
    try:
        report = make_report(os.path.abspath(args.broadcheck), os.path.abspath(args.corpus), work)
        print(f"report: {report} ({os.path.getsize(report)} bytes)")
        driver = headless_chromium.start()
        check_report(driver, report, os.path.abspath(args.artifacts))
    except Failure as failure:
        print(f"FAILED: {failure}")
        return 1
    finally:
        if driver is not None:
            headless_chromium.stop(driver)
        shutil.rmtree(work, ignore_errors=True)
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
