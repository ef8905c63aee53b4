#pragma once
/// Accuracy and calibration of a learned operator on held-out data (paper section 3,
/// "Quantifying the accuracy of the learned physics").
///
/// The model's prediction of each target y_i is a normal N(m_i, v_i): the posterior of the
/// root f at the point plus the likelihood variance. Over the P points:
///   RMSE            sqrt(mean_i (y_i - m_i)^2)
///   relative RMSE   RMSE / std(y), the population standard deviation of the targets
///   NLPD_i          0.5 log(2 pi v_i) + (y_i - m_i)^2 / (2 v_i)
///   median NLPD     the median over points (the paper's summary: the mean is dominated by a
///                   few outliers), with the mean of the two middle values for even P
///   coverage(a)     fraction of points inside the central interval of probability a,
///                   m_i +- z_{(1+a)/2} sqrt(v_i), i.e. erf(|y_i - m_i| / sqrt(2 v_i)) <= a

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace bhpm::eval {

struct OperatorMetrics {
  std::int64_t points = 0;  ///< P
  double rmse = 0.0;
  double relative_rmse = 0.0;  ///< NaN when the targets are all equal (std(y) = 0)
  double median_nlpd = 0.0;
  double mean_nlpd = 0.0;
  /// (nominal level a, empirical fraction of points inside the central interval of level a),
  /// in the order of the requested levels.
  std::vector<std::pair<double, double>> coverage;
};

/// Metrics of the predictive normals N(mean, variance) [P] against target [P] (all double,
/// P >= 1, finite, variance > 0) at the central-interval levels (each in (0, 1)). Throws
/// std::invalid_argument naming the argument, the offending value and the rule.
OperatorMetrics operator_metrics(const at::Tensor& mean, const at::Tensor& variance,
                                 const at::Tensor& target,
                                 const std::vector<double>& levels = {0.5, 0.9, 0.95});

/// RMSE of mean [P] against target [P] over the points of each experiment: entry e is
/// sqrt(mean_{i: experiment_i = e} (target_i - mean_i)^2), e = 0..experiments-1, NaN for an
/// experiment without points. experiment [P] int64 with values in [0, experiments). Throws
/// std::invalid_argument naming the argument, the offending value and the rule.
std::vector<double> rmse_per_experiment(const at::Tensor& mean, const at::Tensor& target,
                                        const at::Tensor& experiment, std::int64_t experiments);

}  // namespace bhpm::eval
