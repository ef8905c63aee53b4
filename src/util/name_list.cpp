#include "util/name_list.h"

#include <algorithm>
#include <stdexcept>

#include "util/option_check.h"

namespace bhpm::util {

std::string quoted_alternatives(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += "\"" + names[i] + "\"";
  }
  return text;
}

bool is_listed(const std::string& name, const std::vector<std::string>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void require_listed(const std::string& name, const std::vector<std::string>& names,
                    const std::string& where, const std::string& field) {
  require_option(is_listed(name, names), where, field, "must be " + quoted_alternatives(names),
                 "\"" + name + "\"");
}

}  // namespace bhpm::util
