#include "pde/boundary_condition_text.h"

#include <filesystem>
#include <regex>
#include <stdexcept>
#include <vector>

#include "pde/boundary_values.h"

namespace bhpm::pde {

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// w_m of "2 u + u_x - 0.5*u_xx" (whitespace removed first); empty when it does not parse.
std::vector<double> combination_weights(const std::string& left) {
  std::string compact;
  for (const char c : left)
    if (c != ' ' && c != '\t') compact += c;
  static const std::regex term(R"(([+-]?)((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)?\*?u(?:_(x+))?)");
  std::vector<double> weights;
  std::size_t at = 0;
  for (std::smatch match; at < compact.size(); at += static_cast<std::size_t>(match.length())) {
    const std::string rest = compact.substr(at);
    if (!std::regex_search(rest, match, term, std::regex_constants::match_continuous) ||
        (at > 0 && match[1].length() == 0))
      return {};
    const double coefficient = match[2].matched ? std::stod(match[2].str()) : 1.0;
    const auto order = static_cast<std::size_t>(match[3].length());
    if (weights.size() <= order) weights.resize(order + 1, 0.0);
    weights[order] += match[1].str() == "-" ? -coefficient : coefficient;
  }
  return weights;
}

BoundaryValue boundary_data(const std::string& right, double t_end, const std::string& base_dir,
                            const std::string& where) {
  static const std::regex series(R"((.+\.csv):([A-Za-z_][A-Za-z0-9_]*))");
  std::smatch match;
  if (!std::regex_match(right, match, series)) return expression_boundary_value(right, where);
  std::filesystem::path path(match[1].str());
  if (path.is_relative()) path = std::filesystem::path(base_dir) / path;
  if (!std::filesystem::is_regular_file(path))
    throw std::invalid_argument(where + ": the boundary series " + path.string() +
                                " is not a readable file");
  return series_boundary_value(path.string(), match[2].str(), t_end, where);
}

}  // namespace

BoundaryCondition parse_boundary_condition(const std::string& text, double t_end,
                                           const std::string& base_dir, const std::string& field) {
  const std::string where = field + ": \"" + text + "\"";
  const auto equals = text.find('=');
  if (equals == std::string::npos)
    throw std::invalid_argument(where +
                                ": a condition reads LEFT = DATA, e.g. \"u = 0\", "
                                "\"u_x = sin(t)\" or \"u = walls.csv:left\"");
  const std::vector<double> weights = combination_weights(text.substr(0, equals));
  bool any = false;
  for (const double w : weights) any = any || w != 0.0;
  if (!any)
    throw std::invalid_argument(where +
                                ": the left side must be a combination of u, u_x, "
                                "u_xx, ... with numbers as coefficients, e.g. \"2 u + "
                                "u_x\", and not vanish");
  const std::string right = trimmed(text.substr(equals + 1));
  if (right.empty()) throw std::invalid_argument(where + ": the boundary data after '=' is empty");
  return {weights, boundary_data(right, t_end, base_dir, where), right};
}

}  // namespace bhpm::pde
