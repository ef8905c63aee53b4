#include "model/bhpm_training.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>

#include "model/root_data.h"

namespace bhpm::model {

namespace {

/// The phases' own options with the shared seed and configuration.
BhpmTrainingOptions resolve(BhpmTrainingOptions o) {
  o.leaf_training.seed = o.joint_training.seed = o.seed;
  o.leaves.network.seed = o.seed;
  o.leaf_training.config = o.exact_training.config = o.joint_training.config = o.config;
  return o;
}

/// Phases 1 and 2, then the sparse root made from the exact GP (phase 3's start).
BhpmModel fit_leaves_then_root(const LeafData& data, const BhpmTrainingOptions& o,
                               const TrainingCallback& progress, BhpmTrainingResult& result) {
  LeafModel leaves(o.leaves);
  leaves->to(o.device);
  const LeafTrainingResult fitted = train_leaves(*leaves, data, o.leaf_training, progress);
  result.leaves.resumed_from = fitted.resumed_from;
  result.leaves.final_loss = fitted.final_loss;
  result.leaves_kept_iterations = fitted.kept_iterations;
  result.leaves_validation_rmse = fitted.validation_rmse;

  const RootData all = root_data_detached(*leaves, data, o.root.order);
  gp::ExactGp exact =
      make_exact_root(random_rows(all, o.exact_training.points, o.seed), o.root.kernel);
  exact->to(o.device);
  result.exact_gp = train_exact_root(*exact, o.exact_training, progress);
  gp::SparseVariationalGp root = make_sparse_root(*exact, all.inputs, o.root, o.seed);
  root->to(o.device);
  return BhpmModel(leaves, root, o.root.order, o.root.input_noise == "laplace");
}

/// The model's shapes for a restore from joint.ckpt.
BhpmModel skeleton(const LeafData& data, const BhpmTrainingOptions& o) {
  const std::int64_t inducing = std::min(o.root.inducing_points, data.leaves() * data.points());
  BhpmModel model(
      LeafModel(o.leaves),
      sparse_root_skeleton(inducing, o.root.order + 1, o.root.train_inducing_inputs, o.root.kernel),
      o.root.order, o.root.input_noise == "laplace");
  model->to(o.device);
  return model;
}

}  // namespace

BhpmTrainingResult train_bhpm(const LeafData& host_data, const BhpmTrainingOptions& options,
                              const TrainingCallback& progress) {
  const BhpmTrainingOptions o = resolve(options);
  const LeafData data = on_device(host_data, o.device);
  validate(o.root);
  validate(data, "training data");
  validate(o.exact_training);
  BhpmTrainingResult result;
  result.skipped_to_joint = !o.joint_training.checkpoint_path.empty() &&
                            std::filesystem::exists(o.joint_training.checkpoint_path);
  result.model =
      result.skipped_to_joint ? skeleton(data, o) : fit_leaves_then_root(data, o, progress, result);
  result.joint = train_joint(*result.model, data, o.joint_training, progress);
  return result;
}

}  // namespace bhpm::model
