#include "reports/markdown_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "harness/shell_quote.h"
#include "reports/text_file.h"
#include "reports/verdict.h"

namespace bc {
namespace {

constexpr size_t kMostFindings = 50;

// The longest run of backticks in `text`.
size_t longest_backtick_run(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char ch : text) {
    run = ch == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

// An inline code span that holds `text` as is (on one line).
std::string code(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  const std::string fence(longest_backtick_run(text) + 1, '`');
  const bool pad = text.empty() || text.front() == '`' || text.back() == '`' || text.front() == ' ';
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

// The scoreboard: each implementation's cases over all op families (run, agreeing, departing declared or new,
// unsupported), then, folded, the same per op family.
std::string scoreboard_markdown(const Scoreboard& board) {
  if (board.empty()) return "";
  const std::string head = " run | agree | known | new | unsupported |\n";
  const std::string rule = " ---: | ---: | ---: | ---: | ---: |\n";
  const auto cells = [](const Score& s) {
    return fmt::format(" {} | {} | {} | {} | {} |\n", s.run, s.agree, s.known, s.fresh, s.unsupported);
  };
  std::string md = "### Scoreboard (cases per implementation)\n\n| implementation |" + head + "| --- |" + rule;
  for (const auto& [name, families] : board) md += "| " + code(name) + " |" + cells(total_score(families));
  md += "\n<details><summary>per op family</summary>\n\n| implementation | family |" + head + "| --- | --- |" + rule;
  for (const auto& [name, families] : board)
    for (const auto& [family, s] : families) md += "| " + code(name) + " | " + code(family) + " |" + cells(s);
  return md + "\n</details>\n\n";
}

}  // namespace

std::string markdown_summary(const RunSummary& s, const std::string& report_path) {
  long fresh = 0, known = 0, cases = 0;
  std::string unstable;  // findings whose minimal case did not come out alike in fresh workers
  for (const Finding& f : s.findings) {
    if (!f.reproduction.stable())
      unstable += "- " + code(f.signature) + ": " + describe(f.reproduction) + "; minimal case " + code(describe(f.minimal.c)) + "\n";
    else (f.is_new() ? fresh : known) += 1;
  }
  for (const auto& [verdict, n] : s.verdicts) cases += n;
  std::string md = "## broadcheck: " + verdict_text(s) + "\n\n";
  md += fmt::format("{} · seed {} · {} case(s) in {:.1f} s · exit code {}{}\n\n", code(shell_words(s.arguments)), s.seed,
                    cases, s.seconds, s.exit_code,
                    s.interrupted ? fmt::format(" · interrupted by signal {}", s.signal) : std::string());
  for (const std::string& death : s.job_deaths) md += "**Job died:** " + death + "\n\n";
  md += "| verdict | cases |\n| --- | ---: |\n";
  for (const auto& [verdict, n] : s.verdicts) md += fmt::format("| {} | {} |\n", verdict, n);
  md += "\n";
  if (fresh > 0) {
    md += fmt::format("### New findings ({})\n\n", fresh);
    size_t listed = 0;
    for (const Finding& f : s.findings) {
      if (!f.is_new() || listed == kMostFindings) continue;
      ++listed;
      md += fmt::format("{}. {} ({}, {} hit(s))\n", listed, code(f.signature), to_string(f.verdict), f.hits);
      md += "   - minimal case: " + code(describe(f.minimal.c)) + "\n";
      if (!f.minimal.judgement.attribution.empty()) md += "   - " + code(f.minimal.judgement.attribution) + "\n";
      if (!f.replay_command.empty()) md += "   - replay: " + code(f.replay_command) + "\n";
      if (!f.reproduce_command.empty()) md += "   - reproduce: " + code(f.reproduce_command) + "\n";
      for (const auto& [adapter, command] : f.adapter_commands)
        md += "   - " + code(adapter) + " adapter alone: " + code(command) + "\n";
    }
    if (static_cast<size_t>(fresh) > listed)
      md += fmt::format("\n... and {} more in report.html\n", static_cast<size_t>(fresh) - listed);
    md += "\n";
  }
  if (!unstable.empty()) md += "### Flaky or nondeterministic (not failures)\n\n" + unstable + "\n";
  if (known > 0)
    md += fmt::format("Known divergences: {} signature(s), declared in the corpus (not failures).\n\n", known);
  std::string stale;
  for (const DeclarationUse& u : s.declarations)
    if (u.stale())
      stale += fmt::format("- {}: covered {} case(s), explained none (the divergence may be fixed)\n",
                           code(u.declaration.id), u.covered);
  if (!stale.empty()) md += "### Stale declarations\n\n" + stale + "\n";
  md += scoreboard_markdown(s.scoreboard);
  if (!s.input_errors.empty()) {
    md += fmt::format("### Input errors ({})\n\n", s.input_errors.size());
    for (const std::string& e : s.input_errors) md += "- " + code(e) + "\n";
    md += "\n";
  }
  md += "Full report: " + code(report_path) + "\n";
  return md;
}

void write_markdown_summary(const RunSummary& summary, const std::string& dir, const std::string& report_path) {
  write_text_file(dir + "/summary.md", markdown_summary(summary, report_path));
}

std::string append_step_summary(const std::string& markdown, const std::string& step_summary) {
  std::ofstream out(step_summary, std::ios::app);
  if (!out || !(out << markdown << "\n") || !out.flush())
    return step_summary + ": cannot append the step summary ($GITHUB_STEP_SUMMARY); the job's page goes without it";
  return "";
}

}  // namespace bc
