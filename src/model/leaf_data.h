#pragma once
/// The measurements the leaves are fitted to (paper Eq. 2): for each of L experiments,
/// P points (x_j, t_j, u_hat_j) and the experiment's domain box.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nn/sine_mlp.h"
#include "pde/measured_experiment.h"

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

/// The leaf's box of an experiment's window.
nn::DomainBox domain_box(const pde::MeasurementWindow& window);
/// The boxes of every experiment's window, in order.
std::vector<nn::DomainBox> domain_boxes(const std::vector<pde::MeasuredExperiment>& measured);

/// x [L, T X] and t [L, T X] of every box's grid, x fastest: x_min + (x_max - x_min) unit_x
/// and t_min + (t_max - t_min) unit_t for the unit grids unit_x [X] and unit_t [T].
std::pair<at::Tensor, at::Tensor> box_grids(const std::vector<nn::DomainBox>& boxes,
                                            const at::Tensor& unit_x, const at::Tensor& unit_t);

/// The first `experiments` experiments and the first `points` measurements of each
/// (stored in random order, so a random subset), each on its own window. Throws
/// std::invalid_argument naming `source` (and the experiment) when there are fewer
/// experiments, or an experiment has fewer points.
LeafData leaf_data_from_measurements(const std::vector<pde::MeasuredExperiment>& measured,
                                     std::int64_t experiments, std::int64_t points,
                                     const std::string& source);

/// The same data with x, t, u on `device`.
LeafData on_device(const LeafData& data, at::Device device);

/// The fewest points any of the first `experiments` experiments holds.
std::int64_t fewest_points(const std::vector<pde::MeasuredExperiment>& measured,
                           std::int64_t experiments);

/// Minibatch indices [L, B] for training step `iteration`: B = batch_size distinct points
/// per leaf drawn from derive_seed(seed, stream, iteration) alone (so a resumed run draws
/// the same batches). Undefined tensor when batch_size is 0 or >= P (full batches).
at::Tensor minibatch_indices(const LeafData& data, std::int64_t batch_size, std::uint64_t seed,
                             const std::string& stream, std::int64_t iteration);
/// The same for L leaves of P points each, the indices on `device`.
at::Tensor minibatch_indices(std::int64_t leaves, std::int64_t points, at::Device device,
                             std::int64_t batch_size, std::uint64_t seed, const std::string& stream,
                             std::int64_t iteration);

/// The measurements at `indices` [L, B] (all of them when indices is undefined).
LeafData select_points(const LeafData& data, const at::Tensor& indices);

/// (fitted, kept back): of each leaf's P points, point j is kept back when
/// j % every == every - 1 (points are stored in random order, so a random 1/every of
/// them). Throws std::invalid_argument unless 2 <= every <= P.
std::pair<LeafData, LeafData> keep_back_points(const LeafData& data, std::int64_t every);

/// [P] bool: which of P points keep_back_points keeps back; throws as it does.
at::Tensor kept_back_mask(std::int64_t points, std::int64_t every);

}  // namespace bhpm::model
