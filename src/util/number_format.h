#pragma once
/// The one number formatter: every message, table, report and progress line of BHPM
/// formats its numbers through these, so a number reads the same wherever it appears.

#include <string>

namespace bhpm::util {

/// printf's "%.<digits>g": `digits` significant digits (10 in error messages, enough to
/// be unambiguous for a configuration value; 4 in tables and progress lines).
std::string format_significant(double value, int digits);

/// "%+.4g": a signed coefficient, as in a printed formula (" +0.1 u_xx").
std::string format_signed(double value);

/// printf's "%.<decimals>f" ("48.7" for 48.66 and one decimal).
std::string format_fixed(double value, int decimals);

/// printf's "%.<digits>e" ("1.250e-03"): tolerances and losses that span decades.
std::string format_scientific(double value, int digits);

/// For reports: "%.4g" of a number, every digit of a whole number (counts: "20100", not
/// "2.01e+04"); "n/a" when it is NaN or infinite.
std::string format_number(double value);

/// A fraction as a percentage with one decimal ("48.7 %"); "n/a" when not finite.
std::string format_percent(double fraction);

}  // namespace bhpm::util
