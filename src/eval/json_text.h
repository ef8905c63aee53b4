#pragma once
/// JSON text of single values (RFC 8259), for the small hand-written JSON files of results.

#include <string>

namespace bhpm::eval {

/// A JSON string literal, quotes included: '"' and '\' escaped, control characters as
/// \n, \t, \r, \b, \f or \u00XX; other bytes (UTF-8 included) unchanged.
std::string json_string(const std::string& text);

/// A JSON number that reads back to exactly `value`: the shorter of %.15g and %.17g that
/// round-trips (0.95, not 0.94999999999999996). NaN and infinities, which JSON cannot
/// represent, are written as null.
std::string json_number(double value);

}  // namespace bhpm::eval
