#include "pde/field_system.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "pde/expression.h"
#include "pde/right_hand_side_text.h"
#include "util/name_list.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::pde {

const std::vector<std::string>& field_system_names() {
  static const std::vector<std::string> names = {
      "nls", "lambda_omega", "burgers_2d", "advection_diffusion_2d", "general", "unknown"};
  return names;
}

std::map<std::string, double> field_system_parameters(const std::string& name) {
  if (name == "lambda_omega") return {{"d", 0.1}, {"beta", 1.0}};
  if (name == "burgers_2d") return {{"nu", 0.1}};
  if (name == "advection_diffusion_2d") return {{"nu", 0.1}, {"a_x", 1.0}, {"a_y", 0.5}};
  return {};
}

std::string partial_name(const std::string& field, const Partial& partial) {
  if (partial.order() == 0) return field;
  return field + "_" + std::string(static_cast<std::size_t>(partial.x_order), 'x') +
         std::string(static_cast<std::size_t>(partial.y_order), 'y');
}

namespace {

/// "(0.1)": a parameter's value as it enters an expression's text.
std::string value_text(double value) { return "(" + util::format_significant(value, 17) + ")"; }

/// A built-in system as the general form's options, its parameters `p` in the texts.
FieldSystemOptions built_in(const std::string& name, const std::map<std::string, double>& p) {
  FieldSystemOptions general;
  general.name = name;
  const auto v = [&](const char* key) { return value_text(p.at(key)); };
  if (name == "nls") {
    general.fields = {"u", "v"};
    general.linear = {"-0.5*v_xx", "0.5*u_xx"};
    general.nonlinear = {"-(u^2+v^2)*v", "(u^2+v^2)*u"};
  } else if (name == "lambda_omega") {
    general.dimensions = 2;
    general.fields = {"u", "v"};
    general.linear = {v("d") + "*(u_xx+u_yy) + u", v("d") + "*(v_xx+v_yy) + v"};
    general.nonlinear = {"-(u^2+v^2)*u + " + v("beta") + "*(u^2+v^2)*v",
                         "-" + v("beta") + "*(u^2+v^2)*u - (u^2+v^2)*v"};
  } else if (name == "burgers_2d") {
    general.dimensions = 2;
    general.fields = {"u"};
    general.linear = {v("nu") + "*(u_xx+u_yy)"};
    general.nonlinear = {"-u*(u_x+u_y)"};
  } else if (name == "advection_diffusion_2d") {
    general.dimensions = 2;
    general.fields = {"u"};
    general.linear = {v("nu") + "*(u_xx+u_yy) - " + v("a_x") + "*u_x - " + v("a_y") + "*u_y"};
    general.nonlinear = {""};
  }
  return general;
}

/// The linear terms of `text`, an expression in `partials`: c_p = f(e_p), refused unless
/// f(0) = 0 and f(a) = sum_p c_p a_p at a point a with every coordinate distinct.
std::vector<LinearTerm> linear_terms(const FieldSystem& system, const std::string& text,
                                     const std::string& where) {
  const std::vector<Partial> partials = system.expression_partials(kMaxLinearOrder);
  std::vector<std::string> names;
  for (const Partial& p : partials) names.push_back(system.name_of(p));
  Expression expression(text, names, where);
  std::vector<double> values(names.size(), 0.0);
  std::vector<const double*> inputs;
  for (const double& value : values) inputs.push_back(&value);
  const auto at = [&](const std::vector<double>& point) {
    values = point;
    double result = 0.0;
    expression.evaluate(inputs, 1, &result);
    return result;
  };
  const std::vector<double> zero(names.size(), 0.0);
  std::vector<LinearTerm> terms;
  std::vector<double> probe = zero;
  double expected = 0.0, scale = 0.0;
  for (std::size_t p = 0; p < names.size(); ++p) {
    if (!expression.uses(names[p])) continue;
    std::vector<double> unit = zero;
    unit[p] = 1.0;
    const double c = at(unit) - at(zero);
    util::require_finite_number(c, where + " (the coefficient of " + names[p] + ")");
    if (c != 0.0) terms.push_back({partials[p], c});
    probe[p] = 0.5 + 0.25 * static_cast<double>(p % 7);
    expected += c * probe[p];
    scale += std::abs(c * probe[p]);
  }
  const double offset = at(zero), error = std::abs(at(probe) - expected);
  if (offset != 0.0 || !(error <= 1e-9 * (1.0 + scale)))
    throw std::invalid_argument(where + ": '" + text +
                                "' is not linear in the partials (a constant or a product of "
                                "them): such terms belong in the nonlinear part");
  return terms;
}

/// "'d', 'beta'", or "none".
std::string parameter_names(const std::map<std::string, double>& parameters) {
  std::vector<std::string> keys;
  for (const auto& entry : parameters) keys.push_back(entry.first);
  return keys.empty() ? "none" : util::quoted_alternatives(keys);
}

/// Throws naming the field unless dimensions is 1 or 2 and the field names are plain.
void require_fields_and_dimensions(const FieldSystemOptions& options) {
  if (options.dimensions != 1 && options.dimensions != 2)
    throw std::invalid_argument(options.field_names("dimensions") + ": must be 1 or 2 (got " +
                                std::to_string(options.dimensions) + ")");
  require_field_names(options.fields, options.field_names("fields"));
}

/// The general form's options checked and built into a system.
FieldSystem general_system(const FieldSystemOptions& options) {
  const util::FieldNames& field = options.field_names;
  require_fields_and_dimensions(options);
  const std::size_t q = options.fields.size();
  if (options.linear.size() > q || options.nonlinear.size() > q)
    throw std::invalid_argument(field("fields") + ": " + std::to_string(q) +
                                " fields, but more linear or nonlinear parts than that");
  FieldSystem system{options.name, options.dimensions, options.fields, {}, {}};
  std::vector<std::string> variables;
  for (const Partial& p : system.expression_partials()) variables.push_back(system.name_of(p));
  for (std::size_t i = 0; i < q; ++i) {
    FieldEquation equation;
    const std::string index = "[" + std::to_string(i) + "]";
    if (i < options.linear.size() && !options.linear[i].empty())
      equation.linear = linear_terms(system, options.linear[i], field("linear") + index);
    if (i < options.nonlinear.size() && !options.nonlinear[i].empty()) {
      equation.nonlinear = options.nonlinear[i];
      Expression(equation.nonlinear, variables, field("nonlinear") + index);
    }
    if (equation.linear.empty() && equation.nonlinear.empty())
      throw std::invalid_argument(field("fields") + ": field '" + options.fields[i] +
                                  "' has neither linear terms nor a nonlinear expression");
    system.equations.push_back(std::move(equation));
  }
  return system;
}

/// Fields and dimensions without equations: what is learned from a user's measurements.
FieldSystem unknown_system(const FieldSystemOptions& options) {
  const util::FieldNames& field = options.field_names;
  require_fields_and_dimensions(options);
  if (!options.linear.empty() || !options.nonlinear.empty() || !options.parameters.empty())
    throw std::invalid_argument(field("name") +
                                ": a system of unknown equations takes fields and dimensions "
                                "only (linear and nonlinear parts belong to \"general\")");
  return {options.name,
          options.dimensions,
          options.fields,
          std::vector<FieldEquation>(options.fields.size()),
          {}};
}

}  // namespace

void require_field_names(const std::vector<std::string>& fields, const std::string& where) {
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

std::vector<Partial> FieldSystem::expression_partials(int max_order) const {
  std::vector<Partial> partials;
  for (std::int64_t f = 0; f < size(); ++f)
    for (int order = 0; order <= max_order; ++order)
      for (int y = 0; y <= (dimensions == 2 ? order : 0); ++y)
        partials.push_back({f, order - y, y});
  return partials;
}

std::string FieldSystem::describe() const {
  std::ostringstream out;
  if (!has_equations()) {
    out << "unknown equations of ";
    for (std::int64_t i = 0; i < size(); ++i) out << (i > 0 ? ", " : "") << fields[i];
    out << " in " << dimensions << "-D";
    return out.str();
  }
  for (std::int64_t i = 0; i < size(); ++i) {
    std::vector<std::pair<double, std::string>> terms;
    for (const LinearTerm& term : equations[i].linear)
      terms.emplace_back(term.coefficient, name_of(term.partial));
    out << (i > 0 ? "; " : "") << fields[i] << "_t =";
    write_right_hand_side(out, terms, equations[i].nonlinear);
  }
  return out.str();
}

FieldSystem make_field_system(const FieldSystemOptions& options) {
  const util::FieldNames& field = options.field_names;
  const std::string& name = options.name;
  util::require_listed(name, field_system_names(), "system", "name");
  if (name == "unknown") return unknown_system(options);
  if (name == "general") {
    if (!options.parameters.empty())
      throw std::invalid_argument(field("parameters") +
                                  ": a general system takes its coefficients in linear and "
                                  "nonlinear, not parameters");
    return general_system(options);
  }
  std::map<std::string, double> parameters = field_system_parameters(name);
  for (const auto& [key, value] : options.parameters) {
    if (!parameters.count(key))
      throw std::invalid_argument(
          field(key) + ": system '" + name +
          "' has no such parameter (it has: " + parameter_names(parameters) + ")");
    util::require_finite_number(value, field(key));
    parameters[key] = value;
  }
  FieldSystemOptions general = built_in(name, parameters);
  general.field_names = field;
  FieldSystem system = general_system(general);
  system.parameters = parameters;
  return system;
}

}  // namespace bhpm::pde
