#include "pipeline/system_equation_operators.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "config/run_layout.h"
#include "eval/distillation_file.h"
#include "pde/term_library.h"
#include "solve/polynomial_samples.h"

namespace bhpm::pipeline {

namespace {

/// The coefficient samples [S][K] of terms `names` [K] as rows [S, J] over `library`.
at::Tensor library_rows(const std::vector<std::string>& names,
                        const std::vector<std::vector<double>>& samples,
                        const pde::TermLibrary& library, const std::string& where) {
  at::Tensor rows =
      at::zeros({static_cast<std::int64_t>(samples.size()), library.size()}, at::kDouble);
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::int64_t j = library.find(names[k]);
    if (j < 0)
      throw std::invalid_argument(where + ": the term " + names[k] +
                                  " is not a monomial of the run's partials up to degree " +
                                  std::to_string(library.degree));
    for (std::size_t s = 0; s < samples.size(); ++s)
      rows[static_cast<std::int64_t>(s)][j] = samples[s][k];
  }
  return rows;
}

}  // namespace

SystemOperators system_equation_operators(const std::string& run_dir, const TrainedSystem& trained,
                                          const std::string& source, std::int64_t count) {
  const std::string path = config::RunLayout{run_dir}.distillation();
  const std::string flag = "--operator " + source;
  const bool weak = source == "weak-form";
  const auto fields = eval::read_system_distillation_file(path);
  const std::vector<std::string>& names = trained.config.system.fields;
  if (fields.size() != names.size())
    throw std::invalid_argument(flag + ": " + path + " holds " + std::to_string(fields.size()) +
                                " fields' equations; the run has " + std::to_string(names.size()));
  std::vector<std::string> variables;
  for (const pde::Partial& p :
       trained.config.system.expression_partials(trained.config.learning.order))
    variables.push_back(trained.config.system.name_of(p));
  SystemOperators operators;
  for (const std::string& name : names) {  // distill.json's fields are by name, in any order
    const auto named = std::find_if(fields.begin(), fields.end(),
                                    [&](const auto& field) { return field.first == name; });
    if (named == fields.end())
      throw std::invalid_argument(flag + ": " + path + " holds no equation of field " + name +
                                  "; run `bhpm distill` again");
    const eval::DistillationFile& file = named->second;
    const std::string where = path + ": fields: " + name;
    const std::vector<std::string> differences = config::stored_differences(
        path, file.config, trained.config.resolved_toml, config::training_sections());
    if (!differences.empty())
      throw std::invalid_argument(flag + ": " + path + " was made from another training (" +
                                  differences.front() + "); run `bhpm distill` again");
    if (weak && file.weak_samples.empty())
      throw std::invalid_argument(flag + ": " + where +
                                  " holds no weak form (`bhpm distill` fitted none; it says why)");
    const auto& samples = weak ? file.weak_samples : file.samples;
    if (static_cast<std::int64_t>(samples.size()) < count)
      throw std::invalid_argument(flag + ": " + where + " holds " + std::to_string(samples.size()) +
                                  " coefficient samples, predict.samples asks for " +
                                  std::to_string(count));
    const pde::TermLibrary library = pde::make_term_library(variables, file.degree);
    const at::Tensor rows =
        library_rows(weak ? file.weak_names : file.names, samples, library, where);
    operators.means.push_back(std::make_shared<solve::PolynomialSamples>(
        library, std::get<0>(rows.median(0)).unsqueeze(0).contiguous()));
    operators.samples.push_back(
        std::make_shared<solve::PolynomialSamples>(library, rows.narrow(0, 0, count).clone()));
  }
  return operators;
}

}  // namespace bhpm::pipeline
