// The run's console (stderr): its messages and one progress line. Contract: on a terminal the progress line is
// redrawn in place, cut to the terminal's width (COLUMNS, else the TIOCGWINSZ of stderr, else 80) so that it never
// wraps; every message written through console_message ends a drawn progress line first, so that no message
// starts on its row. Elsewhere each progress line is a line of its own.
#pragma once

#include <string>

namespace bc {

// The width of the terminal on stderr: COLUMNS when it is a positive number, else TIOCGWINSZ, else 80.
int console_columns();

// `line` cut to fewer than `columns` characters (a UTF-8 sequence is never split), so that it fits one row without
// the terminal moving the cursor to the next; "" when columns < 2.
std::string fit_to_columns(const std::string& line, int columns);

// Draws `line` as the progress line: in place (fitted) when stderr is a terminal, else as a line of its own.
void console_progress(const std::string& line);

// Clears a drawn progress line (nothing when none is drawn).
void console_end_progress();

// Ends the progress line, then writes `text` to stderr as it is (it ends with its own newline).
void console_message(const std::string& text);

}  // namespace bc
