#include "report/calibration_figure.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "report/gnuplot.h"
#include "report/input_file.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "solve/ensemble_statistics.h"
#include "util/number_format.h"

namespace bhpm::report {

namespace {

const std::vector<double> kLevels = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99};

/// The sound members' values: rows [m][T * n] of samples/u whose diverged and rejected
/// flags are both 0.
std::vector<std::vector<double>> sound_members(const io::Hdf5Location& file, std::size_t times,
                                               std::size_t n) {
  const auto u = read_array(file, "samples/u", {0, times, n}, "sample, t, x");
  const std::size_t samples = u.shape[0];
  const auto diverged = read_array(file, "samples/diverged", {samples}, "sample").values;
  const std::vector<double> rejected =
      file.has("samples/rejected")
          ? read_array(file, "samples/rejected", {samples}, "sample").values
          : std::vector<double>(samples, 0.0);
  std::vector<std::vector<double>> members;
  for (std::size_t s = 0; s < samples; ++s)
    if (diverged[s] == 0 && rejected[s] == 0)
      members.emplace_back(u.values.begin() + static_cast<std::ptrdiff_t>(s * times * n),
                           u.values.begin() + static_cast<std::ptrdiff_t>((s + 1) * times * n));
  return members;
}

/// Per grid value i: mean, std (1/(m-1)), fair CRPS against y[i].
struct PointScores {
  double mean = 0, std = 0, crps = 0;
};

PointScores point_scores(const std::vector<std::vector<double>>& members, std::size_t i, double y,
                         std::vector<double>& sorted) {
  const auto m = static_cast<double>(members.size());
  PointScores scores;
  sorted.clear();
  double absolute = 0;
  for (const auto& member : members) {
    sorted.push_back(member[i]);
    scores.mean += member[i];
    absolute += std::abs(member[i] - y);
  }
  scores.mean /= m;
  double squares = 0;
  for (const double value : sorted) squares += (value - scores.mean) * (value - scores.mean);
  scores.std = std::sqrt(squares / (m - 1));
  std::sort(sorted.begin(), sorted.end());
  double pairs = 0;  // sum over i, j of |X_i - X_j| = 2 sum_k (2k - m - 1) X_(k)
  for (std::size_t k = 0; k < sorted.size(); ++k)
    pairs += 2.0 * (2.0 * static_cast<double>(k + 1) - m - 1.0) * sorted[k];
  scores.crps = absolute / m - pairs / (2.0 * m * (m - 1.0));
  return scores;
}

/// Adds grid value i (truth y) to the band and rank counts of `sums` and returns its
/// scores; `factors` are the band factors of sums.inside's levels.
PointScores add_point(const std::vector<std::vector<double>>& members, std::size_t i, double y,
                      const std::vector<double>& factors, CalibrationSums& sums,
                      std::vector<double>& sorted, std::mt19937_64& ties) {
  const PointScores scores = point_scores(members, i, y, sorted);
  for (std::size_t l = 0; l < factors.size(); ++l)
    sums.inside[l] += std::abs(y - scores.mean) <= factors[l] * scores.std ? 1.0 : 0.0;
  sums.rank_counts[static_cast<std::size_t>(truth_rank(sorted, y, ties))] += 1.0;
  return scores;
}

/// Empty sums for m members: one inside count per level, m + 1 rank counts.
CalibrationSums empty_sums(std::int64_t members, std::size_t points) {
  CalibrationSums sums;
  sums.members = members;
  sums.points = static_cast<std::int64_t>(points);
  sums.inside.assign(kLevels.size(), 0.0);
  sums.rank_counts.assign(static_cast<std::size_t>(members) + 1, 0.0);
  return sums;
}

/// The pooled coverage at nominal level p (a level of kLevels).
double pooled_coverage(const PooledCalibration& pooled, double p) {
  for (std::size_t l = 0; l < pooled.levels.size(); ++l)
    if (std::abs(pooled.levels[l] - p) < 1e-12) return pooled.coverage[l];
  throw std::logic_error("calibration figure: no level " + util::format_significant(p, 3));
}

/// The right panel: the pooled rank histogram (fractions against rank 0 .. m) and the
/// calibrated level 1/(m + 1).
std::string rank_histogram_commands(FigureWriter& writer, const PooledCalibration& pooled) {
  std::vector<double> ranks;
  for (std::size_t r = 0; r < pooled.rank_histogram.size(); ++r)
    ranks.push_back(static_cast<double>(r));
  write_column_blocks(writer.data_file("rank-histogram.dat"), {{ranks, pooled.rank_histogram}});
  const auto m = static_cast<double>(pooled.rank_members);
  return "set title " +
         gnuplot_string("pooled rank histogram (m = " + std::to_string(pooled.rank_members) + ")") +
         "\nset xlabel 'rank of the truth among the m sound members'\n"
         "set ylabel 'fraction of grid values'\nset autoscale\n" +
         range_command("x", -0.5, m + 0.5) +
         "set yrange [0:*]\nset boxwidth 0.9\nset style fill solid 0.5 border\n"
         "set key top center box opaque\nplot " +
         FigureWriter::data_reference("rank-histogram.dat") +
         " using 1:2 with boxes lc rgb '#4477aa' title 'truth', " +
         util::format_significant(1.0 / (m + 1.0), 10) +
         " with lines dt 2 lw 2 lc rgb 'black' title 'calibrated 1/(m + 1)'\n";
}

/// The caption's sentences on the right panel, its m and how many predictions it pools.
std::string rank_histogram_caption(const PooledCalibration& pooled) {
  return "Right: the rank of the truth among the m = " + std::to_string(pooled.rank_members) +
         " sound samples at every grid value (t = 0 left out; ties split at random, seed 0), "
         "pooled over the " +
         std::to_string(pooled.rank_predictions) + " of " + std::to_string(pooled.predictions) +
         " predictions with that m (the lower median of their m; the others are left out of "
         "it). Calibrated, every bin is 1/(m + 1) (dashed); high outer bins (U shape) mean "
         "too narrow an ensemble, a hump too wide, a slope a biased mean.";
}

/// The pooled scores as a sentence, computed from `pooled`.
std::string pooled_scores_caption(const PooledCalibration& pooled) {
  const auto number = [](double value) { return util::format_significant(value, 3); };
  return "Pooled over all " + std::to_string(pooled.predictions) +
         " predictions: coverage of the 50 / 90 / 95 % bands " +
         number(pooled_coverage(pooled, 0.5)) + " / " + number(pooled_coverage(pooled, 0.9)) +
         " / " + number(pooled_coverage(pooled, 0.95)) +
         "; error/spread sqrt(sum (mean - y)^2 / sum std^2) / sqrt(1 + 1/m) (the mean of that "
         "factor over the predictions) " +
         number(pooled.error_spread) +
         "; energy spread/skill (mean whole-field distance between samples over that from "
         "samples to the truth) " +
         number(pooled.spread_skill) +
         " (both 1 when calibrated; error/spread above 1 and spread/skill below 1 mean too "
         "narrow an ensemble).";
}

}  // namespace

PredictionCalibration prediction_calibration(const std::string& path) {
  const io::Hdf5Location file = open_input(path, "bhpm-ensemble");
  const auto x = read_array(file, "x", {0}, "x").values;
  const auto t = read_array(file, "t", {0}, "t").values;
  const std::size_t n = x.size(), times = t.size();
  PredictionCalibration calibration;
  if (!file.has("truth") || times < 2) return calibration;
  const auto truth = read_array(file, "truth/u", {times, n}, "t, x").values;
  const auto members = sound_members(file, times, n);
  if (members.size() < 2) return calibration;
  calibration.stem = std::filesystem::path(path).stem().string();
  calibration.members = static_cast<std::int64_t>(members.size());
  calibration.levels = kLevels;
  CalibrationSums& sums = calibration.sums = empty_sums(calibration.members, (times - 1) * n);
  std::vector<double> factors, sorted;
  for (const double level : kLevels)
    factors.push_back(solve::prediction_band_factor(calibration.members, level));
  std::mt19937_64 ties(0);
  double crps = 0;
  for (std::size_t k = 1; k < times; ++k) {
    double squared_error = 0, variance = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t i = k * n + j;
      const PointScores scores = add_point(members, i, truth[i], factors, sums, sorted, ties);
      squared_error += (scores.mean - truth[i]) * (scores.mean - truth[i]);
      variance += scores.std * scores.std;
      crps += scores.crps;
    }
    sums.squared_error += squared_error;
    sums.variance += variance;
    calibration.t.push_back(t[k]);
    calibration.error_spread.push_back(std::sqrt(squared_error / std::max(variance, 1e-300)));
  }
  const FieldDistances distances = field_distances(members, truth, n);
  sums.pairwise_distance = distances.pairwise;
  sums.truth_distance = distances.truth;
  const auto points = static_cast<double>(sums.points);
  for (const double count : sums.inside) calibration.coverage.push_back(count / points);
  calibration.crps = crps / points;
  return calibration;
}

Figure draw_calibration_figure(FigureWriter& writer,
                               const std::vector<PredictionCalibration>& predictions) {
  if (predictions.empty()) throw std::invalid_argument("calibration figure: no prediction");
  std::vector<Columns> reliability, ratios;
  std::vector<CalibrationSums> sums;
  for (const auto& prediction : predictions) {
    reliability.push_back({prediction.levels, prediction.coverage});
    ratios.push_back({prediction.t, prediction.error_spread});
    sums.push_back(prediction.sums);
  }
  const PooledCalibration pooled = pool(kLevels, sums);
  write_column_blocks(writer.data_file("reliability.dat"), reliability);
  write_column_blocks(writer.data_file("reliability-pooled.dat"),
                      {{pooled.levels, pooled.coverage}});
  write_column_blocks(writer.data_file("error-spread.dat"), ratios);
  const auto lines = [&](const std::string& data, const std::string& style) {
    std::string plot;
    for (std::size_t b = 0; b < predictions.size(); ++b)
      plot += ", " + FigureWriter::data_reference(data) + " index " + std::to_string(b) +
              " using 1:2 with " + style + " lw 2 lc " + std::to_string(b + 1) + " title " +
              gnuplot_string(predictions[b].stem);
    return plot;
  };
  const std::string commands =
      multiplot_commands(1, 3, "calibration of the prediction bands against the truth") +
      "set grid\nset key bottom right box opaque\nset title 'reliability diagram'\n"
      "set xlabel 'nominal coverage p of the prediction band'\n"
      "set ylabel 'fraction of true values inside'\n" +
      range_command("x", 0, 1) + range_command("y", 0, 1) +
      "plot x with lines dt 2 lc rgb 'black' title 'calibrated'" +
      lines("reliability.dat", "linespoints pt 7") + ", " +
      FigureWriter::data_reference("reliability-pooled.dat") +
      " using 1:2 with linespoints pt 5 lw 5 lc rgb 'black' title 'pooled'\n"
      "set title 'error / spread'\nset xlabel 't'\n"
      "set ylabel 'RMSE(mean - truth) / RMS(std) at each time'\nset autoscale\n"
      "set key top left box opaque\n"
      "plot 1 with lines dt 2 lc rgb 'black' title 'calibrated'" +
      lines("error-spread.dat", "lines") + "\n" + rank_histogram_commands(writer, pooled) +
      "unset multiplot\n";
  return {writer.draw("reliability", {2000, 620}, commands), "Calibration of the predictions",
          "Left: for every prediction with a stored truth, the fraction of true values inside "
          "its central prediction band of nominal coverage p (mean -+ t sqrt(1 + 1/m) std over "
          "the m sound samples, t = 0 left out), and in black the same pooled over every grid "
          "value of every prediction. Calibrated bands lie on the diagonal; below it they are "
          "too narrow (overconfident), above it too wide. Middle: RMSE of the ensemble mean "
          "over the RMS ensemble std at each output time; 1 when the spread matches the error. "
          "A ratio that grows with t means uncertainty the samples do not carry. " +
              rank_histogram_caption(pooled) + " " + pooled_scores_caption(pooled)};
}

}  // namespace bhpm::report
