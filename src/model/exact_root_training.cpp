#include "model/exact_root_training.h"

#include <ATen/ATen.h>

#include "model/bhpm_model.h"
#include "util/option_check.h"

namespace bhpm::model {

void validate(const ExactRootTrainingOptions& options) {
  validate(static_cast<const AdamSchedule&>(options), "exact_gp");
  util::require_at_least(options.points, 1, "exact_gp training", "points");
}

PhaseResult train_exact_root(gp::ExactGpImpl& root, const ExactRootTrainingOptions& options,
                             const TrainingCallback& progress) {
  const std::int64_t points = root.train_inputs().size(0);
  const AdamPhase phase{
      "exact_gp",
      &root,
      {{"root.order", std::to_string(root.kernel()->dimensions() - 1)},
       {"train_root.points (rows of the root data used)", std::to_string(points)}},
      [&](std::int64_t) {
        const at::Tensor loss = -root.log_marginal_likelihood() / static_cast<double>(points);
        return PhaseObjective{loss, [&root, loss] {
                                ProgressTerms terms{{"nlml", loss.item<double>()}};
                                append_root_terms(*root.mean(), *root.likelihood(), terms);
                                return terms;
                              }};
      },
      {},
      {},
      {}};
  return run_adam_phase(phase, options, progress);
}

}  // namespace bhpm::model
