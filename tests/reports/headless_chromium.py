"""Headless Chromium driven by Selenium, the way broadcheck's browser checks start it.

Everything comes from Debian packages that scripts/setup.sh installs: chromium (/usr/bin/chromium),
chromium-driver (/usr/bin/chromedriver) and python3-selenium (found by Debian's /usr/bin/python3, not by a
pyenv or virtualenv python3). missing_packages() names what is absent; start() starts a browser with a fresh
profile in a temporary folder, and stop() ends that browser and removes the profile.

Run as a script, it times how long a page takes to load:
    /usr/bin/python3 tests/reports/headless_chromium.py PAGE.html [--runs N]
and prints the file size and, per run, the Navigation Timing figures (DOMContentLoaded and load event end, in
ms from the start of navigation).
"""

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def missing_packages():
    """The Debian packages (with what is missing from each) that must be installed before start()."""
    missing = []
    if not os.access(CHROMIUM, os.X_OK):
        missing.append(f"chromium ({CHROMIUM} not found)")
    if not os.access(CHROMEDRIVER, os.X_OK):
        missing.append(f"chromium-driver ({CHROMEDRIVER} not found)")
    if importlib.util.find_spec("selenium") is None:
        missing.append(f"python3-selenium (module selenium not importable by {sys.executable}; "
                       "use Debian's /usr/bin/python3)")
    return missing


def start(width=1400, height=1800):
    """A headless Chromium (Selenium WebDriver) with a fresh profile; browser logs are kept for get_log()."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="broadcheck-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    except Exception:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    driver.broadcheck_profile = profile
    return driver


def stop(driver):
    profile = getattr(driver, "broadcheck_profile", None)
    try:
        driver.quit()
    finally:
        if profile:
            shutil.rmtree(profile, ignore_errors=True)


def navigation_timing(driver):
    """DOMContentLoaded and load event end of the current page, in ms after navigation started."""
    return driver.execute_script(
        "var t = performance.getEntriesByType('navigation')[0];"
        "return {dom: t.domContentLoadedEventEnd, load: t.loadEventEnd, size: t.decodedBodySize};")


def time_loads(page, runs=3):
    """Prints the page's size, then loads it `runs` times in a fresh headless Chromium and prints the Navigation
    Timing figures of each load."""
    page = os.path.abspath(page)
    print(f"{page}: {os.path.getsize(page)} bytes ({os.path.getsize(page) / 1e6:.2f} MB)")
    driver = start()
    try:
        for run in range(runs):
            driver.get("about:blank")
            driver.get("file://" + page)
            t = navigation_timing(driver)
            blocks = driver.execute_script("return document.querySelectorAll('details.finding').length;")
            print(f"load {run + 1}: DOMContentLoaded {t['dom']:.0f} ms, load event end {t['load']:.0f} ms, "
                  f"{blocks} finding blocks")
    finally:
        stop(driver)


def main():
    parser = argparse.ArgumentParser(description="time how long headless Chromium takes to load a page")
    parser.add_argument("page")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    missing = missing_packages()
    if missing:
        sys.exit("missing Debian package(s): " + "; ".join(missing))
    time_loads(args.page, args.runs)


if __name__ == "__main__":
    main()
