#include "config/config_reader.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "util/comma_list.h"
#include "util/name_list.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::config {

namespace {

std::string describe(const toml::node& node) {
  std::ostringstream out;
  if (node.is_string())
    out << "string \"" << node.value<std::string>().value() << "\"";
  else if (node.is_table())
    out << "table";
  else
    node.visit([&out](auto&& value) { out << value.type() << " " << value; });
  return out.str();
}

std::string join(const std::set<std::string>& names) {
  std::string joined;
  for (const auto& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined;
}

toml::table parse_or_throw(const std::string& text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& error) {
    const auto& begin = error.source().begin;
    throw ConfigError(source + ":" + std::to_string(begin.line) + ":" +
                      std::to_string(begin.column) +
                      ": invalid TOML: " + std::string(error.description()));
  }
}

}  // namespace

ConfigReader::ConfigReader(toml::table table, std::string source)
    : input_(std::move(table)), source_(std::move(source)) {}

ConfigReader ConfigReader::from_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw ConfigError(path + ": cannot open configuration file");
  std::ostringstream text;
  text << file.rdbuf();
  return from_string(text.str(), path);
}

ConfigReader ConfigReader::from_string(const std::string& text, const std::string& source) {
  return ConfigReader(parse_or_throw(text, source), source);
}

std::string ConfigReader::override_form_error(const std::string& assignment) {
  const auto equals = assignment.find('=');
  const std::string path = assignment.substr(0, std::min(equals, assignment.size()));
  const auto dot = path.rfind('.');
  const std::string section = dot == std::string::npos ? "" : path.substr(0, dot);
  const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
  if (equals == std::string::npos || key.empty() || section.find('.') != std::string::npos)
    return "--set '" + assignment + "': expected section.key=value";
  return "";
}

void ConfigReader::apply_override(const std::string& assignment) {
  if (const std::string error = override_form_error(assignment); !error.empty())
    throw ConfigError(error);
  const std::string path = assignment.substr(0, assignment.find('='));
  const auto dot = path.rfind('.');
  const std::string section = dot == std::string::npos ? "" : path.substr(0, dot);
  const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
  const std::string text = assignment.substr(path.size() + 1);

  toml::table* target = &input_;
  if (!section.empty()) {
    if (!input_.contains(section)) input_.insert(section, toml::table{});
    target = input_.get_as<toml::table>(section);
    if (!target)
      throw ConfigError("--set '" + assignment + "': '" + section + "' is not a section");
  }
  override_text_[section + "." + key] = text;
  toml::table parsed;
  try {
    parsed = toml::parse("value = " + text);
  } catch (const toml::parse_error&) {
    target->insert_or_assign(key, text);
    return;
  }
  target->insert_or_assign(key, *parsed.get("value"));
}

ConfigSection ConfigReader::section(const std::string& name) {
  read_keys_[name];
  if (!name.empty()) {
    const toml::node* node = input_.get(name);
    if (node && !node->is_table())
      throw ConfigError(source_ + ": '" + name + "' must be a section [" + name + "], got " +
                        describe(*node));
  }
  return ConfigSection(*this, name);
}

const toml::node* ConfigReader::find(const std::string& section, const std::string& key) const {
  if (section.empty()) return input_.get(key);
  const toml::table* table = input_.get_as<toml::table>(section);
  return table ? table->get(key) : nullptr;
}

void ConfigReader::record(const std::string& section, const std::string& key, toml::node&& value) {
  read_keys_[section].insert(key);
  toml::table* target = &resolved_;
  if (!section.empty()) {
    if (!resolved_.contains(section)) resolved_.insert(section, toml::table{});
    target = resolved_.get_as<toml::table>(section);
  }
  target->insert_or_assign(key, std::move(value));
}

std::set<std::string> ConfigReader::given_sections() const {
  std::set<std::string> names;
  for (const auto& [key, node] : input_)
    if (node.is_table()) names.insert(std::string(key.str()));
  return names;
}

void ConfigReader::reject_unknown_keys() const {
  for (const auto& [key, node] : input_) {
    const std::string name(key.str());
    if (node.is_table()) {
      const auto known = read_keys_.find(name);
      if (known == read_keys_.end()) {
        std::set<std::string> sections;
        for (const auto& [section, keys] : read_keys_)
          if (!section.empty()) sections.insert(section);
        throw ConfigError(source_ + ": unknown section [" + name +
                          "] (known sections: " + join(sections) + ")");
      }
      for (const auto& [sub_key, sub_node] : *node.as_table()) {
        if (!known->second.count(std::string(sub_key.str())))
          throw ConfigError(source_ + ": " + name + "." + std::string(sub_key.str()) +
                            ": unknown key (known keys of [" + name + "]: " + join(known->second) +
                            ")");
      }
    } else {
      const auto known = read_keys_.find("");
      if (known == read_keys_.end() || !known->second.count(name))
        throw ConfigError(source_ + ": " + name + ": unknown top-level key (known: " +
                          (known == read_keys_.end() ? "" : join(known->second)) + ")");
    }
  }
}

namespace {

/// "--set section.key" when `overridden` holds "section.key", else "<source>: section.key".
std::string field_name(const std::string& source, const std::set<std::string>& overridden,
                       const std::string& section, const std::string& key) {
  const std::string name = section.empty() ? key : section + "." + key;
  if (overridden.count(section + "." + key)) return "--set " + name;
  return source + ": " + name;
}

}  // namespace

std::set<std::string> ConfigReader::overridden_keys() const {
  std::set<std::string> overridden;
  for (const auto& entry : override_text_) overridden.insert(entry.first);
  return overridden;
}

util::FieldNames ConfigReader::field_names(const std::string& section) const {
  return [source = source_, section, overridden = overridden_keys()](const std::string& key) {
    return field_name(source, overridden, section, key);
  };
}

util::FieldNames ConfigReader::field_names() const {
  return [source = source_, overridden = overridden_keys()](const std::string& dotted) {
    const std::size_t dot = dotted.find('.');
    if (dot == std::string::npos) return field_name(source, overridden, "", dotted);
    return field_name(source, overridden, dotted.substr(0, dot), dotted.substr(dot + 1));
  };
}

void ConfigReader::validate(
    const std::function<void()>& check,
    const std::vector<std::pair<std::string, std::string>>& key_names) const {
  try {
    check();
  } catch (const util::OptionError& error) {
    std::string name = error.key();
    for (const auto& [owner_prefix, dotted_prefix] : key_names)
      if (name.rfind(owner_prefix, 0) == 0) {
        name = dotted_prefix + name.substr(owner_prefix.size());
        break;
      }
    throw ConfigError(field_names()(name) + ": " + error.rule() + " (got " + error.value() + ")");
  }
}

std::string ConfigReader::resolved_toml() const {
  std::ostringstream out;
  out << toml::toml_formatter(resolved_);
  return out.str();
}

// ---------------------------------------------------------------------------------------

std::string ConfigSection::field(const std::string& key) const { return field_names()(key); }

util::FieldNames ConfigSection::field_names() const { return reader_.field_names(name_); }

void ConfigSection::validate(
    const std::function<void()>& check,
    const std::vector<std::pair<std::string, std::string>>& key_names) const {
  std::vector<std::pair<std::string, std::string>> dotted;
  const std::string section = name_.empty() ? "" : name_ + ".";
  for (const auto& [owner_prefix, key_prefix] : key_names)
    dotted.emplace_back(owner_prefix, section + key_prefix);
  dotted.emplace_back("", section);
  reader_.validate(check, dotted);
}

void ConfigSection::require(bool ok, const std::string& key, const std::string& rule,
                            const std::string& value) const {
  if (!ok) throw ConfigError(field(key) + ": " + rule + " (got " + value + ")");
}

bool ConfigSection::has(const std::string& key) const { return reader_.find(name_, key); }

const toml::node* ConfigSection::lookup(const std::string& key) { return reader_.find(name_, key); }

void ConfigSection::type_error(const std::string& key, const char* expected,
                               const toml::node& got) const {
  throw ConfigError(field(key) + ": expected " + expected + ", got " + describe(got));
}

double ConfigSection::number(const std::string& key, double fallback) {
  double value = fallback;
  if (const toml::node* node = lookup(key)) {
    if (!node->is_number()) type_error(key, "a number", *node);
    value = node->value<double>().value();
  }
  reader_.record(name_, key, toml::value<double>(value));
  return value;
}

std::int64_t ConfigSection::integer(const std::string& key, std::int64_t fallback) {
  std::int64_t value = fallback;
  if (const toml::node* node = lookup(key)) {
    if (!node->is_integer()) type_error(key, "an integer", *node);
    value = node->value<std::int64_t>().value();
  }
  reader_.record(name_, key, toml::value<std::int64_t>(value));
  return value;
}

bool ConfigSection::boolean(const std::string& key, bool fallback) {
  bool value = fallback;
  if (const toml::node* node = lookup(key)) {
    if (!node->is_boolean()) type_error(key, "true or false", *node);
    value = node->value<bool>().value();
  }
  reader_.record(name_, key, toml::value<bool>(value));
  return value;
}

std::string ConfigSection::string(const std::string& key, const std::string& fallback) {
  std::string value = fallback;
  const auto typed = reader_.override_text_.find(name_ + "." + key);
  if (const toml::node* node = lookup(key)) {
    if (node->is_string())
      value = node->value<std::string>().value();
    else if (typed != reader_.override_text_.end())
      value = typed->second;
    else
      type_error(key, "a string", *node);
  }
  reader_.record(name_, key, toml::value<std::string>(value));
  return value;
}

std::string ConfigSection::one_of(const std::string& key, const std::string& fallback,
                                  const std::vector<std::string>& names) {
  const std::string value = string(key, fallback);
  validate([&] { util::require_listed(value, names, name_, key); });
  return value;
}

std::string ConfigSection::one_of_or_boolean(const std::string& key, const std::string& fallback,
                                             const std::vector<std::string>& names,
                                             const std::string& if_true,
                                             const std::string& if_false) {
  const toml::node* node = lookup(key);
  if (node == nullptr || !node->is_boolean()) return one_of(key, fallback, names);
  const std::string value = node->value<bool>().value() ? if_true : if_false;
  reader_.record(name_, key, toml::value<std::string>(value));
  return value;
}

double ConfigSection::positive_number(const std::string& key, double fallback) {
  const double value = number(key, fallback);
  validate([&] { util::require_positive(value, name_, key); });
  return value;
}

std::int64_t ConfigSection::integer_at_least(const std::string& key, std::int64_t fallback,
                                             std::int64_t minimum) {
  const std::int64_t value = integer(key, fallback);
  validate([&] { util::require_at_least(value, minimum, name_, key); });
  return value;
}

std::vector<double> ConfigSection::numbers(const std::string& key,
                                           const std::vector<double>& fallback) {
  std::vector<double> values = fallback;
  if (const toml::node* node = lookup(key)) {
    const toml::array* array = node->as_array();
    if (!array) type_error(key, "an array of numbers", *node);
    values.clear();
    for (const toml::node& element : *array) {
      if (!element.is_number()) type_error(key, "an array of numbers", *node);
      values.push_back(element.value<double>().value());
    }
  }
  toml::array resolved;
  for (double v : values) resolved.push_back(v);
  reader_.record(name_, key, std::move(resolved));
  return values;
}

std::vector<std::int64_t> ConfigSection::integers(const std::string& key,
                                                  const std::vector<std::int64_t>& fallback) {
  std::vector<std::int64_t> values = fallback;
  if (const toml::node* node = lookup(key)) {
    const toml::array* array = node->as_array();
    if (!array) type_error(key, "an array of integers", *node);
    values.clear();
    for (const toml::node& element : *array) {
      if (!element.is_integer()) type_error(key, "an array of integers", *node);
      values.push_back(element.value<std::int64_t>().value());
    }
  }
  toml::array resolved;
  for (std::int64_t v : values) resolved.push_back(v);
  reader_.record(name_, key, std::move(resolved));
  return values;
}

std::vector<std::string> ConfigSection::strings(const std::string& key,
                                                const std::vector<std::string>& fallback) {
  std::vector<std::string> values = fallback;
  if (const toml::node* node = lookup(key)) {
    values.clear();
    if (const auto text = node->value<std::string>()) {
      values = util::split_at_commas(*text);
    } else if (const toml::array* array = node->as_array()) {
      for (const toml::node& element : *array) {
        if (!element.is_string()) type_error(key, "an array of strings", *node);
        values.push_back(element.value<std::string>().value());
      }
    } else {
      type_error(key, "an array of strings", *node);
    }
  }
  toml::array resolved;
  for (const std::string& v : values) resolved.push_back(v);
  reader_.record(name_, key, std::move(resolved));
  return values;
}

}  // namespace bhpm::config
