#include "pipeline/distilled_operator.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "config/run_layout.h"
#include "eval/distillation_file.h"
#include "eval/weak_form.h"
#include "eval/weak_term_expansion.h"
#include "pde/term_library.h"
#include "solve/polynomial_samples.h"

namespace bhpm::pipeline {

namespace {

/// rows [S][K] as a double [S, K] tensor.
at::Tensor row_tensor(const std::vector<std::vector<double>>& rows, std::int64_t columns) {
  std::vector<double> values;
  for (const auto& row : rows) values.insert(values.end(), row.begin(), row.end());
  return at::tensor(values, at::kDouble).reshape({static_cast<std::int64_t>(rows.size()), columns});
}

/// The weak form's coefficient samples [S, K] of `file` as rows over `library` [S, J]: each
/// weak term by its pointwise form (eval/weak_term_expansion.h).
at::Tensor weak_form_rows(const eval::DistillationFile& file, const pde::TermLibrary& library,
                          const std::string& path) {
  if (file.weak_samples.empty())
    throw std::invalid_argument("--operator weak-form: " + path +
                                " holds no weak form (`bhpm distill` fitted none; it says why)");
  const std::vector<eval::WeakTerm> known =
      eval::weak_library(static_cast<int>(file.variables.size()) - 1, file.degree);
  std::vector<eval::WeakTerm> terms;
  for (const std::string& name : file.weak_names) {
    const auto term = std::find_if(known.begin(), known.end(),
                                   [&](const eval::WeakTerm& t) { return t.name == name; });
    if (term == known.end())
      throw std::runtime_error(path + ": weak_form: the term " + name +
                               " is not in the weak library of its variables and degree");
    terms.push_back(*term);
  }
  const at::Tensor xi =
      row_tensor(file.weak_samples, static_cast<std::int64_t>(file.weak_names.size()));
  return at::matmul(xi, eval::pointwise_expansions(terms, library));
}

}  // namespace

std::shared_ptr<const gp::FunctionSamples> distilled_samples(const std::string& run_dir,
                                                             const config::RunConfig& config,
                                                             std::int64_t count) {
  const std::string path = config::RunLayout{run_dir}.distillation();
  const std::string& source = config.predict.operator_source;
  const bool weak = source == "weak-form";
  const std::string flag = "--operator " + source;
  const eval::DistillationFile file = eval::read_distillation_file(path);
  const std::vector<std::string> differences = config::stored_differences(
      path, file.config, config.resolved_toml, config::training_sections());
  if (!differences.empty())
    throw std::invalid_argument(flag + ": " + path + " was made from another training (" +
                                differences.front() + "); run `bhpm distill` again");
  pde::TermLibrary library = pde::make_term_library(file.variables, file.degree);
  if (library.names != file.names)
    throw std::runtime_error(path + ": its terms are not the library of degree " +
                             std::to_string(file.degree) + " of its variables");
  const at::Tensor all =
      weak ? weak_form_rows(file, library, path) : row_tensor(file.samples, library.size());
  if (all.size(0) < count)
    throw std::invalid_argument(flag + ": " + path + " holds " + std::to_string(all.size(0)) +
                                " coefficient samples, predict.samples asks for " +
                                std::to_string(count));
  std::printf("operator: the %s first %lld coefficient samples (%s): %s\n",
              weak ? "weak form's" : "distilled equation's", static_cast<long long>(count),
              path.c_str(), (weak ? file.weak_equation : file.equation).c_str());
  return std::make_shared<solve::PolynomialSamples>(std::move(library),
                                                    all.narrow(0, 0, count).clone());
}

}  // namespace bhpm::pipeline
