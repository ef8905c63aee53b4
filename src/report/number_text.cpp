#include "report/number_text.h"

#include <cmath>
#include <cstdio>

namespace bhpm::report {

std::string format_number(double value) {
  if (!std::isfinite(value)) return "n/a";
  char text[32];
  const bool whole = value == std::round(value) && std::abs(value) < 1e15;
  std::snprintf(text, sizeof text, whole ? "%.0f" : "%.4g", value);
  return text;
}

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", 100 * fraction);
  return text;
}

}  // namespace bhpm::report
