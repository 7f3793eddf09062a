#include "cli/publish.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/outputs.h"
#include "harness/utf8.h"
#include "reports/html_report.h"
#include "reports/html_text.h"
#include "reports/junit_writer.h"
#include "reports/markdown_summary.h"
#include "reports/text_file.h"
#include "reports/verdict.h"
#include "run/corpus_writer.h"
#include "run/exit_codes.h"

namespace bc {

void write_reports(const RunSummary& summary, const std::string& dir, const std::string& out) {
  write_text_file(dir + "/summary.json", json_text(to_json(summary), 1) + "\n");
  write_junit(summary, dir + "/junit.xml");
  write_html_report(summary, dir + "/report.html");
  write_markdown_summary(summary, dir, out + "/report.html");
}

// The end of a run on stderr: unless quiet, the counts, each new finding with its minimal case, stale
// declarations, missing coverage and the files written; always the verdict line (reports/verdict.h) and where
// the report is (`out`; "" when the reports could not be written).
static void print_verdict(const RunSummary& summary, const std::string& out, bool quiet) {
  if (!quiet) {
    long fresh = 0, unstable = 0;
    const long stale = stale_declarations(summary);
    for (const Finding& f : summary.findings) fresh += f.is_new(), unstable += !f.reproduction.stable();
    if (summary.interrupted) std::cerr << "interrupted by signal " << summary.signal << "; reporting what ran\n";
    for (const std::string& death : summary.job_deaths) std::cerr << "  JOB DIED: " << death << "\n";
    const long agree = summary.verdicts.count("agree") ? summary.verdicts.at("agree") : 0;
    std::cerr << fmt::format("done in {:.1f} s: ", summary.seconds) << agree << " agree, " << fresh << " new finding(s), "
              << (summary.findings.size() - fresh - unstable) << " known, " << unstable
              << " flaky or nondeterministic, " << stale << " stale declaration(s), "
              << summary.input_errors.size() << " input error(s)\n";
    for (const Finding& f : summary.findings)
      if (f.is_new()) std::cerr << "  NEW " << f.signature << "\n      minimal: " << describe(f.minimal.c) << "\n";
    for (const Finding& f : summary.findings)
      if (!f.reproduction.stable())
        std::cerr << "  " << (f.reproduction.kind == "flaky" ? "FLAKY " : "NONDETERMINISTIC ") << f.signature
                  << "\n      " << describe(f.reproduction) << "; minimal: " << describe(f.minimal.c) << "\n";
    for (const DeclarationUse& u : summary.declarations)
      if (u.stale()) std::cerr << "  STALE declaration " << u.declaration.id << "\n";
    for (const std::string& m : summary.coverage.missing()) std::cerr << "  coverage MISSING: " << m << "\n";
    if (const size_t n = summary.messages.inconsistencies().size())
      std::cerr << "  " << n << " message finding(s): an implementation words one error kind differently across ops "
                << "(informational; the report lists them)\n";
    for (const auto& [kind, n] : summary.difference_classes)
      std::cerr << "  " << n << " case(s) also differ in " << kind << (kind == "zeros" ? " (the sign of zero)" : "")
                << " behind their verdict\n";
    if (!out.empty()) std::cerr << "wrote " << out << "/{results.jsonl, summary.json, summary.md, junit.xml, report.html}\n";
  }
  std::cerr << verdict_text(summary) << "\n";
  if (!out.empty()) std::cerr << "report: " << out << "/report.html\n";
}

int publish_run(const RunSummary& summary, OutputFolder& outputs, const RunOptions& options,
                const std::string& results_unwritten) {
  const bool quiet = options.progress == Progress::quiet;
  std::string unwritten = results_unwritten;
  if (unwritten.empty()) {
    try {
      write_reports(summary, outputs.staging(), options.out);
    } catch (const std::exception& e) {
      unwritten = visible_utf8(e.what());
    }
  }
  if (unwritten.empty()) unwritten = outputs.commit();
  if (!unwritten.empty()) {  // an --out that cannot be written is an input error (exit 2), said on the console
    outputs.abandon();        // nothing half-written stays behind to fill the disk
    RunSummary told = summary;
    told.input_errors.push_back("cannot write the reports: " + unwritten + "; " + options.out +
                                " holds no report of this run nor of an earlier one");
    told.exit_code = exit_code_for(told, told.signal);
    std::cerr << "broadcheck: " << told.input_errors.back() << "\n";
    if (options.unwritten_fd >= 0 && ::write(options.unwritten_fd, unwritten.data(), unwritten.size()) < 0)
      std::cerr << "broadcheck: the reason did not reach the parent\n";  // it says the job wrote nothing anyway
    if (!options.job) print_verdict(told, "", quiet);
    return told.exit_code;
  }
  // A GitHub Actions job page gets one section per run: the whole run's, never a job's (cli/jobs.h).
  const char* step_summary = std::getenv("GITHUB_STEP_SUMMARY");
  if (step_summary && *step_summary && !options.job) {
    const std::string problem = append_step_summary(markdown_summary(summary, options.out + "/report.html"), step_summary);
    if (!problem.empty()) std::cerr << "broadcheck: warning: " << visible_utf8(problem) << "\n";
  }
  if (!options.save.empty()) {
    try {
      const long added = save_findings(summary, options.save);
      if (!quiet) std::cerr << "saved " << added << " new minimal case(s) to " << options.save << "\n";
    } catch (const std::exception& e) {
      std::cerr << "broadcheck: " << visible_utf8(e.what()) << "\n";
      return summary.exit_code == kExitOk ? kExitBadInput : summary.exit_code;
    }
  }
  if (!options.job) print_verdict(summary, options.out, quiet);
  return summary.exit_code;
}

}  // namespace bc
