#include "model/joint_training.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "model/leaf_training.h"
#include "model/root_gp.h"
#include "util/option_check.h"

namespace bhpm::model {

std::vector<std::pair<std::string, std::string>> joint_architecture(const BhpmModelImpl& model) {
  auto fields = leaf_architecture(model.leaves());
  fields.emplace_back("root.order", std::to_string(model.order()));
  fields.emplace_back("root.inducing_points", std::to_string(model.root().inducing_points()));
  fields.emplace_back(kRootKernelField, model.root().kernel()->name());
  return fields;
}

void validate(const JointTrainingOptions& options) {
  validate(static_cast<const AdamSchedule&>(options), "joint");
  util::require_at_least(options.batch_size, 0, "joint training", "batch_size");
}

PhaseResult train_joint(BhpmModelImpl& model, const LeafData& data,
                        const JointTrainingOptions& options, const TrainingCallback& progress) {
  validate(options);
  validate(data, "joint training data");
  if (data.leaves() != model.leaves().options().network.leaves)
    throw std::invalid_argument("joint training: the data hold " + std::to_string(data.leaves()) +
                                " experiments, the model has " +
                                std::to_string(model.leaves().options().network.leaves) +
                                " leaves");
  const double total = static_cast<double>(data.leaves() * data.points());
  AdamPhase phase{"joint", &model, joint_architecture(model), {}, {}, {}, {}};
  phase.objective = [&](std::int64_t iteration) {
    const LeafData batch = select_points(
        data, minibatch_indices(data, options.batch_size, options.seed, "joint_batch", iteration));
    const JointObjective joint = model.objective(batch, data.points());
    return PhaseObjective{
        joint.loss, [&model, joint, total] {
          ProgressTerms terms{
              {"loss", joint.loss.item<double>()},
              {"leaf_nll", joint.leaf_nll.sum().item<double>()},
              {"root_ell", joint.elbo.expected_log_likelihood.item<double>() / total},
              {"kl", joint.elbo.kl.item<double>()}};
          append_root_terms(*model.root().mean(), *model.root().likelihood(), terms);
          append_noise_scales(model.leaves(), terms);
          return terms;
        }};
  };
  if (options.optimal_root_posterior)
    phase.finish = [&model, &data] { model.set_optimal_root_posterior(data); };
  return run_adam_phase(phase, options, progress);
}

}  // namespace bhpm::model
