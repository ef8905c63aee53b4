#pragma once
/// The root's data set D^f (paper section 2.2): at every measurement point of every leaf,
/// the input v = (u, u_x, ..., d^K u/dx^K) and the target u_t, both from the leaf's
/// Taylor-mode pass. Rows are ordered leaf by leaf: row i P + j is point j of leaf i.

#include <ATen/core/Tensor.h>

#include <cstdint>

#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "nn/taylor_forward.h"

namespace bhpm::model {

struct RootData {
  at::Tensor inputs;   ///< v [L P, K + 1]
  at::Tensor targets;  ///< u_t [L P]

  std::int64_t points() const { return inputs.size(0); }
};

/// Rearranges one Taylor pass ([K+1, L, P] and [L, P]) into root rows; keeps the graph.
RootData root_data(const nn::LeafDerivatives& derivatives);

/// The root data of `leaves` at the points of `data`, without a graph (for the exact GP
/// of phase 2, k-means and exports), computed in chunks of at most `chunk` points per
/// leaf to bound memory.
RootData root_data_detached(const LeafModelImpl& leaves, const LeafData& data, int order,
                            std::int64_t chunk = 4096);

/// At most `count` rows drawn without replacement from derive_seed(seed, "root_subset", 0)
/// (the paper's phase 2 subsample of 1024); all rows, in order, when count >= points.
RootData random_rows(const RootData& data, std::int64_t count, std::uint64_t seed);

}  // namespace bhpm::model
