#pragma once
/// A deterministic, evenly spread subset of rows: flat indices (i s) mod total,
/// i = 0..keep-1, sorted, where the stride s is the smallest integer >= total / keep that
/// is coprime with total. The indices are distinct, and for rows laid out block by block
/// (experiments, times, grid points) they reach every block and every residue: a stride
/// that is a multiple of the grid size would keep a single x.

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace bhpm::eval {

/// The kept indices [keep] (int64, sorted) of 0..total-1, for 1 <= keep <= total; all of
/// them for keep >= total.
at::Tensor evenly_spread_subset(std::int64_t total, std::int64_t keep);

}  // namespace bhpm::eval
