#pragma once
/// The one vocabulary of option rules. Each rule lives once, in the validate() of the
/// options it constrains (`solve::validate(PredictorOptions)`, `model::validate(RootOptions)`,
/// ...), written with the checks below. They throw OptionError, which names the option by the
/// key its owner gives it; a configuration reader only reads values, calls the owner's
/// validate and turns an OptionError into a message naming the file (or `--set`) and
/// section.key (`config::ConfigSection::validate`).

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace bhpm::util {

/// An option's value breaks its rule. what(): "<owner>: <key> <rule> (got <value>)", e.g.
/// "predict: samples must be >= 1 (got 0)".
class OptionError : public std::invalid_argument {
 public:
  OptionError(const std::string& owner, const std::string& key, const std::string& rule,
              const std::string& value);

  const std::string& owner() const { return owner_; }  ///< "predict"
  const std::string& key() const { return key_; }    ///< as the options name it: "pinn.iterations"
  const std::string& rule() const { return rule_; }  ///< "must be >= 1"
  const std::string& value() const { return value_; }  ///< "0"

 private:
  std::string owner_, key_, rule_, value_;
};

/// How messages name an option, given its key: "equation.nu" by default (section_fields); a
/// configuration reader's names say where the value came from, "run.toml: equation.nu" or
/// "--set equation.nu" (config::ConfigSection::field_names).
using FieldNames = std::function<std::string(const std::string& key)>;

/// key -> "<section>.<key>".
FieldNames section_fields(const std::string& section);

/// A value as messages show it: integers exactly, reals to 10 significant digits.
std::string option_value(double value);
std::string option_value(std::int64_t value);

/// Throws OptionError(owner, key, rule, value) unless `ok`.
void require_option(bool ok, const std::string& owner, const std::string& key,
                    const std::string& rule, const std::string& value);

/// value >= minimum: "must be >= minimum".
void require_at_least(std::int64_t value, std::int64_t minimum, const std::string& owner,
                      const std::string& key);

/// value finite and > 0: "must be > 0".
void require_positive(double value, const std::string& owner, const std::string& key);

/// value finite and >= 0: "must be >= 0" followed by `meaning_of_zero` ("(0: no limit)").
void require_non_negative(double value, const std::string& owner, const std::string& key,
                          const std::string& meaning_of_zero = "");

/// value finite and > bound: "must be > bound".
void require_above(double value, double bound, const std::string& owner, const std::string& key);

/// Throws std::invalid_argument "<field>: must be a finite number (got value)" unless value is
/// finite: for values that come with a field's full name rather than an owner and key.
void require_finite_number(double value, const std::string& field);

/// value in [0, 1): "must be in [0, 1)" followed by `meaning_of_zero`.
void require_unit_interval(double value, const std::string& owner, const std::string& key,
                           const std::string& meaning_of_zero = "");

/// Runs `check` (the validate of options nested in others) and rethrows its OptionError as
/// the outer options': owner `owner`, key `prefix + key`. validate(PredictorOptions) names
/// its PINN's iterations "pinn.iterations".
template <class Check>
void validate_nested(const std::string& owner, const std::string& prefix, Check&& check) {
  try {
    check();
  } catch (const OptionError& error) {
    throw OptionError(owner, prefix + error.key(), error.rule(), error.value());
  }
}

}  // namespace bhpm::util
