#pragma once
/// Running gnuplot as a child process on a script file.
///
/// Figures are drawn by writing a gnuplot script and its data files, then running
/// `gnuplot SCRIPT` (no shell involved) with the figure folder as its working folder, so
/// that the scripts use relative paths and can be re-run by hand from that folder.

#include <cstddef>
#include <string>

namespace bhpm::report {

/// Runs `program script` in `working_folder` (stdin from /dev/null, stdout and stderr to a
/// log file next to the script, removed afterwards). A `program` holding a '/' is taken
/// relative to the current folder, a bare name is searched in PATH.
/// Throws std::runtime_error:
///   "gnuplot not found ('PROGRAM'): install gnuplot-nox (scripts/install-deps.sh)" when the
///   program cannot be started, and "gnuplot failed on SCRIPT (exit N): <its output>" when it
///   exits non-zero or is killed.
void run_gnuplot(const std::string& program, const std::string& script,
                 const std::string& working_folder);

/// `text` as a gnuplot single-quoted string literal (quotes included; a ' is doubled,
/// backslashes stay literal).
std::string gnuplot_string(const std::string& text);

/// `text` broken at spaces into lines of at most `width` characters (a longer word keeps
/// its own line), as a gnuplot double-quoted string literal with "\n" between the lines
/// (a " or a backslash escaped), for titles that would run off the figure.
std::string gnuplot_wrapped_string(const std::string& text, std::size_t width);

}  // namespace bhpm::report
