#include "util/comma_list.h"

#include <sstream>

namespace bhpm::util {

std::vector<std::string> split_at_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  return parts;
}

std::string join_with_commas(const std::vector<std::string>& parts) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i > 0 ? "," : "") + parts[i];
  return text;
}

}  // namespace bhpm::util
