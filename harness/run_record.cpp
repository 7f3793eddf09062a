#include "harness/run_record.h"

#include "harness/implementations.h"

#include <set>

namespace bc {

nlohmann::json to_json(const CaseRecord& r) {
  nlohmann::json outcomes = nlohmann::json::object();
  for (const auto& [name, o] : r.outcomes) outcomes[name] = to_json(o);
  nlohmann::json j = {{"property", r.property},
                      {"case", to_json(r.c)},
                      {"outcomes", outcomes},
                      {"verdict", to_string(r.judgement.verdict)}};
  const Judgement& g = r.judgement;
  if (!g.difference.empty()) j["difference"] = g.difference;
  if (!g.odd_ones.empty()) j["odd_ones"] = g.odd_ones;
  if (!g.attribution.empty()) j["attribution"] = g.attribution;
  if (!g.known_id.empty()) j["known"] = g.known_id;
  if (!g.signature.empty()) j["signature"] = g.signature;
  if (!g.differences.empty()) {
    j["differences"] = nlohmann::json::array();
    for (const Difference& d : g.differences) j["differences"].push_back(to_json(d));
  }
  if (r.seq >= 0) j["seq"] = r.seq;
  if (!r.stability.empty()) j["stability"] = r.stability;
  return j;
}

CaseRecord case_record_from_json(const nlohmann::json& j) {
  CaseRecord r;
  r.property = j.at("property").get<std::string>();
  r.c = case_from_json(j.at("case"));
  // The registry's order, then any other implementation's in name order; the equivalence property lists each
  // implementation's unfused twin right after it.
  const nlohmann::json& outcomes = j.at("outcomes");
  std::vector<std::string> names;
  for (const Implementation& i : implementations()) names.push_back(i.name);
  for (auto it = outcomes.begin(); it != outcomes.end(); ++it)
    if (!find_implementation(it.key()) && it.key().find(" unfused") == std::string::npos) names.push_back(it.key());
  for (const std::string& name : names)
    for (const std::string& key : {name, name + " unfused"})
      if (outcomes.contains(key)) r.outcomes.emplace_back(key, outcome_from_json(outcomes[key]));
  const std::string v = j.at("verdict").get<std::string>();
  for (Verdict x : {Verdict::agree, Verdict::discrepancy, Verdict::known, Verdict::expect_failed})
    if (v == to_string(x)) r.judgement.verdict = x;
  r.judgement.difference = j.value("difference", "");
  r.judgement.odd_ones = j.value("odd_ones", std::vector<std::string>{});
  r.judgement.attribution = j.value("attribution", "");
  r.judgement.known_id = j.value("known", "");
  r.judgement.signature = j.value("signature", "");
  if (j.contains("differences"))
    for (const nlohmann::json& d : j.at("differences")) r.judgement.differences.push_back(difference_from_json(d));
  r.seq = j.value("seq", -1L);
  r.stability = j.value("stability", "");
  return r;
}

nlohmann::json to_json(const Finding& f) {
  return {{"key", f.key},
          {"signature", f.signature},
          {"property", f.property},
          {"family", f.family},
          {"verdict", to_string(f.verdict)},
          {"known", f.known_id},
          {"minimal", to_json(f.minimal)},
          {"original", to_json(f.original)},
          {"hits", f.hits},
          {"shrink_steps", f.shrink_steps},
          {"shrunk", f.shrunk},
          {"first_seq", f.first_seq},
          {"reproduce", f.reproduce},
          {"reproduce_command", f.reproduce_command},
          {"replay_command", f.replay_command},
          {"adapter_commands", f.adapter_commands},
          {"regression_draft", f.regression_draft},
          {"reproduction", to_json(f.reproduction)}};
}

Finding finding_from_json(const nlohmann::json& j) {
  Finding f;
  f.signature = j.at("signature").get<std::string>();
  f.property = j.at("property").get<std::string>();
  f.family = j.at("family").get<std::string>();
  f.minimal = case_record_from_json(j.at("minimal"));
  f.verdict = f.minimal.judgement.verdict;
  f.known_id = j.value("known", "");
  f.original = case_from_json(j.at("original"));
  f.hits = j.at("hits").get<long>();
  f.shrink_steps = j.at("shrink_steps").get<int>();
  f.shrunk = j.value("shrunk", f.property != "corpus");  // before the field, every generated finding was shrunk
  f.key = j.value("key", f.signature);
  f.first_seq = j.value("first_seq", -1L);
  f.reproduce = j.value("reproduce", "");
  f.reproduce_command = j.value("reproduce_command", "");
  f.replay_command = j.value("replay_command", "");
  f.adapter_commands = j.value("adapter_commands", std::map<std::string, std::string>{});
  f.regression_draft = j.value("regression_draft", "");
  if (j.contains("reproduction")) f.reproduction = reproduction_from_json(j["reproduction"]);
  return f;
}

long stale_declarations(const RunSummary& s) {
  long n = 0;
  for (const DeclarationUse& u : s.declarations) n += u.stale();
  return n;
}

void count_difference_classes(const Judgement& j, std::map<std::string, long>& counts) {
  std::set<std::string> classes;
  const Difference* lead = lead_difference(j);
  for (const Difference& d : j.differences)
    if (!lead || d.component != lead->component || d.odd_ones != lead->odd_ones) classes.insert(to_string(d.finding_class));
  for (const std::string& k : classes) ++counts[k];
}

nlohmann::json to_json(const RunSummary& s) {
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : s.findings) findings.push_back(to_json(f));
  nlohmann::json decls = nlohmann::json::array();
  for (const DeclarationUse& d : s.declarations)
    decls.push_back({{"declaration", to_json(d.declaration)}, {"covered", d.covered}, {"matched", d.matched},
                     {"stale", d.stale()}});
  nlohmann::json j = {{"command", s.command},
          {"arguments", s.arguments},
          {"seed", s.seed},
          {"cases_requested", s.cases_requested},
          {"started_at", s.started_at},
          {"seconds", s.seconds},
          {"versions", s.versions},
          {"verdicts", s.verdicts},
          {"cases", s.cases_per_property},
          {"cases_per_op", s.cases_per_op},
          {"statuses", s.statuses},
          {"scoreboard", to_json(s.scoreboard)},
          {"coverage", to_json(s.coverage)},
          {"findings", findings},
          {"declarations", decls},
          {"input_errors", s.input_errors},
          {"shard", s.shard},
          {"fingerprint", s.fingerprint},
          {"results", s.results},
          {"difference_classes", s.difference_classes},
          {"messages", s.messages.to_json()},
          {"fail_on_stale", s.fail_on_stale},
          {"fail_on_missing_coverage", s.fail_on_missing_coverage},
          {"interrupted", s.interrupted},
          {"signal", s.signal},
          {"exit_code", s.exit_code}};
  if (!s.internal_error.empty()) j["internal_error"] = s.internal_error;  // only when broadcheck itself failed
  if (!s.job_deaths.empty()) j["job_deaths"] = s.job_deaths;              // only when a job died
  return j;
}

RunSummary run_summary_from_json(const nlohmann::json& j) {
  RunSummary s;
  s.command = j.at("command").get<std::string>();
  s.arguments = j.at("arguments").get<std::vector<std::string>>();
  s.seed = j.at("seed").get<uint64_t>();
  s.cases_requested = j.at("cases_requested").get<long>();
  s.started_at = j.at("started_at").get<std::string>();
  s.seconds = j.at("seconds").get<double>();
  s.versions = j.at("versions").get<std::map<std::string, std::string>>();
  s.verdicts = j.at("verdicts").get<std::map<std::string, long>>();
  s.cases_per_property = j.at("cases").get<std::map<std::string, long>>();
  // Absent from summaries written before it existed.
  s.cases_per_op = j.value("cases_per_op", std::map<std::string, std::map<std::string, long>>{});
  s.statuses = j.at("statuses").get<std::map<std::string, long>>();
  s.scoreboard = scoreboard_from_json(j.value("scoreboard", nlohmann::json::object()));  // absent before it existed
  s.coverage = coverage_from_json(j.at("coverage"));
  for (const auto& f : j.at("findings")) s.findings.push_back(finding_from_json(f));
  for (const auto& d : j.at("declarations")) {
    DeclarationUse u{declaration_from_json(d.at("declaration")), d.at("covered").get<long>(),
                     d.at("matched").get<long>()};
    s.declarations.push_back(u);
  }
  s.input_errors = j.at("input_errors").get<std::vector<std::string>>();
  s.shard = j.value("shard", "");
  s.fingerprint = j.value("fingerprint", std::map<std::string, std::string>{});  // absent before it existed
  s.results = j.value("results", "all");  // before --results existed, every case had a line
  s.interrupted = j.value("interrupted", false);
  s.difference_classes = j.value("difference_classes", std::map<std::string, long>{});
  if (j.contains("messages")) s.messages = MessageCatalog::from_json(j.at("messages"));
  s.fail_on_stale = j.value("fail_on_stale", false);
  s.fail_on_missing_coverage = j.value("fail_on_missing_coverage", false);
  s.signal = j.value("signal", 0);
  s.exit_code = j.at("exit_code").get<int>();
  s.internal_error = j.value("internal_error", "");
  s.job_deaths = j.value("job_deaths", std::vector<std::string>{});
  return s;
}

}  // namespace bc
