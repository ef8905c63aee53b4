#pragma once
/// The roots of a system of fields (docs/systems.md): one exact GP per field,
/// u_i,t = f_i(v), all on the same inputs v [N, D] (every field's partials to order K,
/// D = q (K + 1) on a line), each with its own mean, kernel and likelihood built and
/// trained as the one-field root's phase 2 (model/root_gp.h, model/exact_root_training.h).
/// Separate hyperparameters per field: the fields' operators may differ in scale and in
/// the inputs they read, which each GP's ARD length scales learn for itself. A
/// multi-output GP sharing them is not built (nothing measured favours it yet).

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "gp/exact_gp.h"
#include "model/exact_root_training.h"

namespace bhpm::model {

struct SystemRootData {
  at::Tensor inputs;   ///< v [N, D], double
  at::Tensor targets;  ///< u_t [N, q], double: column i is field i's time derivative
  at::Tensor leaf;     ///< [N] int64: the leaf (experiment) each row comes from, if known
  at::Tensor x, t;     ///< [N] double: where each row was taken, if known
};

/// Builds and trains the q roots; throws std::invalid_argument for data that are not
/// [N, D] and [N, q] double with the same N >= 1, and as train_exact_root.
std::vector<gp::ExactGp> train_system_roots(const SystemRootData& data,
                                            const std::string& kernel_name,
                                            const ExactRootTrainingOptions& options);

}  // namespace bhpm::model
