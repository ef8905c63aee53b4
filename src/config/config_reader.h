#pragma once
/// Strict TOML configuration reading.
///
/// Every value has a default; a key the program does not read is an error, as is a value
/// of the wrong type. Reads are recorded, so the fully resolved configuration (defaults
/// included) can be written next to every result it produced.

#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "util/option_check.h"

namespace bhpm::config {

/// A configuration error; the message names the source, the field and the rule.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ConfigSection;

/// A parsed configuration plus command-line overrides, read section by section.
class ConfigReader {
 public:
  /// Parses `path`; throws ConfigError with the file's line and column on a syntax error.
  static ConfigReader from_file(const std::string& path);
  /// Parses TOML text; `source` names it in error messages.
  static ConfigReader from_string(const std::string& text, const std::string& source);

  /// Applies "section.key=value"; the value is read as TOML (`3`, `1e-2`, `[1, 2]`,
  /// `"text"`, `true`) and as a plain string if it is not valid TOML. A key read as a
  /// string gets the text as written, so `--set initial_condition.expression=1` works.
  void apply_override(const std::string& assignment);

  /// "" when `assignment` has the form section.key=value (or key=value for a top-level
  /// key), else the message apply_override throws: the command line checks the form with
  /// it before any file is read.
  static std::string override_form_error(const std::string& assignment);

  /// The section `name` ("" for top-level keys); reading it marks its keys as known.
  ConfigSection section(const std::string& name);

  /// The sections [name] the input (file plus overrides) has, before defaults.
  std::set<std::string> given_sections() const;

  /// Throws ConfigError naming the first key or section that nothing read.
  void reject_unknown_keys() const;

  /// How messages name section.key: "--set section.key" when the command line set it, else
  /// "<source>: section.key" (ConfigSection::field).
  util::FieldNames field_names(const std::string& section) const;
  /// The same for dotted names: "run.data" -> "--set run.data" or "<source>: run.data".
  util::FieldNames field_names() const;

  /// Runs `check` (an options' validate()) and turns its util::OptionError into ConfigError
  /// "<field>: <rule> (got <value>)", the owner's key renamed to "section.key" by the first
  /// entry of `key_names` (owner's prefix, dotted prefix) whose prefix it starts with:
  /// {"t_end", "domain.t_end"}, {"", "solver."}.
  void validate(const std::function<void()>& check,
                const std::vector<std::pair<std::string, std::string>>& key_names) const;

  /// The resolved configuration (every value read, defaults included) as TOML text.
  std::string resolved_toml() const;

  const std::string& source() const { return source_; }

 private:
  friend class ConfigSection;
  ConfigReader(toml::table table, std::string source);
  const toml::node* find(const std::string& section, const std::string& key) const;
  void record(const std::string& section, const std::string& key, toml::node&& value);
  std::set<std::string> overridden_keys() const;  ///< "section.key" of every override

  toml::table input_;
  toml::table resolved_;
  std::string source_;
  std::map<std::string, std::set<std::string>> read_keys_;
  std::map<std::string, std::string> override_text_;  ///< "section.key" -> value as typed
};

/// Typed access to one section; every getter takes the default used when the key is absent.
class ConfigSection {
 public:
  double number(const std::string& key, double fallback);
  std::int64_t integer(const std::string& key, std::int64_t fallback);
  bool boolean(const std::string& key, bool fallback);
  std::string string(const std::string& key, const std::string& fallback);
  std::vector<double> numbers(const std::string& key, const std::vector<double>& fallback);
  /// An array of integers.
  std::vector<std::int64_t> integers(const std::string& key,
                                     const std::vector<std::int64_t>& fallback);
  /// An array of strings; a plain string is split at commas, so that
  /// `--set run.stages=simulate,train` works.
  std::vector<std::string> strings(const std::string& key,
                                   const std::vector<std::string>& fallback);

  /// string() that must be one of `names` (the table of the code that implements the
  /// choice, util/name_list.h): the error lists every name.
  std::string one_of(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& names);

  /// one_of() for a key that was once true/false: a boolean reads as `if_true` or
  /// `if_false` (configurations and run folders written before the key took names).
  std::string one_of_or_boolean(const std::string& key, const std::string& fallback,
                                const std::vector<std::string>& names, const std::string& if_true,
                                const std::string& if_false);

  /// number() that must be positive and finite; integer() that must be >= minimum. For a key
  /// whose options have a validate(), read the plain value and call validate() instead:
  /// each rule is stated once, by its owner.
  double positive_number(const std::string& key, double fallback);
  std::int64_t integer_at_least(const std::string& key, std::int64_t fallback,
                                std::int64_t minimum);

  /// True when the key is present in the input (before defaults).
  bool has(const std::string& key) const;

  /// "source: section.key" for error messages; "--set section.key" when the command line
  /// set the key (`bhpm predict --samples 0` is `--set predict.samples=0`).
  std::string field(const std::string& key) const;
  /// field() as a function, for options that name their own fields in messages
  /// (pde::EquationOptions::field_names): it outlives the reader.
  util::FieldNames field_names() const;

  /// Runs `check` (the validate() of the options this section's keys fill) and turns its
  /// util::OptionError into ConfigError "<field(key)>: <rule> (got <value>)". `key_names`
  /// maps the owner's names to this section's keys by prefix: {"pinn.", "pinn_"} names
  /// PinnOptions' "pinn.iterations" "predict.pinn_iterations"; the first match applies.
  void validate(const std::function<void()>& check,
                const std::vector<std::pair<std::string, std::string>>& key_names = {}) const;

  /// Throws ConfigError "<field>: <rule> (got <value>)" unless `ok`: a rule of the
  /// configuration itself (one that no options' validate() owns).
  void require(bool ok, const std::string& key, const std::string& rule,
               const std::string& value) const;

 private:
  friend class ConfigReader;
  ConfigSection(ConfigReader& reader, std::string name) : reader_(reader), name_(std::move(name)) {}
  const toml::node* lookup(const std::string& key);
  [[noreturn]] void type_error(const std::string& key, const char* expected,
                               const toml::node& got) const;

  ConfigReader& reader_;
  std::string name_;
};

}  // namespace bhpm::config
