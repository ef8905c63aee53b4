#include "report/calibration_figure.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "report/gnuplot.h"
#include "report/input_file.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "solve/ensemble_statistics.h"

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
  std::vector<double> factors, inside(kLevels.size(), 0.0), sorted;
  for (const double level : kLevels)
    factors.push_back(solve::prediction_band_factor(calibration.members, level));
  double crps = 0;
  for (std::size_t k = 1; k < times; ++k) {
    double squared_error = 0, variance = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t i = k * n + j;
      const PointScores scores = point_scores(members, i, truth[i], sorted);
      squared_error += (scores.mean - truth[i]) * (scores.mean - truth[i]);
      variance += scores.std * scores.std;
      crps += scores.crps;
      for (std::size_t l = 0; l < kLevels.size(); ++l)
        inside[l] += std::abs(truth[i] - scores.mean) <= factors[l] * scores.std ? 1.0 : 0.0;
    }
    calibration.t.push_back(t[k]);
    calibration.error_spread.push_back(std::sqrt(squared_error / std::max(variance, 1e-300)));
  }
  const auto points = static_cast<double>((times - 1) * n);
  for (const double count : inside) calibration.coverage.push_back(count / points);
  calibration.crps = crps / points;
  return calibration;
}

Figure draw_calibration_figure(FigureWriter& writer,
                               const std::vector<PredictionCalibration>& predictions) {
  if (predictions.empty()) throw std::invalid_argument("calibration figure: no prediction");
  std::vector<Columns> reliability, ratios;
  for (const auto& prediction : predictions) {
    reliability.push_back({prediction.levels, prediction.coverage});
    ratios.push_back({prediction.t, prediction.error_spread});
  }
  write_column_blocks(writer.data_file("reliability.dat"), reliability);
  write_column_blocks(writer.data_file("error-spread.dat"), ratios);
  const auto lines = [&](const std::string& data, const std::string& style) {
    std::string plot;
    for (std::size_t b = 0; b < predictions.size(); ++b)
      plot += ", " + FigureWriter::data_reference(data) + " index " + std::to_string(b) +
              " using 1:2 with " + style + " lw 2 lc " + std::to_string(b + 1) + " title " +
              gnuplot_string(predictions[b].stem);
    return plot + "\n";
  };
  const std::string commands =
      multiplot_commands(1, 2, "calibration of the prediction bands against the truth") +
      "set grid\nset key bottom right box opaque\nset title 'reliability diagram'\n"
      "set xlabel 'nominal coverage p of the prediction band'\n"
      "set ylabel 'fraction of true values inside'\n" +
      range_command("x", 0, 1) + range_command("y", 0, 1) +
      "plot x with lines dt 2 lc rgb 'black' title 'calibrated'" +
      lines("reliability.dat", "linespoints pt 7") +
      "set title 'error / spread'\nset xlabel 't'\n"
      "set ylabel 'RMSE(mean - truth) / RMS(std) at each time'\nset autoscale\n"
      "set key top left box opaque\n"
      "plot 1 with lines dt 2 lc rgb 'black' title 'calibrated'" +
      lines("error-spread.dat", "lines") + "unset multiplot\n";
  return {writer.draw("reliability", {1400, 620}, commands), "Calibration of the predictions",
          "Left: for every prediction with a stored truth, the fraction of true values inside "
          "its central prediction band of nominal coverage p (mean -+ t sqrt(1 + 1/m) std over "
          "the m sound samples, t = 0 left out). Calibrated bands lie on the diagonal; below it "
          "they are too narrow (overconfident), above it too wide. Right: RMSE of the ensemble "
          "mean over the RMS ensemble std at each output time; 1 when the spread matches the "
          "error. A ratio that grows with t means uncertainty the samples do not carry."};
}

}  // namespace bhpm::report
