#include "eval/distillation_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <stdexcept>

#include "io/json_number.h"

namespace bhpm::eval {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr int kFormatVersion = 1;

/// One term of the distilled equation as JSON (its truth null when unknown).
ordered_json term_json(const DistilledTerm& term, const std::vector<int>& exponents) {
  return {{"name", term.name},           {"exponents", exponents},
          {"inclusion", term.inclusion}, {"median", term.median},
          {"lower", term.lower},         {"upper", term.upper},
          {"kept", term.kept()},         {"truth", io::finite_or_null(term.truth)}};
}

/// xi [S, J] as S rows.
ordered_json sample_rows(const at::Tensor& coefficients) {
  const at::Tensor xi = coefficients.contiguous();
  ordered_json samples = ordered_json::array();
  for (std::int64_t s = 0; s < xi.size(0); ++s)
    samples.push_back(
        std::vector<double>(xi[s].data_ptr<double>(), xi[s].data_ptr<double>() + xi.size(1)));
  return samples;
}

ordered_json settings_json(const DistillationSettings& s) {
  return {{"run_dir", s.run_dir}, {"data", s.data},           {"sampler", s.sampler},
          {"samples", s.samples}, {"features", s.features},   {"points", s.points},
          {"folds", s.folds},     {"resampled", s.resampled}, {"seed", s.seed}};
}

/// The weak form's fit (eval/weak_form_distillation.h) as JSON.
ordered_json weak_form_json(const WeakFormDistillation& w, const DistillationSettings& s) {
  ordered_json terms = ordered_json::array();
  for (std::size_t j = 0; j < w.terms.size(); ++j) {
    const DistilledTerm& term = w.terms[j];
    ordered_json entry = {{"name", term.name}};
    if (j < w.library.size()) {  // a system's weak terms carry their names alone
      entry["order"] = w.library[j].order;
      entry["power"] = w.library[j].power;
    }
    entry.update(ordered_json{{"inclusion", term.inclusion},
                              {"median", term.median},
                              {"lower", term.lower},
                              {"upper", term.upper},
                              {"kept", term.kept()},
                              {"truth", io::finite_or_null(term.truth)}});
    terms.push_back(entry);
  }
  ordered_json widths = ordered_json::array();
  for (const WeakFormWidth& width : w.widths)
    widths.push_back({{"factor", width.factor},
                      {"space", width.space},
                      {"test_functions", width.rows},
                      {"experiments", width.experiments},
                      {"used", width.used}});
  return {{"equation", equation_text(w.terms, w.left_hand_side)},
          {"length_scale", w.scales.length},
          {"time_scale", w.scales.time},
          {"time_factor", w.time_factor},
          {"widths", widths},
          {"grid", {s.weak_x_points, s.weak_t_points}},
          {"resampled", w.resampled},
          {"terms", terms},
          {"coefficient_samples", sample_rows(w.coefficients)}};
}

template <typename T>
T field(const json& object, const std::string& key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end()) throw std::runtime_error(where + ": \"" + key + "\" is missing");
  try {
    return found->get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(where + ": \"" + key + "\" is " + found->type_name() +
                             ", not what a bhpm-distill file holds there");
  }
}

DistilledTerm read_term(const json& term, const std::string& where) {
  DistilledTerm t;
  t.name = field<std::string>(term, "name", where);
  t.inclusion = field<double>(term, "inclusion", where);
  t.median = field<double>(term, "median", where);
  t.lower = field<double>(term, "lower", where);
  t.upper = field<double>(term, "upper", where);
  const auto truth = term.find("truth");
  t.truth = truth == term.end() || truth->is_null() ? std::nan("") : truth->get<double>();
  return t;
}

}  // namespace

std::string distillation_json(const Distillation& d, const DistillationSettings& settings,
                              const WeakFormDistillation* weak) {
  ordered_json terms = ordered_json::array();
  for (std::size_t j = 0; j < d.terms.size(); ++j)
    terms.push_back(term_json(d.terms[j], d.library.exponents[j]));
  ordered_json out = {
      {"format", "bhpm-distill"},
      {"format_version", kFormatVersion},
      {"equation", distilled_equation(d)},
      {"explained", d.explained},
      {"truth_explained", d.has_truth ? ordered_json(d.truth_explained) : nullptr},
      {"misfit_rms", d.misfit_rms},
      {"posterior_std_rms", d.posterior_std_rms},
      {"max_unexplained", d.max_unexplained},
      {"warning", d.too_little_explained() ? ordered_json(distillation_warning(d)) : nullptr},
      {"library", {{"variables", d.library.variables}, {"degree", d.library.degree}}},
      {"terms", terms},
      {"thresholds", d.thresholds},
      {"coefficient_samples", sample_rows(d.coefficients)},
      {"weak_form", weak != nullptr ? weak_form_json(*weak, settings) : nullptr},
      {"settings", settings_json(settings)},
      {"config", settings.config}};
  return out.dump(2) + "\n";
}

namespace {

/// One field's distillation object (the whole of a one-field file); `path` names it.
DistillationFile distillation_from(const json& j, const std::string& path) {
  if (!j.is_object() || j.value("format", "") != "bhpm-distill")
    throw std::runtime_error(path + ": not a bhpm-distill file (\"format\")");
  if (field<int>(j, "format_version", path) != kFormatVersion)
    throw std::runtime_error(
        path + ": format_version " + std::to_string(field<int>(j, "format_version", path)) +
        " is not the one this bhpm reads (" + std::to_string(kFormatVersion) + ")");
  DistillationFile file;
  const json library = field<json>(j, "library", path);
  file.variables = field<std::vector<std::string>>(library, "variables", path + ": library");
  file.degree = field<int>(library, "degree", path + ": library");
  for (const json& term : field<json>(j, "terms", path)) {
    file.terms.push_back(read_term(term, path + ": terms"));
    file.names.push_back(file.terms.back().name);
  }
  file.samples = field<std::vector<std::vector<double>>>(j, "coefficient_samples", path);
  for (const auto& row : file.samples)
    if (row.size() != file.names.size())
      throw std::runtime_error(path + ": a row of \"coefficient_samples\" has " +
                               std::to_string(row.size()) + " values for " +
                               std::to_string(file.names.size()) + " terms");
  file.equation = field<std::string>(j, "equation", path);
  const auto weak = j.find("weak_form");
  if (weak != j.end() && !weak->is_null()) {
    const std::string where = path + ": weak_form";
    file.weak_equation = field<std::string>(*weak, "equation", where);
    for (const json& term : field<json>(*weak, "terms", where))
      file.weak_names.push_back(field<std::string>(term, "name", where + ": terms"));
    file.weak_samples =
        field<std::vector<std::vector<double>>>(*weak, "coefficient_samples", where);
    for (const auto& row : file.weak_samples)
      if (row.size() != file.weak_names.size())
        throw std::runtime_error(where + ": a row of \"coefficient_samples\" has " +
                                 std::to_string(row.size()) + " values for " +
                                 std::to_string(file.weak_names.size()) + " terms");
  }
  file.explained = field<double>(j, "explained", path);
  file.warning = !j["warning"].is_null();
  file.config = field<std::string>(j, "config", path);
  return file;
}

/// The JSON at `path`; throws naming it when it cannot be read or parsed.
json parsed_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read (run `bhpm distill` first)");
  try {
    return json::parse(in);
  } catch (const json::exception& error) {
    throw std::runtime_error(path + ": not JSON (" + error.what() + ")");
  }
}

}  // namespace

DistillationFile read_distillation_file(const std::string& path) {
  return distillation_from(parsed_file(path), path);
}

std::vector<std::pair<std::string, DistillationFile>> read_system_distillation_file(
    const std::string& path) {
  const json j = parsed_file(path);
  if (!j.is_object() || j.value("format", "") != "bhpm-system-distill" || !j.contains("fields") ||
      !j["fields"].is_object())
    throw std::runtime_error(path + ": not a bhpm-system-distill file (\"format\", \"fields\")");
  std::vector<std::pair<std::string, DistillationFile>> fields;
  for (const auto& [name, object] : j["fields"].items())
    fields.emplace_back(name, distillation_from(object, path + ": fields: " + name));
  return fields;
}

}  // namespace bhpm::eval
