#pragma once
/// Numbers as the report shows them in titles and tables.

#include <string>

namespace bhpm::report {

/// "%.4g" of a number, every digit of a whole number (counts: "20100", not "2.01e+04");
/// "n/a" when it is NaN or infinite.
std::string format_number(double value);

/// A fraction as a percentage with one decimal ("48.7 %"); "n/a" when not finite.
std::string format_percent(double fraction);

}  // namespace bhpm::report
