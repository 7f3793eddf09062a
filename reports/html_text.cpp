#include "reports/html_text.h"

#include "harness/join.h"
#include "harness/utf8.h"

namespace bc {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char ch : visible_utf8(text)) {  // bytes that are not UTF-8 show as \xNN
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\0': out += "\xEF\xBF\xBD"; break;  // U+FFFD: HTML has no NUL character
      default: out += ch;
    }
  }
  return out;
}

std::string copyable_html(const std::string& id, const std::string& label, const std::string& text) {
  return "<div class=\"copyable\"><div class=\"copy-bar\">" + html_escape(label) +
         " <button type=\"button\" class=\"copy\" data-copy=\"" + html_escape(id) + "\" hidden>Copy</button>"
         " <span class=\"copy-status\" role=\"status\"></span></div>\n<pre id=\"" + html_escape(id) + "\">" +
         html_escape(text) + "</pre></div>\n";
}

std::string reference_html(const std::string& reference) {
  const bool link = reference.rfind("https://", 0) == 0 || reference.rfind("http://", 0) == 0;
  const std::string text = html_escape(reference);
  return link ? "<a href=\"" + text + "\">" + text + "</a>" : text;
}

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string join_or(const std::vector<std::string>& parts, const std::string& empty) {
  return parts.empty() ? empty : join(parts, ", ");
}

}  // namespace bc
