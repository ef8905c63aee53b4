#include "pipeline/distilled_operator.h"

#include <ATen/ATen.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "config/run_layout.h"
#include "eval/distillation_file.h"
#include "pde/term_library.h"
#include "solve/polynomial_samples.h"

namespace bhpm::pipeline {

std::shared_ptr<const gp::FunctionSamples> distilled_samples(const std::string& run_dir,
                                                             const config::RunConfig& config,
                                                             std::int64_t count) {
  const std::string path = config::RunLayout{run_dir}.distillation();
  const eval::DistillationFile file = eval::read_distillation_file(path);
  const std::vector<std::string> differences = config::stored_differences(
      path, file.config, config.resolved_toml, config::training_sections());
  if (!differences.empty())
    throw std::invalid_argument("--operator distilled: " + path +
                                " was made from another training (" + differences.front() +
                                "); run `bhpm distill` again");
  if (static_cast<std::int64_t>(file.samples.size()) < count)
    throw std::invalid_argument(
        "--operator distilled: " + path + " holds " + std::to_string(file.samples.size()) +
        " coefficient samples, predict.samples asks for " + std::to_string(count));
  pde::TermLibrary library = pde::make_term_library(file.variables, file.degree);
  if (library.names != file.names)
    throw std::runtime_error(path + ": its terms are not the library of degree " +
                             std::to_string(file.degree) + " of its variables");
  std::vector<double> values;
  for (std::int64_t s = 0; s < count; ++s)
    values.insert(values.end(), file.samples[s].begin(), file.samples[s].end());
  at::Tensor xi = at::tensor(values, at::kDouble).reshape({count, library.size()});
  std::printf("operator: the distilled equation's first %lld coefficient samples (%s): %s\n",
              static_cast<long long>(count), path.c_str(), file.equation.c_str());
  return std::make_shared<solve::PolynomialSamples>(std::move(library), std::move(xi));
}

}  // namespace bhpm::pipeline
