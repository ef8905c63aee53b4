#include "config/config_difference.h"

#include <toml++/toml.h>

#include <map>
#include <set>
#include <sstream>

#include "config/config_reader.h"

namespace bhpm::config {

namespace {

toml::table parse_stored(const std::string& text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& error) {
    throw ConfigError(source +
                      ": stored configuration is not TOML: " + std::string(error.description()));
  }
}

/// The key -> value text map of one section; "" holds the top-level non-table keys; `only`
/// non-empty keeps that key alone.
std::map<std::string, std::string> section_values(const toml::table& root,
                                                  const std::string& section,
                                                  const std::string& only) {
  std::map<std::string, std::string> values;
  const toml::table* table = section.empty() ? &root : root.get_as<toml::table>(section);
  if (!table) return values;
  for (const auto& [key, node] : *table) {
    if (node.is_table() || (!only.empty() && key.str() != only)) continue;
    std::ostringstream text;
    node.visit([&text](auto&& value) { text << toml::toml_formatter(value); });
    values[std::string(key.str())] = text.str();
  }
  return values;
}

std::string value_or_absent(const std::map<std::string, std::string>& values,
                            const std::string& key) {
  const auto found = values.find(key);
  return found == values.end() ? "(absent)" : found->second;
}

}  // namespace

std::vector<std::string> config_differences(const std::string& stored,
                                            const std::string& stored_source,
                                            const std::string& current,
                                            const std::vector<std::string>& sections) {
  const toml::table then = parse_stored(stored, stored_source);
  const toml::table now = parse_stored(current, "current configuration");
  std::vector<std::string> differences;
  for (const std::string& entry : sections) {
    const std::size_t dot = entry.find('.');
    const std::string section = entry.substr(0, dot);
    const std::string only = dot == std::string::npos ? "" : entry.substr(dot + 1);
    const auto a = section_values(then, section, only);
    const auto b = section_values(now, section, only);
    std::set<std::string> keys;
    for (const auto& entry : a) keys.insert(entry.first);
    for (const auto& entry : b) keys.insert(entry.first);
    for (const std::string& key : keys) {
      const std::string before = value_or_absent(a, key), after = value_or_absent(b, key);
      if (before != after)
        differences.push_back((section.empty() ? key : section + "." + key) + " = " + before +
                              " there, " + after + " here");
    }
  }
  return differences;
}

}  // namespace bhpm::config
