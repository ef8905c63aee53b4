#pragma once
/// Sign checks for numeric command-line options whose messages quote the value given and
/// the rule, not CLI11's range to the largest double (300 digits).

#include <CLI/CLI.hpp>

#include <string>

namespace bhpm::cli {

/// A CLI::Validator that refuses a value that is not a number, is negative, or is 0 when
/// `strict`: "must be > 0 (got TEXT)" or "must be >= 0 (got TEXT)".
inline CLI::Validator sign_check(bool strict) {
  const std::string rule = strict ? "> 0" : ">= 0";
  return CLI::Validator(
      [strict, rule](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value)) return "must be a number (got " + text + ")";
        if (strict ? value > 0 : value >= 0) return "";
        return "must be " + rule + " (got " + text + ")";
      },
      strict ? "POSITIVE" : "NONNEGATIVE");
}

inline CLI::Validator positive() { return sign_check(true); }
inline CLI::Validator non_negative() { return sign_check(false); }

}  // namespace bhpm::cli
