#pragma once
/// The root GP f(v) ~ GP(w . v + b, k) with k from gp/kernel_table.h (the paper's ARD
/// squared exponential by default), Gaussian likelihood
/// (paper section 2.2, appendix B): how phase 2 builds its exact GP from the root data,
/// how phase 3 turns it sparse, and how a trained sparse root is read back from a
/// checkpoint (for evaluation and prediction).

#include <cstdint>
#include <string>
#include <vector>

#include "gp/exact_gp.h"
#include "gp/sparse_variational_gp.h"
#include "io/checkpoint.h"
#include "model/root_data.h"

namespace bhpm::model {

struct RootOptions {
  int order = 2;                         ///< K: v = (u, .., d^K u/dx^K), D = K + 1 (0..6)
  std::int64_t inducing_points = 128;    ///< n_u, k-means centres of the root inputs (>= 1)
  bool train_inducing_inputs = true;     ///< whether phase 3 moves the inducing inputs
  std::int64_t kmeans_iterations = 100;  ///< Lloyd iterations for the centres (>= 0)
  std::string kernel = "rbf";            ///< one of gp::kernel_names()
  /// How the leaves' uncertainty enters the joint ELBO: "none" (the paper: v and u_t
  /// exact) or "laplace" (model/leaf_laplace.h: the first-order noisy-input variance
  /// a^T Cov(z) a added to sigma_f^2 per root point).
  std::string input_noise = "none";
};

/// The names root.input_noise accepts: "none", "laplace".
const std::vector<std::string>& input_noise_names();

/// The architecture field under which a joint checkpoint records the root's kernel.
inline constexpr const char* kRootKernelField = "root.kernel";

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const RootOptions& options);

/// The phase-2 exact GP on `data`, initialised from the data (the paper leaves the start
/// open): w, b by least squares, the kernel (gp/kernel_table.h) with input scales
/// l_i = standard deviation of input i (1 if constant) and prior variance s^2 = variance
/// of the least-squares residual, sigma_f^2 = s^2 / 100 (each floored at 1e-12 relative
/// to the target variance so that nothing starts at zero).
gp::ExactGp make_exact_root(const RootData& data, const std::string& kernel_name = "rbf");

/// Phase 3's start (appendix B): n_u inducing inputs at k-means centres of `all_inputs`
/// [n, D], clustered in the kernel's metric (inputs divided by the trained input scales,
/// so that an input with a large range does not dominate), parts shared with `exact`,
/// q(u) set to the exact GP's posterior there. Seeds k-means with
/// derive_seed(seed, "inducing", 0).
gp::SparseVariationalGp make_sparse_root(const gp::ExactGpImpl& exact, const at::Tensor& all_inputs,
                                         const RootOptions& options, std::uint64_t seed);

/// A sparse root of the right shapes (M inducing inputs in D dimensions) whose values a
/// checkpoint restore overwrites.
gp::SparseVariationalGp sparse_root_skeleton(std::int64_t inducing_points, std::int64_t dimensions,
                                             bool train_inducing_inputs,
                                             const std::string& kernel_name = "rbf");

/// The kernel name a joint checkpoint records ("rbf" for checkpoints made before kernels
/// had names).
std::string root_kernel_name(const io::Checkpoint& checkpoint);

/// The sparse root stored in a checkpoint under "param/<prefix>..." (e.g. "root."), shapes
/// taken from the checkpoint. Throws io::CheckpointError naming `source` when a parameter
/// is missing or of another shape.
gp::SparseVariationalGp sparse_root_from_checkpoint(const io::Checkpoint& checkpoint,
                                                    const std::string& prefix,
                                                    const std::string& source);

}  // namespace bhpm::model
