#pragma once
/// The trained root in an HDF5 file for plots and other tools (readable with h5py alone;
/// docs/run-folder.md, "root.h5", lists every array):
///   /                 attributes format = "bhpm-root", format_version, order K,
///                     variables ("u,u_x,u_xx"), config (resolved TOML)
///   /root_inputs      v [N, n_st, K+1] and u_t [N, n_st] from the leaves at their
///                     measurement points, with x, t [N, n_st] (Fig. 1b's coverage data)
///   /gp               inducing_inputs [M, K+1]; q(u) as q_mean [M], q_covariance [M, M];
///                     the whitened q(v) as whitened_mean [M], whitened_cholesky [M, M];
///                     the mean's and kernel's hyperparameters by name (vectors as
///                     arrays: mean_weight, lengthscales; scalars as attributes:
///                     mean_bias, signal_variance); attributes kernel, noise_variance
///   /leaves           noise_scale [N]

#include <ATen/core/Tensor.h>

#include <string>

#include "model/bhpm_model.h"
#include "model/leaf_data.h"

namespace bhpm::model {

/// Writes the file atomically (temporary file, then rename).
void write_root_file(const std::string& path, const BhpmModelImpl& model, const LeafData& data,
                     const std::string& config);

/// /root_inputs/v of a root file: [N, n_st, K+1] (double). Throws io::Hdf5Error naming the
/// file and the array for a missing file or array, an array that is not 3-dimensional
/// with at least one row, or one holding NaN or Inf.
at::Tensor read_root_inputs(const std::string& path);

}  // namespace bhpm::model
