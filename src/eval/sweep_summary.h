#pragma once
/// The table of a sweep (paper Fig. 2: the operator's accuracy as n_st, the noise epsilon
/// or the number of experiments N varies): the held-out RMSE and mean negative log
/// predictive density (MNLP) of every repeat, and their mean and spread per value.

#include <cstdint>
#include <string>
#include <vector>

namespace bhpm::eval {

/// One trained member of a sweep: a value of the varied key and a repeat (its own seed).
struct SweepMember {
  std::string value;  ///< as given on the command line, e.g. "2048"
  std::int64_t repeat = 0;
  std::uint64_t seed = 0;
  std::string run_dir;
  bool finished = false;  ///< false: `failure` says why; its numbers are NaN
  std::string failure;
  double rmse = 0, mean_nlpd = 0, median_nlpd = 0, coverage_95 = 0;
};

/// Mean, sample standard deviation (0 for a single value), min and max; NaN when empty.
struct Spread {
  double mean, sd, min, max;
};
Spread spread(const std::vector<double>& values);

/// The finished repeats of one value, summarised.
struct SweepRow {
  std::string value;
  std::int64_t finished = 0, repeats = 0;
  Spread rmse, mean_nlpd;
};

/// One row per value, in the order of `values`.
std::vector<SweepRow> summarize_sweep(const std::vector<SweepMember>& members,
                                      const std::vector<std::string>& values);

/// An aligned text table: key value, runs finished / started, RMSE mean +- sd [min, max],
/// MNLP mean +- sd [min, max].
std::string sweep_table(const std::string& key, const std::vector<SweepRow>& rows);

/// CSV with a header: one line per member (value, repeat, seed, finished, rmse, mean_nlpd,
/// median_nlpd, coverage_95, run_dir); unfinished members have empty numbers.
std::string sweep_members_csv(const std::string& key, const std::vector<SweepMember>& members);

/// CSV with a header: one line per value (value, finished, repeats, then mean, sd, min, max
/// of rmse and of mean_nlpd).
std::string sweep_summary_csv(const std::string& key, const std::vector<SweepRow>& rows);

}  // namespace bhpm::eval
