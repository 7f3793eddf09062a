// The style sheet and the script that report.html carries inline (it loads nothing from the network).
//
// Contract: both are constant text and hold no data, so nothing from a run can reach them; the page works
// without the script (everything is shown, nothing is filtered, copy buttons stay hidden).
//  - The style never relies on colour alone (flags are words or signs) and, for print, hides the filter bar and
//    the copy buttons. A finding is laid out only when it comes into view (content-visibility), so that opening
//    hundreds at once stays quick; an error message in a table cell wraps between words.
//  - The script: (1) filters the blocks details.finding by the selects in #filters (each select's data-key names
//    the block attribute data-KEY, a space-separated list of tokens, that must hold the chosen value; "" is
//    any) and by the text in #filter-text (a case-insensitive substring of the block's text), and writes
//    "N of M findings shown" into #filter-count; (2) opens or closes every finding with #open-all / #close-all;
//    (3) copies the text of the element named by a button.copy's data-copy, with navigator.clipboard where the
//    page may use it and otherwise by selecting the text and calling document.execCommand('copy'), and writes
//    "copied" (or what to do instead) into the .copy-status beside the button; (4) opens every folded block before
//    printing.
#pragma once

namespace bc {

const char* report_style();
const char* report_script();

}  // namespace bc
