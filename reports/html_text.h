// Escaping, and the small pieces of markup that the parts of report.html share.
//
// Contract: every text that comes from data (messages, notes, reasons, names, commands) reaches the page through
// html_escape(), in element content and in attribute values alike (it escapes both quote characters), so a
// `<script>` in a message shows as text and runs nowhere.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bc {

// & < > " ' escaped; NUL (which HTML has no room for) becomes U+FFFD, a byte that is not UTF-8 the text \xNN.
std::string html_escape(const std::string& text);

// A block of text to paste elsewhere (a command, a test draft): a <pre id="ID"> holding the escaped text and a
// button.copy whose data-copy names that id. The page's script copies the <pre>'s text on a click and says
// whether it worked in the span.copy-status beside the button; without the script the button stays hidden and
// the text can be selected by hand. `id` must be unique in the page and made of [A-Za-z0-9-].
std::string copyable_html(const std::string& id, const std::string& label, const std::string& text);

// A declaration's reference: a link when it is an http(s) address, else the escaped text.
std::string reference_html(const std::string& reference);

// JSON as one line; invalid UTF-8 is replaced rather than thrown on.
std::string json_text(const nlohmann::json& j, int indent = -1);

// "a, b, c", or `empty` when there are no parts.
std::string join_or(const std::vector<std::string>& parts, const std::string& empty);

}  // namespace bc
