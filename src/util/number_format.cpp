#include "util/number_format.h"

#include <cmath>
#include <cstdio>

namespace bhpm::util {

namespace {

/// snprintf of one double into a string.
std::string printed(const char* format, int digits, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, digits, value);
  return text;
}

}  // namespace

std::string format_significant(double value, int digits) { return printed("%.*g", digits, value); }

std::string format_signed(double value) { return printed("%+.*g", 4, value); }

std::string format_fixed(double value, int decimals) { return printed("%.*f", decimals, value); }

std::string format_scientific(double value, int digits) { return printed("%.*e", digits, value); }

std::string format_number(double value) {
  if (!std::isfinite(value)) return "n/a";
  const bool whole = value == std::round(value) && std::abs(value) < 1e15;
  return whole ? format_fixed(value, 0) : format_significant(value, 4);
}

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  return format_fixed(100 * fraction, 1) + " %";
}

}  // namespace bhpm::util
