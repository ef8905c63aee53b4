#pragma once
/// Whether the training data conserve the spatial mean of u (docs/calibration.md, "Conserved
/// mean"). Conservation laws u_t = d/dx G(u, u_x, ..) on a periodic domain - Burgers, KdV,
/// the heat equation - keep <u>_x = (1/X) int u dx constant, while a smooth operator sample
/// f_s that is wrong by a near-constant c everywhere drifts u by c t without end. The
/// leaves tell which case the data are in: leaf e's spatial mean M_e(t) over its periodic
/// box moves by
///   D_e = max_k |M_e(t_k) - M_e(t_0)|
/// over the measured times, against the variation of u itself, s_e = std over the grid of
/// u_e. The data conserve the mean when max_e D_e / max_e s_e < kConservedMeanTolerance.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace bhpm::nn {
struct DomainBox;
}

namespace bhpm::model {

class LeafModelImpl;

/// 1 % of the variation of u: a leaf's own errors move its spatial mean by less on the
/// data it fits, a damping or a source term of a few per cent over the horizon by more
/// (docs/calibration.md, "Conserved mean", has the quickstart's figure).
constexpr double kConservedMeanTolerance = 0.01;

struct MeanDrift {
  std::vector<double> drift;  ///< D_e per leaf
  std::vector<double> scale;  ///< s_e per leaf
  /// max_e D_e / max_e s_e (0 when every leaf is constant).
  double relative() const;
  bool conserved() const { return relative() < kConservedMeanTolerance; }
};

/// D_e and s_e of fields u [L, T, X] (x fastest, t_0 first, the X points one period).
MeanDrift mean_drift(const at::Tensor& u);

/// D_e and s_e of every leaf on a grid of `x_points` x `t_points` (both >= 2) of its box
/// (x periodic: the right end left out). Throws std::invalid_argument for fewer points or
/// a box count that is not the leaves'.
MeanDrift leaf_mean_drift(const LeafModelImpl& leaves, const std::vector<nn::DomainBox>& boxes,
                          std::int64_t x_points = 256, std::int64_t t_points = 101);

}  // namespace bhpm::model
