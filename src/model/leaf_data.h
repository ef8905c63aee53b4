#pragma once
/// The measurements the leaves are fitted to (paper Eq. 2): for each of L experiments,
/// P points (x_j, t_j, u_hat_j) and the experiment's domain box.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nn/sine_mlp.h"
#include "pde/experiment_set.h"

namespace bhpm::model {

struct LeafData {
  at::Tensor x, t, u;                ///< [L, P] double
  std::vector<nn::DomainBox> boxes;  ///< [L]

  std::int64_t leaves() const { return x.size(0); }
  std::int64_t points() const { return x.size(1); }
};

/// Throws std::invalid_argument naming `source` unless x, t, u are [L, P] double with
/// L, P >= 1, equal shapes, finite values and one finite box of positive extent per leaf.
void validate(const LeafData& data, const std::string& source);

/// The box of every experiment of a set: its periodic grid [x_0, x_0 + n dx] x [t_0, t_last].
nn::DomainBox experiment_box(const pde::ExperimentSet& set);

/// The first `experiments` experiments of a set and the first `points` of their
/// measurements (measurement order is random, so this is a random subset), each on
/// experiment_box(set). Throws
/// std::invalid_argument naming `source` when the set offers fewer experiments or points.
LeafData leaf_data_from_set(const pde::ExperimentSet& set, std::int64_t experiments,
                            std::int64_t points, const std::string& source);

/// Minibatch indices [L, B] for training step `iteration`: B = batch_size distinct points
/// per leaf drawn from derive_seed(seed, stream, iteration) alone (so a resumed run draws
/// the same batches). Undefined tensor when batch_size is 0 or >= P (full batches).
at::Tensor minibatch_indices(const LeafData& data, std::int64_t batch_size, std::uint64_t seed,
                             const std::string& stream, std::int64_t iteration);

/// The measurements at `indices` [L, B] (all of them when indices is undefined).
LeafData select_points(const LeafData& data, const at::Tensor& indices);

}  // namespace bhpm::model
