#include "util/option_check.h"

#include <cmath>

#include "util/number_format.h"

namespace bhpm::util {

OptionError::OptionError(const std::string& owner, const std::string& key, const std::string& rule,
                         const std::string& value)
    : std::invalid_argument(owner + ": " + key + " " + rule + " (got " + value + ")"),
      owner_(owner),
      key_(key),
      rule_(rule),
      value_(value) {}

FieldNames section_fields(const std::string& section) {
  return [section](const std::string& key) { return section + "." + key; };
}

std::string option_value(double value) { return format_significant(value, 10); }

std::string option_value(std::int64_t value) { return std::to_string(value); }

void require_option(bool ok, const std::string& owner, const std::string& key,
                    const std::string& rule, const std::string& value) {
  if (!ok) throw OptionError(owner, key, rule, value);
}

void require_at_least(std::int64_t value, std::int64_t minimum, const std::string& owner,
                      const std::string& key) {
  require_option(value >= minimum, owner, key, "must be >= " + option_value(minimum),
                 option_value(value));
}

void require_positive(double value, const std::string& owner, const std::string& key) {
  require_option(std::isfinite(value) && value > 0.0, owner, key, "must be > 0",
                 option_value(value));
}

namespace {

std::string with_note(const std::string& rule, const std::string& note) {
  return note.empty() ? rule : rule + " " + note;
}

}  // namespace

void require_non_negative(double value, const std::string& owner, const std::string& key,
                          const std::string& meaning_of_zero) {
  require_option(std::isfinite(value) && value >= 0.0, owner, key,
                 with_note("must be >= 0", meaning_of_zero), option_value(value));
}

void require_finite_number(double value, const std::string& field) {
  if (!std::isfinite(value))
    throw std::invalid_argument(field + ": must be a finite number (got " +
                                format_significant(value, 6) + ")");
}

void require_above(double value, double bound, const std::string& owner, const std::string& key) {
  require_option(std::isfinite(value) && value > bound, owner, key,
                 "must be > " + option_value(bound), option_value(value));
}

void require_unit_interval(double value, const std::string& owner, const std::string& key,
                           const std::string& meaning_of_zero) {
  require_option(value >= 0.0 && value < 1.0, owner, key,
                 with_note("must be in [0, 1)", meaning_of_zero), option_value(value));
}

}  // namespace bhpm::util
