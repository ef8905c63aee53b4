#pragma once
/// Named alternatives (samplers, solvers, kernels, initialisations): each is listed in one
/// table by the code that implements it, and every check of a user's choice and every
/// "unknown name" error reads that table, so the error always lists the known names.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bhpm::util {

/// "\"a\"", "\"a\" or \"b\"", "\"a\", \"b\" or \"c\"".
std::string quoted_alternatives(const std::vector<std::string>& names);

/// Whether `name` is one of `names`.
bool is_listed(const std::string& name, const std::vector<std::string>& names);

/// Throws util::OptionError "<where>: <field> must be <alternatives> (got \"name\")"
/// when `name` is not one of `names`.
void require_listed(const std::string& name, const std::vector<std::string>& names,
                    const std::string& where, const std::string& field);

/// A table of named implementations (a factory, a function) in the order users see them.
template <class Implementation>
using NameTable = std::vector<std::pair<std::string, Implementation>>;

/// The names of `table`, in order.
template <class Implementation>
std::vector<std::string> names_of(const NameTable<Implementation>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.push_back(entry.first);
  return names;
}

/// The implementation named `name`; throws as require_listed does when there is none.
template <class Implementation>
const Implementation& find_listed(const NameTable<Implementation>& table, const std::string& name,
                                  const std::string& where, const std::string& field) {
  for (const auto& entry : table)
    if (entry.first == name) return entry.second;
  require_listed(name, names_of(table), where, field);  // throws: `name` is not listed
  throw std::logic_error(where + ": " + field + " \"" + name + "\" is listed but not found");
}

}  // namespace bhpm::util
