#include "harness/outcome.h"

#include <stdexcept>

namespace bc {

const char* to_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::error: return "error";
    case Status::crash: return "crash";
    case Status::timeout: return "timeout";
    case Status::unsupported: return "unsupported";
  }
  return "unsupported";
}

std::optional<Status> status_from_string(const std::string& s) {
  for (Status st : {Status::ok, Status::error, Status::crash, Status::timeout, Status::unsupported})
    if (s == to_string(st)) return st;
  return std::nullopt;
}

Outcome Outcome::success(Shape shape, std::string dtype) {
  Outcome o;
  o.status = Status::ok;
  o.shape = std::move(shape);
  o.dtype = std::move(dtype);
  return o;
}

Outcome Outcome::failure(ErrorKind kind, std::string message) {
  Outcome o;
  o.status = Status::error;
  o.error = Error{kind, std::move(message)};
  return o;
}

Outcome Outcome::unsupported_because(std::string why) {
  Outcome o;
  o.status = Status::unsupported;
  o.detail = std::move(why);
  return o;
}

std::string first_difference(const Outcome& a, const Outcome& b) {
  if (a.status != b.status) return "status";
  if (a.status == Status::ok) {
    if (a.shape != b.shape) return "shape";
    if (a.dtype != b.dtype) return "dtype";
  }
  if (a.status == Status::error && a.error && b.error && a.error->kind != b.error->kind) return "error kind";
  if (a.status == Status::crash && a.detail != b.detail) return "signal";
  return "";
}

std::string summarize(const Outcome& o) {
  switch (o.status) {
    case Status::ok: return "ok " + format_shape(o.shape) + " " + o.dtype;
    case Status::error: return std::string("error ") + (o.error ? to_string(o.error->kind) : "other");
    case Status::crash: return "crash " + o.detail;
    default: return to_string(o.status);
  }
}

bool operator==(const Grad& a, const Grad& b) {
  return a.shape == b.shape && a.dtype == b.dtype && Outcome::same_values(a.values, b.values);
}

std::string summarize_grads(const Outcome& o) {
  std::string out;
  for (size_t k = 0; k < o.grads.size(); ++k) {
    out += k ? ", " : "";
    out += o.grads[k] ? format_shape(o.grads[k]->shape) + " " + o.grads[k]->dtype : "none";
  }
  return out;
}

nlohmann::json to_json(const Outcome& o) {
  nlohmann::json j = {{"status", to_string(o.status)}};
  if (o.status == Status::ok) {
    j["shape"] = o.shape;
    j["dtype"] = o.dtype;
  }
  const nlohmann::json withheld = "nondeterministic";
  if (o.withheld && o.status == Status::ok) j["values"] = withheld;
  else if (!o.values.empty()) j["values"] = to_json(o.values);
  if (!o.grads.empty()) {
    j["grads"] = nlohmann::json::array();
    for (const auto& g : o.grads) {
      if (!g) {
        j["grads"].push_back(nullptr);
        continue;
      }
      j["grads"].push_back({{"shape", g->shape}, {"dtype", g->dtype}, {"values", o.withheld ? withheld : to_json(g->values)}});
    }
  }
  if (o.error) j["error"] = {{"kind", to_string(o.error->kind)}, {"message", o.error->message}};
  if (!o.detail.empty()) j["detail"] = o.detail;
  if (!o.warnings.empty()) j["warnings"] = o.warnings;
  return j;
}

Outcome outcome_from_json(const nlohmann::json& j) {
  Outcome o;
  auto st = status_from_string(j.at("status").get<std::string>());
  if (!st) throw std::runtime_error("unknown outcome status " + j.at("status").dump());
  o.status = *st;
  if (j.contains("shape")) o.shape = j["shape"].get<Shape>();
  if (j.contains("dtype")) o.dtype = j["dtype"].get<std::string>();
  if (j.contains("error")) {
    auto kind = error_kind_from_string(j["error"].at("kind").get<std::string>());
    o.error = Error{kind.value_or(ErrorKind::other), j["error"].value("message", "")};
  }
  if (j.contains("detail")) o.detail = j["detail"].get<std::string>();
  if (j.contains("warnings")) o.warnings = j["warnings"].get<std::vector<std::string>>();
  const auto is_withheld = [](const nlohmann::json& v) { return v.is_string() && v == "nondeterministic"; };
  if (j.contains("values") && is_withheld(j["values"])) o.withheld = true;
  else if (j.contains("values")) o.values = values_from_json(j["values"], holds_integers(o.dtype));
  if (j.contains("grads"))
    for (const auto& g : j["grads"]) {
      if (g.is_null()) {
        o.grads.push_back(std::nullopt);
        continue;
      }
      const std::string dtype = g.at("dtype").get<std::string>();
      o.withheld = o.withheld || is_withheld(g.at("values"));
      o.grads.push_back(Grad{g.at("shape").get<Shape>(), dtype,
                             is_withheld(g.at("values")) ? Values{} : values_from_json(g.at("values"), holds_integers(dtype))});
    }
  return o;
}

}  // namespace bc
