#include "pipeline/weak_form_shift.h"

#include <ATen/ATen.h>

#include <optional>
#include <vector>

#include "config/run_layout.h"
#include "eval/weak_term_expansion.h"
#include "gp/posterior_mean.h"
#include "model/bhpm_model.h"
#include "pde/term_library.h"
#include "pipeline/distillation_inputs.h"
#include "pipeline/run_distillation.h"
#include "util/number_format.h"

namespace bhpm::pipeline {

namespace {

/// "u_xxx -0.9894 -> -0.9999, u*u_x -0.9929 -> -0.9999 (the weak form's medians over 64
/// resamples)".
std::string shift_description(const std::vector<eval::WeakTerm>& terms, const at::Tensor& from,
                              const at::Tensor& to, std::int64_t resamples) {
  std::string text;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const auto row = static_cast<std::int64_t>(k);
    text += (text.empty() ? "" : ", ") + terms[k].name + " " +
            util::format_significant(from[row].item<double>(), 4) + " -> " +
            util::format_significant(to[row].item<double>(), 4);
  }
  return text + " (the posterior mean's coefficients -> the weak form's medians over " +
         std::to_string(resamples) + " resamples)";
}

}  // namespace

std::shared_ptr<const solve::OperatorShift> weak_form_shift(const std::string& run_dir,
                                                            const TrainedRun& run,
                                                            std::string& why) {
  const config::RunLayout layout{run_dir};
  const std::optional<eval::WeakFormDistillation> weak =
      training_weak_form(run_dir, layout.data(), run, why);
  if (!weak) return nullptr;
  std::vector<eval::WeakTerm> terms;
  std::vector<double> medians;
  for (std::size_t j = 0; j < weak->terms.size(); ++j) {
    if (!weak->terms[j].kept()) continue;
    terms.push_back(weak->library[j]);
    medians.push_back(weak->terms[j].median);
  }
  if (terms.empty()) {
    why = "the weak form keeps no term";
    return nullptr;
  }
  const at::NoGradGuard no_grad;
  const std::int64_t dimensions = run.root->kernel()->dimensions();
  auto shift = std::make_shared<solve::OperatorShift>();
  shift->library =
      pde::make_term_library(model::root_variable_names(dimensions), run.config.distill.degree);
  const at::Tensor expansions = eval::pointwise_expansions(terms, shift->library);  // [K, J]
  const at::Tensor v =
      distill_points(layout.root(), run.config.distill.max_points, dimensions).v;  // [P, D]
  const at::Tensor mean = gp::PosteriorMean(*run.root)
                              .evaluate(v.unsqueeze(0).to(run.root->inducing_inputs().device()))
                              .cpu()
                              .reshape({-1});  // m(V) [P]
  const at::Tensor beta = solve::term_coefficients(shift->library, expansions, v, mean);
  const at::Tensor xi = at::tensor(medians, at::kDouble);
  shift->coefficients = at::matmul(xi - beta, expansions);
  shift->description = shift_description(terms, beta, xi, weak->coefficients.size(0));
  solve::validate(*shift);
  return shift;
}

}  // namespace bhpm::pipeline
