#include "pde/field_system.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "pde/expression.h"
#include "util/name_list.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::pde {

const std::vector<std::string>& field_system_names() {
  static const std::vector<std::string> names = {"nls", "lambda_omega", "burgers_2d",
                                                 "advection_diffusion_2d", "general"};
  return names;
}

std::string partial_name(const std::string& field, const Partial& partial) {
  if (partial.order() == 0) return field;
  return field + "_" + std::string(static_cast<std::size_t>(partial.x_order), 'x') +
         std::string(static_cast<std::size_t>(partial.y_order), 'y');
}

namespace {

/// Default parameters of each built-in system.
std::map<std::string, double> default_parameters(const std::string& name) {
  if (name == "lambda_omega") return {{"d", 0.1}, {"beta", 1.0}};
  if (name == "burgers_2d") return {{"nu", 0.1}};
  if (name == "advection_diffusion_2d") return {{"nu", 0.1}, {"a_x", 1.0}, {"a_y", 0.5}};
  return {};
}

/// "(0.1)": a parameter's value as it enters an expression's text.
std::string value_text(double value) { return "(" + util::format_significant(value, 17) + ")"; }

/// A built-in system as the general form's options.
FieldSystemOptions built_in(const std::string& name, const std::map<std::string, double>& p) {
  FieldSystemOptions general;
  general.name = name;
  if (name == "nls") {
    general.fields = {"u", "v"};
    general.linear = {{{"v_xx", -0.5}}, {{"u_xx", 0.5}}};
    general.nonlinear = {"-(u^2+v^2)*v", "(u^2+v^2)*u"};
  } else if (name == "lambda_omega") {
    general.dimensions = 2;
    general.fields = {"u", "v"};
    const double d = p.at("d");
    const std::string beta = value_text(p.at("beta"));
    general.linear = {{{"u", 1.0}, {"u_xx", d}, {"u_yy", d}},
                      {{"v", 1.0}, {"v_xx", d}, {"v_yy", d}}};
    general.nonlinear = {"-(u^2+v^2)*u + " + beta + "*(u^2+v^2)*v",
                         "-" + beta + "*(u^2+v^2)*u - (u^2+v^2)*v"};
  } else if (name == "burgers_2d") {
    general.dimensions = 2;
    general.fields = {"u"};
    general.linear = {{{"u_xx", p.at("nu")}, {"u_yy", p.at("nu")}}};
    general.nonlinear = {"-u*(u_x+u_y)"};
  } else if (name == "advection_diffusion_2d") {
    general.dimensions = 2;
    general.fields = {"u"};
    general.linear = {
        {{"u_xx", p.at("nu")}, {"u_yy", p.at("nu")}, {"u_x", -p.at("a_x")}, {"u_y", -p.at("a_y")}}};
    general.nonlinear = {""};
  }
  return general;
}

void check_field_names(const std::vector<std::string>& fields, const std::string& where) {
  if (fields.empty()) throw std::invalid_argument(where + ": a system needs at least one field");
  static const std::set<std::string> reserved = {"x", "y", "t", "e", "pi"};
  std::set<std::string> seen;
  for (const std::string& f : fields) {
    bool plain = !f.empty() && std::isalpha(static_cast<unsigned char>(f[0]));
    for (char c : f) plain = plain && std::isalnum(static_cast<unsigned char>(c));
    if (!plain || reserved.count(f))
      throw std::invalid_argument(where + ": field name '" + f +
                                  "' must be letters and digits, starting with a letter, and "
                                  "none of x, y, t, e, pi");
    if (!seen.insert(f).second)
      throw std::invalid_argument(where + ": field name '" + f + "' repeats");
  }
}

/// The partial that `name` spells, or throws naming `where`.
Partial parse_partial(const FieldSystem& system, const std::string& name,
                      const std::string& where) {
  for (const Partial& p : system.expression_partials())
    if (system.name_of(p) == name) return p;
  for (std::size_t f = 0; f < system.fields.size(); ++f) {
    const std::string& field = system.fields[f];
    if (name.rfind(field + "_", 0) != 0) continue;
    const std::string orders = name.substr(field.size() + 1);
    Partial p{static_cast<std::int64_t>(f), 0, 0};
    std::size_t i = 0;
    while (i < orders.size() && orders[i] == 'x') ++p.x_order, ++i;
    while (i < orders.size() && orders[i] == 'y') ++p.y_order, ++i;
    if (i == orders.size() && p.order() > 0 && (system.dimensions == 2 || p.y_order == 0)) return p;
  }
  throw std::invalid_argument(where + ": '" + name + "' is no field's partial (fields " +
                              util::quoted_alternatives(system.fields) + "; partials as u, u_x, " +
                              (system.dimensions == 2 ? "u_xy, u_yy" : "u_xx") + ", ...)");
}

/// "'d', 'beta'", or "none".
std::string parameter_names(const std::map<std::string, double>& parameters) {
  std::vector<std::string> keys;
  for (const auto& entry : parameters) keys.push_back(entry.first);
  return keys.empty() ? "none" : util::quoted_alternatives(keys);
}

/// The general form's options checked and built into a system.
FieldSystem general_system(const FieldSystemOptions& options) {
  const util::FieldNames& field = options.field_names;
  if (options.dimensions != 1 && options.dimensions != 2)
    throw std::invalid_argument(field("dimensions") + ": must be 1 or 2 (got " +
                                std::to_string(options.dimensions) + ")");
  check_field_names(options.fields, field("fields"));
  const std::size_t q = options.fields.size();
  if (options.linear.size() > q || options.nonlinear.size() > q)
    throw std::invalid_argument(field("fields") + ": " + std::to_string(q) +
                                " fields, but more linear or nonlinear parts than that");
  FieldSystem system{options.name, options.dimensions, options.fields, {}, {}};
  std::vector<std::string> variables;
  for (const Partial& p : system.expression_partials()) variables.push_back(system.name_of(p));
  for (std::size_t i = 0; i < q; ++i) {
    FieldEquation equation;
    const std::string where_linear = field("linear") + "[" + std::to_string(i) + "]";
    if (i < options.linear.size())
      for (const auto& [name, c] : options.linear[i]) {
        util::require_finite_number(c, where_linear + "." + name);
        if (c != 0.0) equation.linear.push_back({parse_partial(system, name, where_linear), c});
      }
    if (i < options.nonlinear.size() && !options.nonlinear[i].empty()) {
      equation.nonlinear = options.nonlinear[i];
      Expression(equation.nonlinear, variables, field("nonlinear") + "[" + std::to_string(i) + "]");
    }
    if (equation.linear.empty() && equation.nonlinear.empty())
      throw std::invalid_argument(field("fields") + ": field '" + options.fields[i] +
                                  "' has neither linear terms nor a nonlinear expression");
    system.equations.push_back(std::move(equation));
  }
  return system;
}

}  // namespace

std::vector<Partial> FieldSystem::expression_partials() const {
  std::vector<Partial> partials;
  for (std::int64_t f = 0; f < size(); ++f)
    for (int order = 0; order <= kMaxNonlinearOrder; ++order)
      for (int y = 0; y <= (dimensions == 2 ? order : 0); ++y)
        partials.push_back({f, order - y, y});
  return partials;
}

std::string FieldSystem::describe() const {
  std::ostringstream out;
  for (std::int64_t i = 0; i < size(); ++i) {
    if (i > 0) out << "; ";
    out << fields[i] << "_t =";
    bool first = true;
    for (const LinearTerm& term : equations[i].linear) {
      const double c = term.coefficient;
      out << (first ? (c < 0 ? " -" : " ") : (c < 0 ? " - " : " + "));
      if (std::abs(c) != 1.0) out << util::format_significant(std::abs(c), 6) << " ";
      out << name_of(term.partial);
      first = false;
    }
    if (!equations[i].nonlinear.empty())
      out << (first ? " " : " + ") << "(" << equations[i].nonlinear << ")";
  }
  return out.str();
}

FieldSystem make_field_system(const FieldSystemOptions& options) {
  const util::FieldNames& field = options.field_names;
  const std::string& name = options.name;
  if (name == "general") {
    if (!options.parameters.empty())
      throw std::invalid_argument(field("parameters") +
                                  ": a general system takes its coefficients in linear and "
                                  "nonlinear, not parameters");
    return general_system(options);
  }
  if (std::find(field_system_names().begin(), field_system_names().end(), name) ==
      field_system_names().end())
    throw std::invalid_argument(field("name") + ": unknown system '" + name + "' (known: " +
                                util::quoted_alternatives(field_system_names()) + ")");
  std::map<std::string, double> parameters = default_parameters(name);
  for (const auto& [key, value] : options.parameters) {
    if (!parameters.count(key))
      throw std::invalid_argument(
          field("parameters") + "." + key + ": system '" + name +
          "' has no such parameter (it has: " + parameter_names(parameters) + ")");
    util::require_finite_number(value, field("parameters") + "." + key);
    parameters[key] = value;
  }
  FieldSystemOptions general = built_in(name, parameters);
  general.field_names = field;
  const std::string built_name = general.name;
  general.name = "general";
  FieldSystem system = general_system(general);
  system.name = built_name;
  system.parameters = parameters;
  return system;
}

}  // namespace bhpm::pde
